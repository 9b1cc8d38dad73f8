"""What the host or a channel manager does to a running game: its settings (pace, what happens
at a deadline, reminders, each window's deadline, the seat-filler's strength) and ending it. Every click is checked again
against the game's own channel: a copied panel does not carry the right."""

from __future__ import annotations

from typing import Any

import discord

from locales import Translator
from locales.format import duration
from play import settings as settings_mod
from play.house import House
from play.seats import Seats
from store import GameRow, Store

from cogs.access import Access
from cogs.kit.codec import Verb, house
from cogs.kit.layout import panel_view
from cogs.kit.panel import Button, Option, Panel, Select, short
from cogs.kit.replies import reply
from cogs.lobby import lobby as lobby_mod
from cogs.table.keeper import TableKeeper
from cogs.titles.contract import ui_for
from cogs.titles.variants import variants_text

from . import away_menu
from .handover import Handover
from .orders_menu import OrdersMenu, button as orders_button, offered as orders_offered


#: The settings chosen like a window's length, in the settings panel's kind select (never a
#: window kind: those are plain words): the time to take back a move, and the time model's.
HOUSE_KINDS = {"~undo": "undo", "~bank": "bank", "~min_look": "min_look", "~away_days": "away_days"}
#: The seat-filler's strength, chosen through the same kind select (the panel's five rows are
#: taken: pace, deadline mode, reminders, the kind select and the chosen kind's own select).
LEVEL_KIND = "~ai_level"
CHOICES = {"undo": settings_mod.UNDO_CHOICES, "bank": settings_mod.BANK_CHOICES,
           "min_look": settings_mod.MIN_LOOK_CHOICES, "away_days": settings_mod.AWAY_DAYS_CHOICES}


def shown(key: str, value: int, t: Translator) -> str:
    """A setting's value as people read it."""
    if not value:
        return t("core.settings.none")
    return t("core.settings.days", days=value) if key == "away_days" else duration(value, t.lang)


def settings_lines(game: GameRow, conf: dict[str, Any], t: Translator) -> list[str]:
    ui = ui_for(game.title)
    lines = [
        t("core.lobby.pace", pace=t(f"core.pace.{conf['pace']}")),
        t("core.lobby.on_deadline", mode=t(f"core.on_deadline.{conf['on_deadline']}")),
        t("core.settings.reminder", every=duration(conf["reminder"], t.lang)),
        t("core.settings.bank", length=shown("bank", settings_mod.bank_of(conf), t)),
        t("core.settings.min_look", length=shown("min_look", settings_mod.min_look_of(conf), t)),
        t("core.settings.undo", length=shown("undo", conf["undo"], t)),
        t("seat.away.setting", mode=t(f"seat.away.mode.{conf['away']}")),
        t("core.settings.away_days", days=int(conf["away_days"])),
        t("core.lobby.ai_level", level=t(f"core.ai_level.{conf['ai_level']}")),
        t("core.settings.variants", variants=variants_text(game, t)),
    ]
    for timer in ui.game.timers:
        length = settings_mod.deadline_for(ui.game, conf, timer.kind)
        lines.append(t("core.settings.deadline_line", kind=t(f"{game.title}.timer.{timer.kind}"),
                       length=duration(length, t.lang) if length else t("core.settings.none")))
    lines.append(t("core.settings.time_help"))
    return lines


def current(key: str, conf: dict[str, Any]) -> int:
    return {"bank": settings_mod.bank_of(conf), "min_look": settings_mod.min_look_of(conf)}.get(key, conf.get(key) or 0)


def settings_panel(game: GameRow, t: Translator, kind: str | None = None) -> Panel:
    ui = ui_for(game.title)
    conf = settings_mod.merged(game.settings)
    comps: list[Any] = [
        Select(house(Verb.SET, "pace"), t("core.lobby.choose_pace"),
               [Option(t(f"core.pace.{p}"), p, default=conf["pace"] == p) for p in settings_mod.PACES],
               any_version=True),
        Select(house(Verb.SET, "on_deadline"), t("core.lobby.choose_on_deadline"),
               [Option(t(f"core.on_deadline.{m}"), m, description=short(t(f"core.on_deadline_help.{m}")),
                       default=conf["on_deadline"] == m) for m in settings_mod.ON_DEADLINE], any_version=True),
        Select(house(Verb.SET, "reminder"), t("core.settings.choose_reminder"),
               [Option(duration(s, t.lang) if s else t("core.settings.none"), str(s),
                       default=conf["reminder"] == s) for s in settings_mod.REMINDER_CHOICES], any_version=True),
        # The house's own lengths are chosen like a window's length (five rows at most).
        Select(house(Verb.KIND), t("core.settings.choose_kind"),
               [Option(t(f"{game.title}.timer.{tk.kind}"), tk.kind, default=tk.kind == kind) for tk in ui.game.timers]
               + [Option(t(f"core.settings.choose_{key}"), code, default=kind == code)
                  for code, key in HOUSE_KINDS.items()]
               + [Option(t("core.lobby.choose_ai_level"), LEVEL_KIND, default=kind == LEVEL_KIND)], any_version=True),
    ]
    if not kind:  # five rows at most: while a length is being chosen, this one makes room
        comps.insert(3, away_select(conf, t))
    if kind == LEVEL_KIND:
        comps.append(lobby_mod.level_select(conf, t, house(Verb.SET, "ai_level")))
    elif kind in HOUSE_KINDS:
        key = HOUSE_KINDS[kind]
        comps.append(Select(house(Verb.SET, key), t(f"core.settings.choose_{key}"),
                            [Option(shown(key, v, t), str(v), default=current(key, conf) == v) for v in CHOICES[key]],
                            any_version=True))
    elif kind:
        length = settings_mod.deadline_for(ui.game, conf, kind)
        comps.append(Select(house(Verb.LENGTH, kind), t("core.settings.choose_length",
                                                          kind=t(f"{game.title}.timer.{kind}")),
                            [Option(duration(s, t.lang) if s else t("core.settings.none"), str(s),
                                    default=s == length) for s in settings_mod.DEADLINE_CHOICES], any_version=True))
    return Panel(title=t("core.settings.title", title=t(f"{game.title}.name")),
                 description="\n".join(settings_lines(game, conf, t)), components=comps)


def away_select(conf: dict[str, Any], t: Translator) -> Select:
    return Select(house(Verb.SET, "away"), t("seat.away.choose_mode"),
                  [Option(t(f"seat.away.mode.{m}"), m, description=short(t(f"seat.away.mode_help.{m}")),
                          default=conf["away"] == m) for m in settings_mod.AWAY], any_version=True)


async def show(interaction: discord.Interaction, game: GameRow, panel: Panel, edit: bool = True) -> None:
    """A house panel for the clicker: in place of the (ephemeral) message clicked, or new."""
    view = panel_view(game, 0, panel, accent=ui_for(game.title).colour)
    if edit:
        await interaction.response.edit_message(view=view)
    else:
        await interaction.response.send_message(view=view, ephemeral=True)


class Admin:
    def __init__(self, bot: discord.Client, store: Store, house: House, seats: Seats, keeper: TableKeeper,
                 access: Access) -> None:
        self.bot = bot
        self.store = store
        self.house = house
        self.seats = seats
        self.keeper = keeper
        self.access = access
        self.handover = Handover(house.games, seats, keeper, access)
        self.orders = OrdersMenu(house)

    async def menu(self, interaction: discord.Interaction, game: GameRow, t: Translator, edit: bool = False) -> None:
        """The table's ⚙️ button: what this member may do about the game besides playing it
        (their preferences, leaving; settings and ending for the host and channel managers)."""
        prefs = await self.store.prefs(interaction.user.id)
        buttons = [
            Button(t("core.menu.dm", state=t("core.on" if prefs["dm_panel"] else "core.off")), house(Verb.PREF, "dm"), emoji="📨",
                   any_version=True),
            Button(t("core.menu.pings", state=t("core.on" if prefs["pings"] else "core.off")), house(Verb.PREF, "pings"),
                   emoji="🔔", any_version=True),
            Button(t("core.menu.digest", state=t("core.on" if prefs["digest"] else "core.off")), house(Verb.PREF, "digest"),
                   emoji="🗞️", any_version=True),
        ]
        lines = [t("core.menu.intro")]
        seated = game.status == "active" and game.seat_of(interaction.user.id) is not None
        if seated:
            if orders_offered(game):
                buttons.append(orders_button(t))
            buttons.append(Button(t("core.menu.leave"), house(Verb.LEAVE), "secondary", emoji="🚪", any_version=True))
        if await self.access.can_manage(interaction, game):
            lines.append(t("core.menu.manager"))
            buttons += [Button(t("core.menu.settings"), house(Verb.SETTINGS), "primary", emoji="⚙️", any_version=True, row=1),
                        Button(t("core.menu.end"), house(Verb.END_ASK), "danger", emoji="🛑", any_version=True, row=1)]
            if game.status == "active":
                buttons.append(Button(t("seat.handover.button"), house(Verb.HANDOVER), emoji="🔁", any_version=True, row=1))
        components: list[Any] = list(buttons)
        if seated:  # away mode: for every game this player plays
            until = await away_menu.until_of(self.house, interaction.user.id)
            lines.append(away_menu.status(t, until))
            components.append(away_menu.menu_select(t, until))
        panel = Panel(title=t("core.menu.title", title=t(f"{game.title}.name")), description="\n".join(lines),
                      components=components)
        await show(interaction, game, panel, edit=edit)

    async def away_click(self, interaction: discord.Interaction, game: GameRow, values: list[str],
                         t: Translator) -> None:
        if not await away_menu.menu_click(self.house, interaction, values):
            await reply(interaction, t("core.error.bad_action"))
            return
        await self.menu(interaction, game, t, edit=True)

    async def toggle_pref(self, interaction: discord.Interaction, game: GameRow, which: str, t: Translator) -> None:
        if which == "digest":  # the daily digest DM, written in the language the player uses now
            prefs = await self.store.prefs(interaction.user.id)
            await self.store.set_digest(interaction.user.id, not prefs["digest"], t.lang)
            await self.menu(interaction, game, t, edit=True)
            return
        key = {"dm": "dm_panel", "pings": "pings"}.get(which)
        if key is None:
            await reply(interaction, t("core.error.bad_action"))
            return
        prefs = await self.store.prefs(interaction.user.id)
        changes = {key: not prefs[key]} | ({"dm_closed": False} if key == "dm_panel" else {})
        prefs = await self.store.set_prefs(interaction.user.id, **changes)
        await self.menu(interaction, game, t, edit=True)
        seat = game.seat_of(interaction.user.id)
        if key == "dm_panel" and prefs["dm_panel"] and game.status == "active" and seat is not None:
            if not await self.keeper.dms.send(game, seat, interaction.user.id, fresh=True):
                await reply(interaction, t("core.dm.closed_you"))

    async def ask_leave(self, interaction: discord.Interaction, game: GameRow, t: Translator) -> None:
        if game.seat_of(interaction.user.id) is None:
            await reply(interaction, t("core.error.not_seated"))
            return
        panel = Panel(title=t(f"{game.title}.name"), description=t("core.leave.question", title=t(f"{game.title}.name")),
                      components=[Button(t("core.leave.confirm"), house(Verb.LEAVE, "yes"), "danger", any_version=True),
                                  Button(t("core.leave.keep"), house(Verb.LEAVE, "no"), "secondary", any_version=True)])
        message = interaction.message
        await show(interaction, game, panel, edit=message is not None and message.flags.ephemeral)

    async def leave_click(self, interaction: discord.Interaction, game: GameRow, arg: str, t: Translator) -> None:
        if arg != "yes":
            await show(interaction, game, Panel(title=t(f"{game.title}.name"), description=t("core.leave.kept")))
            return
        game = await self.house.games.game(game.id, fresh=True) or game
        seat = game.seat_of(interaction.user.id)
        if seat is None or game.status != "active":
            await show(interaction, game, Panel(title=t(f"{game.title}.name"), description=t("core.error.not_seated")))
            return
        await show(interaction, game, Panel(title=t(f"{game.title}.name"), description=t("core.leave.done")))
        await self.seats.leave(game, seat)

    async def open_settings(self, interaction: discord.Interaction, game: GameRow, t: Translator) -> None:
        if not await self.access.can_manage(interaction, game):
            await reply(interaction, t("core.error.host_only"))
            return
        await show(interaction, game, settings_panel(game, t), edit=False)

    async def settings_click(self, interaction: discord.Interaction, game: GameRow, verb: str, arg: str,
                             values: list[str], t: Translator) -> None:
        game = await self.store.get(game.id) or game
        if not game.live:
            await reply(interaction, t("core.lobby.closed"))
            return
        if not await self.access.can_manage(interaction, game):
            await reply(interaction, t("core.error.host_only"))
            return
        value = values[0] if values else ""
        kind = None
        engine_game = ui_for(game.title).game
        if verb == "set":
            parsed: Any = int(value) if arg in ("reminder", "undo", *CHOICES) and value.isdigit() else value
            if not settings_mod.validate(arg, parsed):
                await reply(interaction, t("core.error.bad_action"))
                return
            game.settings = {**game.settings, arg: parsed}
        elif verb == "kind":
            kind = value if value in (*HOUSE_KINDS, LEVEL_KIND) or any(tk.kind == value for tk in engine_game.timers) else None
        elif verb == "len":
            if not any(tk.kind == arg for tk in engine_game.timers) or not value.isdigit() \
                    or int(value) not in settings_mod.DEADLINE_CHOICES:
                await reply(interaction, t("core.error.bad_action"))
                return
            deadlines = {**(game.settings.get("deadlines") or {}), arg: int(value)}
            game.settings = {**game.settings, "deadlines": deadlines}
            kind = arg
        if verb != "kind":
            await self.house.change_settings(game, game.settings)
        await show(interaction, game, settings_panel(game, t, kind))

    async def ask_end(self, interaction: discord.Interaction, game: GameRow, t: Translator) -> None:
        if not await self.access.can_manage(interaction, game):
            await reply(interaction, t("core.error.host_only"))
            return
        panel = Panel(title=t(f"{game.title}.name"), description=t("core.end.question", title=t(f"{game.title}.name")),
                      components=[Button(t("core.end.confirm"), house(Verb.END, "yes"), "danger", any_version=True),
                                  Button(t("core.end.keep"), house(Verb.END, "no"), "secondary", any_version=True)])
        message = interaction.message
        await show(interaction, game, panel, edit=message is not None and message.flags.ephemeral)

    async def end_click(self, interaction: discord.Interaction, game: GameRow, arg: str, t: Translator) -> None:
        if arg != "yes":
            await show(interaction, game, Panel(title=t(f"{game.title}.name"), description=t("core.end.kept")))
            return
        game = await self.store.get(game.id) or game
        if not game.live:
            await show(interaction, game, Panel(title=t(f"{game.title}.name"), description=t("core.lobby.closed")))
            return
        if not await self.access.can_manage(interaction, game):
            await reply(interaction, t("core.error.host_only"))
            return
        await show(interaction, game, Panel(title=t(f"{game.title}.name"), description=t("core.end.done")))
        await self.house.end(game, interaction.user.id)
        game = await self.store.get(game.id) or game
        channel = self.bot.get_channel(game.channel_id)
        if channel is None:
            return
        gt = Translator(game.lang)
        await channel.send(gt("core.end.announce", user=interaction.user.mention, title=gt(f"{game.title}.name")),
                           allowed_mentions=discord.AllowedMentions.none())
        if game.state is not None:
            self.keeper.refresh(game.id)
        elif game.lobby_message_id:
            try:
                await channel.get_partial_message(game.lobby_message_id).edit(  # type: ignore[union-attr]
                    view=lobby_mod.lobby_message(game, gt))
            except discord.HTTPException:
                pass

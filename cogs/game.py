"""`/game`: the commands and clicks every title shares, from the lobby to the results.

Clicks arrive through the dynamic items of `shared/views.py` and modal submissions through
`on_interaction`; both land in `route`, which checks who clicked and when (stale versions),
then hands title codes to the title's UI and applies the actions it returns.
"""

from __future__ import annotations

import logging
import random
import re

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _l
from discord.ext import commands

from engine.core import RuleError
from locales import ROOT as LOCALES, Translator, language_of, languages
from locales.format import duration, join_list
from service.stop import track
from store import ChannelBusy, Seat

from .shared import codec, lobby as lobby_mod, settings as settings_mod
from .shared.house import House, error_key, now
from .shared.panel import Apply, Ask, Button, Option, Panel, Refuse, Select, Show
from .shared.table import TableKeeper
from .shared.titles import ui_for, uis
from .shared.views import DYNAMIC_ITEMS, FormModal, build_embed, build_view, modal_values, set_router

log = logging.getLogger(__name__)

#: What the bot needs in a channel to host a game there.
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


def with_view(view: discord.ui.View | None, **kwargs: Any) -> dict[str, Any]:
    """Message kwargs with `view` only when there is one (discord.py refuses view=None on sends)."""
    if view is not None:
        kwargs["view"] = view
    return kwargs


def tr_for(interaction: discord.Interaction) -> Translator:
    return Translator(language_of(interaction.locale))


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True, **kw: Any) -> None:
    """Answer an interaction whether or not it was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kw)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kw)


def rules_pages(title: str, lang: str) -> list[str]:
    path = LOCALES / lang / f"{title}.rules.md"
    if not path.is_file():
        path = LOCALES / "en" / f"{title}.rules.md"
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    pages = [p.strip() for p in re.split(r"(?m)^## ", text) if p.strip()]
    return [p if i == 0 and not text.lstrip().startswith("## ") else "## " + p for i, p in enumerate(pages)]


def title_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=_l(ui.game.title, key=f"{title}.name"), value=title) for title, ui in uis().items()]


class GameCog(commands.Cog):
    game = app_commands.Group(name=_l("game", key="core.cmd.game.name"),
                              description=_l("Board games at this table", key="core.cmd.game.description"))

    def __init__(self, bot: commands.Bot, house: House) -> None:
        self.bot = bot
        self.house = house
        house.table = TableKeeper(house)
        set_router(self.route)

    async def cog_unload(self) -> None:
        set_router(None)

    # -- helpers ----------------------------------------------------------------------------

    async def _guild_defaults(self, guild: discord.Guild | None) -> dict[str, Any]:
        return await self.house.store.guild_settings(guild.id if guild else None)

    def _can_manage(self, interaction: discord.Interaction) -> bool:
        perms = interaction.permissions
        return bool(perms and (perms.manage_channels or perms.manage_guild or perms.administrator))

    async def _need_guild(self, interaction: discord.Interaction) -> bool:
        if interaction.guild is None:
            await reply(interaction, tr_for(interaction)("core.error.guild_only"))
            return False
        return True

    async def _live(self, interaction: discord.Interaction):
        game = await self.house.live_in(interaction.channel_id or 0)
        if game is None:
            await reply(interaction, tr_for(interaction)("core.error.no_game"))
        return game

    # -- /game new ----------------------------------------------------------------------------

    @game.command(name=_l("new", key="core.cmd.new.name"),
                  description=_l("Open a lobby for a new game in this channel", key="core.cmd.new.description"))
    @app_commands.describe(title=_l("Which game", key="core.cmd.new.title"))
    @app_commands.rename(title=_l("title", key="core.cmd.new.title_name"))
    @app_commands.choices(title=title_choices())
    async def new(self, interaction: discord.Interaction, title: app_commands.Choice[str]) -> None:
        if not await self._need_guild(interaction):
            return
        await self.open_lobby(interaction, title.value, interaction.channel)

    async def open_lobby(self, interaction: discord.Interaction, title: str, channel: Any) -> None:
        t = tr_for(interaction)
        missing = self.missing_permissions(interaction, channel)
        if missing:
            await reply(interaction, t("core.error.bot_permissions", perms=join_list((t(f"core.perm.{p}") for p in missing), t.lang)))
            return
        defaults = await self._guild_defaults(interaction.guild)
        lang = defaults.get("lang") or language_of(getattr(interaction.guild, "preferred_locale", None) or interaction.locale)
        conf = {k: v for k, v in defaults.items() if k in ("pace", "on_deadline", "reminder")}
        try:
            game = await self.house.store.create_lobby(
                guild_id=interaction.guild_id, channel_id=channel.id, title=title, host_id=interaction.user.id,
                host_name=interaction.user.display_name, lang=lang, seed=random.SystemRandom().randrange(2**31),
                settings=conf, now=now(),
            )
        except ChannelBusy:
            busy = await self.house.store.live_in(channel.id)
            view = None
            if not isinstance(channel, discord.Thread) and hasattr(channel, "create_thread"):
                view = build_view(0, 0, [Button(t("core.lobby.open_thread"), f"Hthread:{title}", "primary",
                                                emoji="🧵", any_version=True)])
            await reply(interaction, t("core.error.channel_busy", title=t(f"{busy.title}.name") if busy else "?"),
                        **({"view": view} if view else {}))
            return
        gt = Translator(game.lang)
        embed, view = lobby_mod.lobby_message(game, gt)
        if channel.id == interaction.channel_id and not interaction.response.is_done():
            await interaction.response.send_message(embed=embed, view=view)
            message = await interaction.original_response()
        else:
            message = await channel.send(embed=embed, view=view)
            await reply(interaction, t("core.lobby.opened_in", channel=channel.mention))
        await self.house.store.update_game(game.id, now(), lobby_message_id=message.id)

    def missing_permissions(self, interaction: discord.Interaction, channel: Any) -> list[str]:
        perms = interaction.app_permissions
        if channel is not None and channel.id != interaction.channel_id and interaction.guild is not None:
            me = interaction.guild.me
            perms = channel.permissions_for(me) if me else perms
        needed = list(NEEDED)
        if isinstance(channel, discord.Thread):
            needed[1] = "send_messages_in_threads"
        return [p for p in needed if not getattr(perms, p, False)]

    # -- the other commands -----------------------------------------------------------------

    @game.command(name=_l("hand", key="core.cmd.hand.name"),
                  description=_l("Open your private panel for the game here", key="core.cmd.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        if not await self._need_guild(interaction):
            return
        game = await self._live(interaction)
        if game is not None:
            await self.open_panel(interaction, game.id)

    @game.command(name=_l("status", key="core.cmd.status.name"),
                  description=_l("Show the table again at the bottom of the channel", key="core.cmd.status.description"))
    async def status(self, interaction: discord.Interaction) -> None:
        if not await self._need_guild(interaction):
            return
        game = await self._live(interaction)
        if game is None:
            return
        t = tr_for(interaction)
        if game.status == "lobby":
            embed, view = lobby_mod.lobby_message(game, Translator(game.lang))
            await interaction.response.send_message(**with_view(view, embed=embed))
            message = await interaction.original_response()
            await self.house.store.update_game(game.id, now(), lobby_message_id=message.id)
            return
        await interaction.response.send_message(t("core.status.reposted"), ephemeral=True)
        self.house.table.refresh(game.id, repost=True)

    @game.command(name=_l("log", key="core.cmd.log.name"),
                  description=_l("What happened so far in the game here", key="core.cmd.log.description"))
    @app_commands.describe(page=_l("Page (1 is the most recent)", key="core.cmd.log.page"))
    async def log_cmd(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        if not await self._need_guild(interaction):
            return
        game = await self.house.store.latest_in(interaction.channel_id or 0)
        if game is None or game.status == "lobby":
            await reply(interaction, tr_for(interaction)("core.error.no_game"))
            return
        embed, view = await self.log_page(game.id, page - 1, tr_for(interaction))
        await interaction.response.send_message(**with_view(view, embed=embed, ephemeral=True))

    @game.command(name=_l("rules", key="core.cmd.rules.name"),
                  description=_l("Read the rules of a game", key="core.cmd.rules.description"))
    @app_commands.describe(title=_l("Which game", key="core.cmd.new.title"))
    @app_commands.rename(title=_l("title", key="core.cmd.new.title_name"))
    @app_commands.choices(title=title_choices())
    async def rules(self, interaction: discord.Interaction, title: app_commands.Choice[str] | None = None) -> None:
        t = tr_for(interaction)
        chosen = title.value if title else None
        if chosen is None and interaction.channel_id:
            game = await self.house.store.latest_in(interaction.channel_id)
            chosen = game.title if game else None
        if chosen is None:
            await reply(interaction, t("core.rules.choose"))
            return
        embed, view = self.rules_page(chosen, 0, t)
        await interaction.response.send_message(**with_view(view, embed=embed, ephemeral=True))

    @game.command(name=_l("settings", key="core.cmd.settings.name"),
                  description=_l("Deadlines, reminders and pace of the game here", key="core.cmd.settings.description"))
    async def settings_cmd(self, interaction: discord.Interaction) -> None:
        if not await self._need_guild(interaction):
            return
        game = await self._live(interaction)
        if game is None:
            return
        t = tr_for(interaction)
        if not (interaction.user.id == game.host_id or self._can_manage(interaction)):
            await reply(interaction, t("core.error.host_only"))
            return
        panel = self.settings_panel(game, t)
        await interaction.response.send_message(embed=build_embed(panel, ui_for(game.title).colour),
                                                view=build_view(game.id, 0, panel.components), ephemeral=True)

    @game.command(name=_l("leave", key="core.cmd.leave.name"),
                  description=_l("Leave the game here (the AI takes your seat)", key="core.cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        if not await self._need_guild(interaction):
            return
        game = await self._live(interaction)
        if game is None:
            return
        if game.status == "lobby":
            await self.lobby_click(interaction, game.id, "leave", [])
            return
        await self.leave_game(interaction, game)

    @game.command(name=_l("end", key="core.cmd.end.name"),
                  description=_l("End the game here (host or channel managers)", key="core.cmd.end.description"))
    async def end(self, interaction: discord.Interaction) -> None:
        if not await self._need_guild(interaction):
            return
        game = await self._live(interaction)
        if game is None:
            return
        t = tr_for(interaction)
        if not (interaction.user.id == game.host_id or self._can_manage(interaction)):
            await reply(interaction, t("core.error.host_only"))
            return
        view = build_view(game.id, 0, [Button(t("core.end.confirm"), "Hend:yes", "danger", any_version=True),
                                       Button(t("core.end.keep"), "Hend:no", "secondary", any_version=True)])
        await interaction.response.send_message(t("core.end.question", title=t(f"{game.title}.name")), view=view,
                                                ephemeral=True)

    @game.command(name=_l("history", key="core.cmd.history.name"),
                  description=_l("Finished games in this server", key="core.cmd.history.description"))
    async def history(self, interaction: discord.Interaction) -> None:
        if not await self._need_guild(interaction):
            return
        t = tr_for(interaction)
        games = await self.house.store.history(guild_id=interaction.guild_id, limit=10)
        if not games:
            await reply(interaction, t("core.history.none"))
            return
        lines = []
        for g in games:
            places = (g.result or {}).get("places") or []
            winners = [g.seats[i].name for i, p in enumerate(places) if p == 1 and i < len(g.seats)]
            lines.append(t("core.history.line", title=t(f"{g.title}.name"), when=f"<t:{int(g.finished_at or 0)}:d>",
                           winners=join_list(winners, t.lang) or "—", channel=f"<#{g.channel_id}>"))
        await reply(interaction, embed=discord.Embed(title=t("core.history.title"), description="\n".join(lines)))

    @game.command(name=_l("stats", key="core.cmd.stats.name"),
                  description=_l("Games played and won", key="core.cmd.stats.description"))
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        t = tr_for(interaction)
        who = member or interaction.user
        stats = await self.house.store.user_stats(who.id)
        if not stats:
            await reply(interaction, t("core.stats.none", user=who.display_name))
            return
        lines = [t("core.stats.line", title=t(f"{title}.name"), played=s["played"], won=s["won"])
                 for title, s in sorted(stats.items())]
        await reply(interaction, embed=discord.Embed(title=t("core.stats.title", user=who.display_name),
                                                     description="\n".join(lines)))

    @game.command(name=_l("prefs", key="core.cmd.prefs.name"),
                  description=_l("Your DM panel and turn pings", key="core.cmd.prefs.description"))
    @app_commands.describe(dm_panel=_l("Keep your private panel in a DM", key="core.cmd.prefs.dm_panel"),
                           pings=_l("Mention you when it is your move", key="core.cmd.prefs.pings"))
    async def prefs(self, interaction: discord.Interaction, dm_panel: bool | None = None, pings: bool | None = None) -> None:
        t = tr_for(interaction)
        changes: dict[str, bool] = {}
        if dm_panel is not None:
            changes["dm_panel"] = dm_panel
            changes["dm_closed"] = False
        if pings is not None:
            changes["pings"] = pings
        prefs = await self.house.store.set_prefs(interaction.user.id, **changes) if changes else \
            await self.house.store.prefs(interaction.user.id)
        text = t("core.prefs.now", dm=t("core.on" if prefs["dm_panel"] else "core.off"),
                 pings=t("core.on" if prefs["pings"] else "core.off"))
        await reply(interaction, text)
        if dm_panel and interaction.channel_id:
            game = await self.house.live_in(interaction.channel_id)
            if game is not None and game.status == "active" and game.seat_of(interaction.user.id) is not None:
                seat = game.seat_of(interaction.user.id)
                ok = await self.house.table.send_dm_panel(game, seat, interaction.user.id)
                if not ok:
                    await reply(interaction, t("core.dm.closed_you"))

    @game.command(name=_l("defaults", key="core.cmd.defaults.name"),
                  description=_l("Server defaults for new games (managers)", key="core.cmd.defaults.description"))
    @app_commands.describe(language=_l("Language of new games", key="core.cmd.defaults.language"),
                           pace=_l("Live or slow deadlines", key="core.cmd.defaults.pace"),
                           on_deadline=_l("What happens at a deadline", key="core.cmd.defaults.on_deadline"))
    @app_commands.choices(
        language=[app_commands.Choice(name=_l(code, key=f"core.lang.{code}"), value=code) for code in languages()],
        pace=[app_commands.Choice(name=_l(p, key=f"core.pace.{p}"), value=p) for p in settings_mod.PACES],
        on_deadline=[app_commands.Choice(name=_l(m, key=f"core.on_deadline.{m}"), value=m) for m in settings_mod.ON_DEADLINE],
    )
    async def defaults(self, interaction: discord.Interaction, language: app_commands.Choice[str] | None = None,
                       pace: app_commands.Choice[str] | None = None,
                       on_deadline: app_commands.Choice[str] | None = None) -> None:
        if not await self._need_guild(interaction):
            return
        t = tr_for(interaction)
        perms = interaction.permissions
        if not (perms.manage_guild or perms.administrator):
            await reply(interaction, t("core.error.manager_only"))
            return
        current = await self.house.store.guild_settings(interaction.guild_id)
        for key, choice in (("lang", language), ("pace", pace), ("on_deadline", on_deadline)):
            if choice is not None:
                current[key] = choice.value
        await self.house.store.set_guild_settings(interaction.guild_id or 0, current)
        conf = settings_mod.merged(current)
        await reply(interaction, t("core.defaults.now", lang=t(f"core.lang.{current.get('lang', 'en')}")
                                   if current.get("lang") else t("core.defaults.server_locale"),
                                   pace=t(f"core.pace.{conf['pace']}"), mode=t(f"core.on_deadline.{conf['on_deadline']}")))

    # -- channel lifecycle ------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self._channel_gone(thread.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A game's table message was deleted (by a moderator, a clean-up bot): put it back at
        once, so its buttons are there for whoever moves next."""
        game = await self.house.live_in(payload.channel_id)
        if game is not None and game.status == "active" and game.table_message_id == payload.message_id:
            self.house.table.refresh(game.id)

    async def _channel_gone(self, channel_id: int) -> None:
        game = await self.house.store.live_in(channel_id)
        if game is not None:
            await self.house.table.house_lost_channel(game)

    # -- clicks -----------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Forms go to the router. A click or form whose custom_id is not one of ours (garbage,
        another prefix, numbers out of range: only a stale or tampered client sends those) gets
        a short reply instead of Discord's "This interaction failed"."""
        custom_id = str((interaction.data or {}).get("custom_id", ""))  # type: ignore[union-attr]
        if interaction.type is discord.InteractionType.modal_submit:
            parsed = codec.parse(custom_id)
            if parsed is not None and parsed.kind == "bm":
                await self.route(interaction, parsed, [])
                return
        elif interaction.type is not discord.InteractionType.component or any(
                item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS):
            return
        try:
            await reply(interaction, tr_for(interaction)("core.error.bad_action"))
        except discord.HTTPException:
            pass

    async def route(self, interaction: discord.Interaction, parsed: codec.Parsed, values: list[str]) -> None:
        """Every click and form of ours. Never lets an interaction go unanswered."""
        track(interaction, "form" if parsed.kind == "bm" else "click")  # the stop waits for it; its time is measured
        try:
            code = parsed.code
            if code.startswith("L"):
                await self.lobby_click(interaction, parsed.game_id, code[1:], values)
            elif code.startswith("H"):
                await self.house_click(interaction, parsed, code[1:], values)
            else:
                await self.panel_click(interaction, parsed, values)
        except Exception:
            log.exception("click %s failed", parsed)
            # "Nothing was changed" only while it is true: once the click's move is committed, a
            # failure (Discord refusing the reply) leaves the move made.
            key = "core.error.applied_unshown" if interaction.extras.get("applied") else "core.error.internal"
            try:
                await reply(interaction, tr_for(interaction)(key))
            except discord.HTTPException:
                pass

    # lobby ----------------------------------------------------------------------------------

    async def lobby_click(self, interaction: discord.Interaction, game_id: int, verb: str, values: list[str]) -> None:
        t = tr_for(interaction)
        store = self.house.store
        async with self.house.lock(game_id):
            game = await store.get(game_id)
            if game is None or game.status != "lobby":
                await reply(interaction, t("core.lobby.closed"))
                return
            user = interaction.user
            is_host = user.id == game.host_id
            g = ui_for(game.title).game
            seats = list(game.seats)
            mine = next((s for s in seats if s.user_id == user.id), None)
            host_only = {"addai", "rmai", "opts", "start", "variants", "lang", "pace", "deadline"}
            if verb.split(":")[0] in host_only and not is_host:
                await reply(interaction, t("core.error.host_only"))
                return
            if verb == "cancel" and not (is_host or self._can_manage(interaction)):
                await reply(interaction, t("core.error.host_only"))
                return
            if verb == "join":
                if mine is not None:
                    await reply(interaction, t("core.lobby.already"))
                    return
                if len(seats) >= g.max_players:
                    await reply(interaction, t("core.lobby.full", hi=g.max_players))
                    return
                seats.append(Seat(len(seats), user.id, user.display_name))
            elif verb == "leave":
                if mine is None:
                    await reply(interaction, t("core.lobby.not_in"))
                    return
                seats.remove(mine)
                if mine.user_id == game.host_id:
                    heir = next((s for s in seats if not s.is_ai), None)
                    if heir is None:
                        await store.finish(game.id, "cancelled", now())
                        game.status = "cancelled"
                        await self._edit_lobby(interaction, game)
                        return
                    game.host_id = heir.user_id or game.host_id
                    await store.update_game(game.id, now(), host_id=game.host_id)
            elif verb == "addai":
                if len(seats) >= g.max_players:
                    await reply(interaction, t("core.lobby.full", hi=g.max_players))
                    return
                seats.append(Seat(len(seats), None, lobby_mod.ai_name(seats), is_ai=True))
            elif verb == "rmai":
                ai = [s for s in seats if s.is_ai]
                if not ai:
                    await reply(interaction, t("core.lobby.no_ai"))
                    return
                seats.remove(ai[-1])
            elif verb == "opts":
                panel = lobby_mod.options_panel(game, t)
                await interaction.response.send_message(embed=build_embed(panel, ui_for(game.title).colour),
                                                        view=build_view(game.id, 0, panel.components), ephemeral=True)
                return
            elif verb in ("variants", "lang", "pace", "deadline") or verb.startswith("opt:"):
                await self._lobby_option(interaction, game, verb, values, t)
                return
            elif verb == "cancel":
                await store.finish(game.id, "cancelled", now())
                game.status = "cancelled"
                await self._edit_lobby(interaction, game)
                return
            elif verb == "start":
                await self._start(interaction, game, t)
                return
            else:
                await reply(interaction, t("core.error.bad_action"))
                return
            await store.set_seats(game.id, seats, now())
            game.seats = await store.seats(game.id)
            await self._edit_lobby(interaction, game)

    async def _edit_lobby(self, interaction: discord.Interaction, game) -> None:
        embed, view = lobby_mod.lobby_message(game, Translator(game.lang))
        kwargs: dict[str, Any] = {"embed": embed, "view": view}
        if interaction.message is not None and interaction.message.id == game.lobby_message_id \
                and not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
            return
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True)
        if game.lobby_message_id and interaction.channel is not None:
            try:
                await interaction.channel.get_partial_message(game.lobby_message_id).edit(**kwargs)  # type: ignore
                return
            except discord.NotFound:
                pass
        channel = self.bot.get_channel(game.channel_id)
        if channel is not None:
            msg = await channel.send(**kwargs)  # type: ignore[union-attr]
            await self.house.store.update_game(game.id, now(), lobby_message_id=msg.id)

    async def _lobby_option(self, interaction: discord.Interaction, game, verb: str, values: list[str], t: Translator) -> None:
        store = self.house.store
        g = ui_for(game.title).game
        if verb == "variants":
            bools = [o for o in lobby_mod.lobby_options(g) if o.kind == "bool"]
            options = dict(game.options)
            for o in bools:
                options[o.key] = o.key in values
            game.options = options
            await store.update_game(game.id, now(), options=options)
        elif verb.startswith("opt:"):
            key = verb[4:]
            spec = next((o for o in lobby_mod.lobby_options(g) if o.key == key), None)
            value = values[0] if values else None
            match = next((c for c in (spec.choices if spec else ()) if str(c) == value), None)
            if spec is None or match is None:
                await reply(interaction, t("core.error.bad_action"))
                return
            game.options = {**game.options, key: match}
            await store.update_game(game.id, now(), options=game.options)
        elif verb == "lang":
            if not values or values[0] not in languages():
                await reply(interaction, t("core.error.bad_action"))
                return
            game.lang = values[0]
            await store.update_game(game.id, now(), lang=game.lang)
        elif verb in ("pace", "deadline"):
            key = "pace" if verb == "pace" else "on_deadline"
            if not values or not settings_mod.validate(key, values[0]):
                await reply(interaction, t("core.error.bad_action"))
                return
            game.settings = {**game.settings, key: values[0]}
            await store.update_game(game.id, now(), settings=game.settings)
        panel = lobby_mod.options_panel(game, t)
        await interaction.response.edit_message(embed=build_embed(panel, ui_for(game.title).colour),
                                                view=build_view(game.id, 0, panel.components))
        embed, view = lobby_mod.lobby_message(game, Translator(game.lang))
        if game.lobby_message_id and interaction.channel is not None:
            try:
                await interaction.channel.get_partial_message(game.lobby_message_id).edit(embed=embed, view=view)  # type: ignore
            except discord.NotFound:
                pass

    async def _start(self, interaction: discord.Interaction, game, t: Translator) -> None:
        g = ui_for(game.title).game
        n = len(game.seats)
        if not g.min_players <= n <= g.max_players:
            await reply(interaction, t("core.lobby.count", lo=g.min_players, hi=g.max_players, n=n))
            return
        if not any(not s.is_ai for s in game.seats):
            await reply(interaction, t("core.lobby.need_human"))
            return
        try:
            given = {**game.options, **lobby_mod.house_options(g, settings_mod.merged(game.settings))}
            options = g.resolve_options(n, given)
            state = g.setup(n, game.seed, options)
        except RuleError as err:
            await reply(interaction, t(error_key(game.title, err), **err.params))
            return
        await interaction.response.defer()
        if not await self.house.store.start(game.id, state, options, now()):
            await reply(interaction, t("core.lobby.closed"))
            return
        game.status, game.state, game.options, game.version = "active", state, options, 0
        embed, _ = lobby_mod.lobby_message(game, Translator(game.lang))
        try:
            await interaction.edit_original_response(embed=embed, view=None)
        except discord.HTTPException:
            pass
        self.house.forget(game.id)
        await self.house.replan(game, locked=True)  # lobby clicks hold the game's lock
        fresh = await self.house.game(game.id)
        if fresh is not None:
            self.house.table.changed(fresh, [], ping=g.to_act(state))

    # house buttons --------------------------------------------------------------------------

    async def house_click(self, interaction: discord.Interaction, parsed: codec.Parsed, code: str, values: list[str]) -> None:
        t = tr_for(interaction)
        verb, _, arg = code.partition(":")
        if verb == "hand":
            await self.open_panel(interaction, parsed.game_id)
        elif verb == "rules":
            game = await self.house.store.get(parsed.game_id)
            title = arg.split(":")[1] if ":" in arg else (game.title if game else None)
            page = int(arg.split(":")[0] or 0) if arg.split(":")[0].isdigit() else 0
            if title not in uis():
                await reply(interaction, t("core.error.bad_action"))
                return
            embed, view = self.rules_page(title, page, t)
            await self._page_reply(interaction, embed, view)
        elif verb == "log":
            page = int(arg) if arg.isdigit() else 0
            embed, view = await self.log_page(parsed.game_id, page, t)
            await self._page_reply(interaction, embed, view)
        elif verb == "end":
            await self.end_click(interaction, parsed.game_id, arg, t)
        elif verb == "thread":
            await self.thread_click(interaction, arg, t)
        elif verb in ("set", "kind", "len"):
            await self.settings_click(interaction, parsed.game_id, verb, arg, values, t)
        else:
            await reply(interaction, t("core.error.bad_action"))

    async def _page_reply(self, interaction: discord.Interaction, embed: discord.Embed, view) -> None:
        """Paging buttons edit their own (ephemeral) message; the table's buttons open a new one."""
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(**with_view(view, embed=embed, ephemeral=True))

    def rules_page(self, title: str, page: int, t: Translator):
        pages = rules_pages(title, t.lang)
        if not pages:
            return discord.Embed(title=t(f"{title}.name"), description=t("core.rules.missing")), None
        page = max(0, min(page, len(pages) - 1))
        embed = discord.Embed(title=t(f"{title}.name"), description=pages[page][:4000], colour=ui_for(title).colour)
        embed.set_footer(text=t("core.page", page=page + 1, pages=len(pages)))
        buttons = []
        if page > 0:
            buttons.append(Button("◀", f"Hrules:{page - 1}:{title}", any_version=True))
        if page < len(pages) - 1:
            buttons.append(Button("▶", f"Hrules:{page + 1}:{title}", any_version=True))
        return embed, build_view(0, 0, buttons)

    async def log_page(self, game_id: int, page: int, t: Translator, per_page: int = 12):
        game = await self.house.store.get(game_id)
        if game is None:
            return discord.Embed(description=t("core.error.no_game")), None
        ui = ui_for(game.title)
        entries = await self.house.store.actions(game_id, newest_first=True)
        lines: list[str] = []
        for entry in entries:
            narr = self.house.table._narrate(game, t, entry["events"])
            if narr:
                lines.append(f"`{entry['seq']:>4}` " + " · ".join(narr))
        pages = max(1, (len(lines) + per_page - 1) // per_page)
        page = max(0, min(page, pages - 1))
        chunk = lines[page * per_page:(page + 1) * per_page] or [t("core.log.empty")]
        embed = discord.Embed(title=t("core.log.title", title=t(f"{game.title}.name")), description="\n".join(chunk)[:4000],
                              colour=ui.colour)
        embed.set_footer(text=t("core.page", page=page + 1, pages=pages))
        buttons = []
        if page > 0:
            buttons.append(Button("◀", f"Hlog:{page - 1}", any_version=True))
        if page < pages - 1:
            buttons.append(Button("▶", f"Hlog:{page + 1}", any_version=True))
        return embed, build_view(game_id, 0, buttons)

    async def end_click(self, interaction: discord.Interaction, game_id: int, arg: str, t: Translator) -> None:
        if arg != "yes":
            await interaction.response.edit_message(content=t("core.end.kept"), view=None)
            return
        game = await self.house.store.get(game_id)
        if game is None or not game.live:
            await interaction.response.edit_message(content=t("core.lobby.closed"), view=None)
            return
        if not (interaction.user.id == game.host_id or self._can_manage(interaction)):
            await reply(interaction, t("core.error.host_only"))
            return
        await interaction.response.edit_message(content=t("core.end.done"), view=None)
        async with self.house.lock(game_id):
            await self.house.store.finish(game_id, "cancelled", now(), {"reason": "ended", "by": interaction.user.id})
            self.house.forget(game_id)
        game = await self.house.store.get(game_id)
        if game is None:
            return
        channel = self.bot.get_channel(game.channel_id)
        if channel is None:
            return
        gt = Translator(game.lang)
        await channel.send(gt("core.end.announce", user=interaction.user.mention, title=gt(f"{game.title}.name")),
                           allowed_mentions=discord.AllowedMentions.none())
        if game.state is not None:
            self.house.table.refresh(game_id)
        elif game.lobby_message_id:
            embed, _ = lobby_mod.lobby_message(game, gt)
            try:
                await channel.get_partial_message(game.lobby_message_id).edit(embed=embed, view=None)  # type: ignore
            except discord.HTTPException:
                pass

    async def thread_click(self, interaction: discord.Interaction, title: str, t: Translator) -> None:
        channel = interaction.channel
        if title not in uis() or channel is None or not hasattr(channel, "create_thread"):
            await reply(interaction, t("core.error.bad_action"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            thread = await channel.create_thread(  # type: ignore[union-attr]
                name=f"{t(f'{title}.name')} · {interaction.user.display_name}"[:100],
                type=discord.ChannelType.public_thread, auto_archive_duration=10080,
            )
        except discord.Forbidden:
            await reply(interaction, t("core.error.bot_permissions", perms=t("core.perm.create_public_threads")))
            return
        await self.open_lobby(interaction, title, thread)

    async def leave_game(self, interaction: discord.Interaction, game) -> None:
        t = tr_for(interaction)
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t("core.error.not_seated"))
            return
        await self.house.store.seat_left(game.id, seat, now())
        self.house.forget(game.id)
        fresh = await self.house.game(game.id)
        gt = Translator(game.lang)
        await reply(interaction, t("core.leave.done"))
        if fresh is not None and not any(not s.ai_plays for s in fresh.seats):
            await self.house.store.finish(game.id, "cancelled", now(), {"reason": "abandoned"})
            self.house.forget(game.id)
            if interaction.channel is not None:
                await interaction.channel.send(gt("core.leave.abandoned"))  # type: ignore[union-attr]
            self.house.table.refresh(game.id)
            return
        if interaction.channel is not None:
            await interaction.channel.send(gt("core.leave.announce", name=interaction.user.display_name),  # type: ignore
                                           allowed_mentions=discord.AllowedMentions.none())
        if fresh is not None:
            await self.house.replan(fresh)
            self.house.table.refresh(game.id)

    # settings -----------------------------------------------------------------------------

    def settings_panel(self, game, t: Translator, kind: str | None = None) -> Panel:
        ui = ui_for(game.title)
        conf = settings_mod.merged(game.settings)
        lines = [
            t("core.lobby.pace", pace=t(f"core.pace.{conf['pace']}")),
            t("core.lobby.on_deadline", mode=t(f"core.on_deadline.{conf['on_deadline']}")),
            t("core.settings.reminder", every=duration(conf["reminder"], t.lang)),
        ]
        for timer in ui.game.timers:
            length = settings_mod.deadline_for(ui.game, conf, timer.kind)
            lines.append(t("core.settings.deadline_line", kind=t(f"{game.title}.timer.{timer.kind}"),
                           length=duration(length, t.lang) if length else t("core.settings.none")))
        comps: list[Any] = [
            Select("Hset:pace", t("core.lobby.choose_pace"), [Option(t(f"core.pace.{p}"), p, default=conf["pace"] == p)
                                                              for p in settings_mod.PACES], any_version=True),
            Select("Hset:on_deadline", t("core.lobby.choose_on_deadline"),
                   [Option(t(f"core.on_deadline.{m}"), m, description=t(f"core.on_deadline_help.{m}")[:100],
                           default=conf["on_deadline"] == m) for m in settings_mod.ON_DEADLINE], any_version=True),
            Select("Hset:reminder", t("core.settings.choose_reminder"),
                   [Option(duration(s, t.lang) if s else t("core.settings.none"), str(s),
                           default=conf["reminder"] == s) for s in settings_mod.REMINDER_CHOICES], any_version=True),
            Select("Hkind", t("core.settings.choose_kind"),
                   [Option(t(f"{game.title}.timer.{tk.kind}"), tk.kind, default=tk.kind == kind) for tk in ui.game.timers],
                   any_version=True),
        ]
        if kind:
            current = settings_mod.deadline_for(ui.game, conf, kind)
            comps.append(Select(f"Hlen:{kind}", t("core.settings.choose_length", kind=t(f"{game.title}.timer.{kind}")),
                                [Option(duration(s, t.lang) if s else t("core.settings.none"), str(s),
                                        default=s == current) for s in settings_mod.DEADLINE_CHOICES], any_version=True))
        return Panel(title=t("core.settings.title", title=t(f"{game.title}.name")), description="\n".join(lines),
                     components=comps)

    async def settings_click(self, interaction: discord.Interaction, game_id: int, verb: str, arg: str,
                             values: list[str], t: Translator) -> None:
        game = await self.house.store.get(game_id)
        if game is None or not game.live:
            await reply(interaction, t("core.lobby.closed"))
            return
        if not (interaction.user.id == game.host_id or self._can_manage(interaction)):
            await reply(interaction, t("core.error.host_only"))
            return
        value = values[0] if values else ""
        kind = None
        engine_game = ui_for(game.title).game
        if verb == "set":
            parsed: Any = int(value) if arg == "reminder" and value.isdigit() else value
            if not settings_mod.validate(arg, parsed):
                await reply(interaction, t("core.error.bad_action"))
                return
            game.settings = {**game.settings, arg: parsed}
        elif verb == "kind":
            kind = value if any(tk.kind == value for tk in engine_game.timers) else None
        elif verb == "len":
            if not any(tk.kind == arg for tk in engine_game.timers) or not value.isdigit() \
                    or int(value) not in settings_mod.DEADLINE_CHOICES:
                await reply(interaction, t("core.error.bad_action"))
                return
            deadlines = {**(game.settings.get("deadlines") or {}), arg: int(value)}
            game.settings = {**game.settings, "deadlines": deadlines}
            kind = arg
        if verb != "kind":
            await self.house.store.update_game(game.id, now(), settings=game.settings)
            self.house.forget(game.id)
            if game.status == "active":
                # Open windows keep their running deadlines; new windows use the new lengths.
                await self.house.replan(game)
                self.house.table.refresh(game.id)
        panel = self.settings_panel(game, t, kind)
        await interaction.response.edit_message(embed=build_embed(panel, ui_for(game.title).colour),
                                                view=build_view(game.id, 0, panel.components))

    # panels ---------------------------------------------------------------------------------

    async def open_panel(self, interaction: discord.Interaction, game_id: int) -> None:
        """A fresh ephemeral private panel for the clicking player."""
        t = tr_for(interaction)
        game = await self.house.game(game_id)
        if game is None or game.status != "active":
            await reply(interaction, t("core.error.no_game"))
            return
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t("core.error.not_seated"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed, file, view = await self.house.table.panel_message(game, seat, t)
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
        if file:
            kwargs["file"] = file
        if view:
            kwargs["view"] = view
        await interaction.followup.send(**kwargs)

    def _is_panel_message(self, interaction: discord.Interaction, game) -> bool:
        message = interaction.message
        if message is None:
            return False
        return bool(message.flags.ephemeral) or interaction.guild is None

    async def panel_click(self, interaction: discord.Interaction, parsed: codec.Parsed, values: list[str]) -> None:
        t = tr_for(interaction)
        game = await self.house.game(parsed.game_id)
        if game is None or game.status != "active":
            gone = game is not None and (game.result or {}).get("reason") == "channel_deleted"
            await reply(interaction, t("core.error.channel_gone" if gone else "core.error.game_over"))
            return
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t("core.error.not_seated"))
            return
        on_panel = self._is_panel_message(interaction, game)
        if parsed.version is not None and parsed.version != game.version:
            await self._stale(interaction, game, seat, t, on_panel)
            return
        ui = ui_for(game.title)
        pc = self.house.panel_context(game, seat, t)
        code = parsed.code

        def decide(pc: Any) -> Any:
            try:
                if parsed.kind == "bm":
                    return ui.on_modal(pc, code, modal_values(interaction))
                if codec.is_act_select(code) or codec.is_action_code(code):
                    # An action code on a button, or one chosen in an "act" select; nothing else.
                    chosen = (values[0] if len(values) == 1 else None) if codec.is_act_select(code) \
                        else (None if values else code)
                    action = codec.decode_action(chosen, pc.legal) if chosen else None
                    return Apply(action) if action else Refuse("core.error.bad_action")
                return ui.on_component(pc, code, values)
            except Exception:
                # A title's panel that trips over a code or form it never made (a tampered or very
                # old client): refuse politely, change nothing, and leave the trace for its authors.
                log.exception("%s panel failed on %s %r %r", game.title, parsed.kind, code, values)
                return Refuse("core.error.bad_action")

        reply_ = decide(pc)
        if isinstance(reply_, Ask):
            await interaction.response.send_modal(FormModal(game.id, game.version, reply_.modal))
            return
        if on_panel and parsed.kind != "bm":
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=not on_panel)
        for attempt in range(3):
            if isinstance(reply_, Show):
                await self._show_panel(interaction, game, seat, t, on_panel, panel=reply_.panel)
                return
            if isinstance(reply_, Refuse):
                await interaction.followup.send(t(reply_.key if reply_.key.startswith("core.")
                                                  else f"{game.title}.{reply_.key}", **reply_.params), ephemeral=True)
                return
            assert isinstance(reply_, Apply)
            # A click valid at any version was decided on the game as the click found it: it
            # applies only to that moment. If another move landed first (clicks at the same
            # moment), decide again on the game as it is now; never apply a decision made for
            # another moment (a second press of a bell that ended dice time must not start the
            # next one).
            result = await self.house.act(game.id, seat, reply_.action, user_id=interaction.user.id,
                                          version=parsed.version if parsed.version is not None else pc.version)
            if result.applied:
                interaction.extras["applied"] = True
            if result.kind != "stale" or parsed.version is not None or attempt == 2:
                break
            fresh = await self.house.game(game.id)
            if fresh is None or fresh.status != "active":
                break
            game, pc = fresh, self.house.panel_context(fresh, seat, t)
            reply_ = decide(pc)
            if isinstance(reply_, Ask):  # a form cannot open once the click is acknowledged
                reply_ = Show(ui.panel(pc))
        if result.kind == "refused" and result.error is not None:
            notice = "⛔ " + t(error_key(game.title, result.error), **result.error.params)
            if on_panel:  # redraw the panel under the reason, so no refused button lingers on it
                await self._show_panel(interaction, await self.house.game(game.id) or game, seat, t, True,
                                       notice=notice)
            else:
                await interaction.followup.send(notice, ephemeral=True)
            return
        if result.kind == "stale":
            await self._stale(interaction, game, seat, t, on_panel)
            return
        if result.kind in ("over", "missing"):
            await interaction.followup.send(t("core.error.game_over"), ephemeral=True)
            return
        fresh = await self.house.game(game.id) or result.game
        if fresh is None or fresh.status != "active":
            if on_panel:
                await interaction.edit_original_response(content=t("core.panel.game_over"), embed=None, view=None,
                                                         attachments=[])
            return
        await self._show_panel(interaction, fresh, seat, t, on_panel)

    async def _show_panel(self, interaction: discord.Interaction, game, seat: int, t: Translator, on_panel: bool,
                          panel: Panel | None = None, notice: str | None = None) -> None:
        embed, file, view = await self.house.table.panel_message(game, seat, t, notice=notice, panel=panel)
        if on_panel:
            await interaction.edit_original_response(embed=embed, attachments=[file] if file else [], view=view)
        else:
            kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
            if file:
                kwargs["file"] = file
            if view:
                kwargs["view"] = view
            await interaction.followup.send(**kwargs)

    async def _stale(self, interaction: discord.Interaction, game, seat: int, t: Translator, on_panel: bool) -> None:
        """A click drawn for an earlier moment: never a wrong move; a fresh panel instead."""
        if not interaction.response.is_done():
            if on_panel:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        fresh = await self.house.game(game.id)
        if fresh is None or fresh.status != "active":
            await interaction.followup.send(t("core.error.game_over"), ephemeral=True)
            return
        await self._show_panel(interaction, fresh, seat, t, on_panel, notice="⏳ " + t("core.panel.stale"))


async def setup(bot: commands.Bot) -> None:
    house: House = bot.house  # type: ignore[attr-defined]
    await bot.add_cog(GameCog(bot, house))


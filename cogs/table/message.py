"""The table message: one message in the game's channel with the board picture, who must act,
the players, the latest moves and the public buttons, edited in place; posted again at the bottom
when it drifted out of reach (the older one becomes a one-line pointer to it, without
buttons; the pointer before it goes)."""

from __future__ import annotations

from typing import Any

import discord

from locales import Translator
from locales.format import join_sentences, separator
from play import settings as settings_mod
from play.away import Away
from play.plan import Planner, rules
from play.records import Records
from play.settings import paused
from render.common import picture_names
from render.pool import pictures_of
from store import GameRow, Store

from cogs.kit.codec import Verb, house
from cogs.kit.layout import panel_view
from cogs.kit.names import text_name, text_names
from cogs.kit.panel import Button, Panel
from cogs.kit.views import image_file
from cogs.titles.contract import TableContext, ui_for

from . import bank as bank_words
from .dm import jump
from .narration import narrate
from .pause import reason

RECENT_LINES = 4
#: The table message's layout (2: Components V2), kept in the game's settings: a table posted in
#: an older one is posted again once (`House.catch_up`).
LAYOUT = 2


def ai_tagged(name: str, ai: bool) -> str:
    """A seat's name with the robot mark when the AI plays it (AI seats' names already carry it)."""
    return f"{name} 🤖" if ai and "🤖" not in name else name


def house_buttons(game: GameRow, t: Translator) -> list[Button]:
    """The buttons every table carries: My hand, Rules, Log, Game."""
    buttons = []
    if game.status == "active":
        buttons.append(Button(t("core.table.hand"), house(Verb.HAND), "primary", emoji="🂠", any_version=True))
    buttons += [Button(t("core.table.rules"), house(Verb.RULES, "0"), "secondary", emoji="📖", any_version=True),
                Button(t("core.table.log"), house(Verb.LOG), "secondary", emoji="📜", any_version=True)]
    if game.status == "active":
        buttons.append(Button(t("core.table.menu"), house(Verb.MENU), "secondary", emoji="⚙️", any_version=True))
    return buttons


class TableMessage:
    def __init__(self, bot: discord.Client, store: Store, away: Away, planner: Planner, records: Records) -> None:
        self.bot = bot
        self.store = store
        self.away = away
        self.planner = planner
        self.records = records
        #: The version each game's table picture was last drawn for (a reminder that changes
        #: nothing re-uploads nothing).
        self.drawn: dict[int, tuple[int, str]] = {}
        #: The message each game's table left behind as a pointer to it (at most one per game).
        self.pointers: dict[int, int] = {}

    async def panel(self, game: GameRow) -> tuple[Panel, bytes]:
        """The table as a panel (status above the picture, players, recent moves, buttons) and
        its picture, for the current state."""
        ui = ui_for(game.title)
        game_rules = rules(game)
        t = Translator(game.lang)
        public = game_rules.view(game.state or {}, None)
        names = game.names
        data = await pictures_of(self.bot).png(ui.render.table_image, public, picture_names(names), game.lang)
        tc = TableContext(game.id, game.version, public, t, text_names(names), game.title)
        lines = list(ui.table_lines(tc))
        if game.status == "active":
            humans = {s.seat for s in game.seats if not s.ai_plays}
            waiting = list(game_rules.to_act(game.state or {}))
            if waiting:
                lines.append(t("core.table.waiting", seats=separator(t.lang).join(
                    text_name(ai_tagged(game.seats[s].name, s not in humans)) for s in waiting)))
            deadline = await self.planner.deadline(game, waiting)
            if deadline:
                lines.append(t("core.table.deadline", when=f"<t:{int(deadline)}:R>"))
            if paused(game) is not None:
                lines.append("⏸️ " + reason(game, t))
        elif game.status == "cancelled":
            lines.append(t("core.table.ended"))
        elif game.status == "finished":
            lines.append(t("core.table.over"))
        players = []
        away = await self.away.of(game) if game.status == "active" else {}
        conf = settings_mod.merged(game.settings)
        for s in game.seats:
            tags = [t("core.table.left") if s.left_at else ""]
            if s.seat in away:
                tags.append(t("seat.away.tag", when=f"<t:{int(away[s.seat])}:f>"))
            if game.status == "active" and not s.ai_plays:  # what is left of their time bank
                tags.append(bank_words.tag(game, s.seat, conf, t))
            players.append(join_sentences(f"`{s.seat + 1}` {text_name(ai_tagged(s.name, s.ai_plays))}", *tags))
        recent = await self.recent_lines(game, t, RECENT_LINES)
        components: list[Any] = house_buttons(game, t)
        if game.status == "active":
            components[1:1] = ui.table_buttons(tc)
        footer = "core.table.footer" if game.status == "active" else "core.table.footer_over"
        panel = Panel(title=t(f"{game.title}.name"), description="\n".join(lines),
                      fields=[(t("core.table.players"), " · ".join(players), True)]
                      + ([(t("core.table.recent"), "\n".join(recent), False)] if recent else []),
                      components=components, footer=t(footer, id=game.id, version=game.version))
        return panel, data

    async def recent_lines(self, game: GameRow, t: Translator, count: int) -> list[str]:
        lines: list[str] = []
        # Up to the version drawn: the table's lines and its recent moves tell the same moment.
        for entry in await self.store.actions(game.id, newest_first=True, limit=count * 2, through=game.version):
            lines[:0] = narrate(game, t, entry["events"])
            if len(lines) >= count:
                break
        return lines[-count:]

    async def update(self, game: GameRow, channel: Any, repost: bool = False) -> bool:
        """Edit the table in place, or post it (again) at the bottom; an older table becomes a
        short pointer to the new one, whose buttons keep working. Nothing is sent when the table
        already shows this version (a reminder re-uploads no picture). True if it was posted anew."""
        message_id = game.table_message_id
        if message_id and not repost and self.drawn.get(game.id) == (game.version, game.status):
            return False
        panel, data = await self.panel(game)
        accent = ui_for(game.title).colour
        name = f"table-{game.id}-{game.version}.png"
        view = panel_view(game, game.version, panel, image=name, accent=accent)
        if message_id and not repost:
            partial = channel.get_partial_message(message_id)
            try:
                await partial.edit(view=view, attachments=[image_file(data, name)])
                self.drawn[game.id] = (game.version, game.status)
                return False
            except discord.NotFound:
                pass  # the table message was deleted: post a new one
            except discord.Forbidden:
                # No Attach Files any more: keep the table playable without its picture (and
                # let the caller know, so players are told).
                await partial.edit(view=panel_view(game, game.version, panel, accent=accent), attachments=[])
                raise
            except discord.HTTPException as exc:
                if exc.status != 400:  # a table of the older layout cannot become this one:
                    raise              # it is posted again below
        refused: discord.Forbidden | None = None
        try:
            sent = await channel.send(view=view, file=image_file(data, name))
        except discord.Forbidden as exc:  # no Attach Files: a table without its picture
            refused = exc
            sent = await channel.send(view=panel_view(game, game.version, panel, accent=accent))
        if message_id and message_id != sent.id:
            await self.pointer(game, channel, message_id, sent.id)
        layout = None
        if (game.settings or {}).get("layout") != LAYOUT:
            game.settings = layout = {**(game.settings or {}), "layout": LAYOUT}
        await self.records.table_posted(game, sent.id, layout)
        game.table_message_id = sent.id
        self.drawn[game.id] = (game.version, game.status)
        if refused is not None:
            raise refused
        return True

    async def pointer(self, game: GameRow, channel: Any, old_id: int, new_id: int) -> None:
        """The table that was left behind becomes one line pointing down to the new one, with no
        buttons (issue 30: nineteen stubs of four buttons each cluttered one game); the pointer
        it replaces goes, so a channel holds one pointer at most. Which message that was is
        kept in memory: after a restart the first move leaves the older one alone."""
        t = Translator(game.lang)
        panel = Panel(title="", description=t("core.table.moved", link=jump(game, new_id)))
        try:
            await channel.get_partial_message(old_id).edit(
                view=panel_view(game, game.version, panel, accent=ui_for(game.title).colour), attachments=[])
        except discord.HTTPException:
            try:  # an older table that cannot take the new layout goes instead
                await channel.get_partial_message(old_id).delete()
            except discord.HTTPException:
                pass
            old_id = 0
        previous = self.pointers.pop(game.id, None)
        if old_id:
            self.pointers[game.id] = old_id
        if previous and previous not in (old_id, new_id):
            try:
                await channel.get_partial_message(previous).delete()
            except discord.HTTPException:
                pass  # deleted by someone already, or out of reach: it is only a pointer

"""The table in the channel: one message (the board picture, who must act, the public buttons)
edited in place and kept within a screen of the bottom; the turn message that tells who must
act (`turns.py`); DM panels (`dm.py`); the results (`results.py`).

Updates are coalesced per game: while one update is being sent, later changes accumulate and go
out together in the next, so a burst of clicks (E-Wars dice time) costs one table edit, and
Discord's rate limits are respected by construction.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from locales import Translator
from locales.format import separator
from render.common import picture_names
from render.pool import pictures_of
from service import metrics
from store import GameRow

from .clock import now
from .digest import game_lines  # `/game mine` and the daily digest say the same
from .dm import DMPanels, jump
from .layout import panel_view
from .names import text_name, text_names
from .panel import Button, Panel
from .pause import paused
from .private_panel import PrivatePanels
from .results import post_results
from .titles import TableContext, ui_for
from .turns import Turns
from .undo import Undo
from .views import image_file

if TYPE_CHECKING:
    from .house import House

log = logging.getLogger(__name__)

RECENT_LINES = 4
#: The table message's layout (2: Components V2), kept in the game's settings: a table posted in
#: an older one is posted again once (House.catch_up).
LAYOUT = 2
#: Messages below the table after which it counts as out of reach ("more than a screen away"):
#: when the turn passes, it is posted again at the bottom.
SCREEN = 8
#: Seconds before the first retry of a table update Discord refused for a passing reason (a
#: server error, a rate limit without retry_after); doubled at each further failure.
RETRY_FIRST = 2.0
RETRIES = 5
#: What the bot needs in a game's channel to keep its table there.
TABLE_PERMS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


def ai_tagged(name: str, ai: bool) -> str:
    """A seat's name with the robot mark when the AI plays it (AI seats' names already carry it)."""
    return f"{name} 🤖" if ai and "🤖" not in name else name


@dataclass
class Pending:
    events: list[dict[str, Any]] = field(default_factory=list)
    ping: set[int] = field(default_factory=set)
    remind: set[int] = field(default_factory=set)
    notes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    overdue: bool = False
    repost: bool = False

    def said(self) -> None:
        """The narration went out (or cannot): a retry of the rest must not say it again."""
        self.events, self.ping, self.remind, self.notes, self.overdue = [], set(), set(), [], False

    def merge(self, later: "Pending") -> None:
        self.events.extend(later.events)
        self.ping |= later.ping
        self.remind |= later.remind
        self.notes.extend(later.notes)
        self.overdue = self.overdue or later.overdue
        self.repost = self.repost or later.repost


class TableKeeper(PrivatePanels):
    LAYOUT = LAYOUT

    def __init__(self, house: "House") -> None:
        self.house = house
        self.turns = Turns(self)
        self.dms = DMPanels(self)
        #: Moves that may be taken back: their panels (ephemeral or DM) carry Undo meanwhile.
        self.undo = Undo(house)
        self.pending: dict[int, Pending] = {}
        self.tasks: dict[int, asyncio.Task] = {}
        #: Messages seen in a game's channel below its table (None: not counted since start-up).
        self.below: dict[int, int] = {}
        #: The version each game's table picture was last drawn for (a reminder that changes
        #: nothing re-uploads nothing).
        self.drawn: dict[int, tuple[int, str]] = {}
        #: Games whose channel refuses the bot (a permission was taken away): the permissions
        #: missing, shown to players in their panels until a table update succeeds again.
        self.blocked: dict[int, list[str]] = {}
        #: Games whose update waits to be retried.
        self.retrying: set[int] = set()

    # -- what changed -----------------------------------------------------------------------

    def _pending(self, game_id: int) -> Pending:
        p = self.pending.get(game_id)
        if p is None:
            p = self.pending[game_id] = Pending()
        return p

    def changed(self, game: GameRow, events: list[dict[str, Any]], ping: list[int]) -> None:
        p = self._pending(game.id)
        p.events.extend(events)
        p.ping.update(ping)
        self._ensure(game.id)

    def note(self, game_id: int, kind: str, **params: Any) -> None:
        self._pending(game_id).notes.append((kind, params))
        self._ensure(game_id)

    def remind(self, game_id: int, seats: list[int], passed: bool = False) -> None:
        p = self._pending(game_id)
        p.remind.update(seats)
        p.overdue = p.overdue or passed
        self._ensure(game_id)

    def refresh(self, game_id: int, repost: bool = False) -> None:
        """Draw the table again (its message was deleted, a setting changed, /game status)."""
        self.drawn.pop(game_id, None)
        p = self._pending(game_id)
        p.repost = p.repost or repost
        self._ensure(game_id)

    def _ensure(self, game_id: int) -> None:
        task = self.tasks.get(game_id)
        if task is None or task.done():
            self.tasks[game_id] = asyncio.create_task(self._loop(game_id), name=f"table-{game_id}")

    async def idle(self) -> None:
        """Wait until every pending update has gone out, or waits to be retried (tests and
        shutdown): a retry comes only once time has passed."""
        while True:
            busy = [t for gid, t in self.tasks.items() if not t.done() and gid not in self.retrying]
            if not busy:
                return
            await asyncio.wait(busy, return_when=asyncio.FIRST_COMPLETED)

    async def stop(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)

    async def _loop(self, game_id: int) -> None:
        """Send the game's pending updates. A refusal for a passing reason (server error, rate
        limit) is retried with a growing wait, keeping later changes merged in; after RETRIES
        failures the update stays pending and goes out with the game's next change."""
        failures = 0
        while game_id in self.pending:
            p = self.pending.pop(game_id)
            try:
                await self.flush(game_id, p)
                failures = 0
            except (discord.HTTPException, discord.RateLimited) as exc:
                failures += 1
                later = self.pending.pop(game_id, None)
                if later is not None:
                    p.merge(later)
                self.pending[game_id] = p
                if failures > RETRIES:
                    log.error("giving up on the table of game %s until its next change (%s)", game_id, exc)
                    return
                delay = self.retry_delay(exc, failures)
                log.warning("table update for game %s failed (%s); retrying in %.1fs", game_id, exc, delay)
                self.retrying.add(game_id)
                metrics.table_retry()
                try:
                    await asyncio.sleep(delay)
                finally:
                    self.retrying.discard(game_id)
            except Exception:
                log.exception("table update for game %s failed", game_id)
                return

    @staticmethod
    def retry_delay(exc: Exception, failures: int) -> float:
        """Discord's retry_after when it gave one (a rate limit), else an exponential backoff."""
        backoff = RETRY_FIRST * 2 ** (failures - 1)
        if isinstance(exc, discord.RateLimited):
            return max(float(exc.retry_after), 0.1)
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None) or {}
        try:
            after = float(headers.get("Retry-After") or headers.get("retry-after") or 0)
        except (TypeError, ValueError):
            after = 0.0
        return after if after > 0 else backoff

    # -- the channel -------------------------------------------------------------------------

    async def channel(self, game: GameRow) -> Any:
        bot = self.house.bot
        channel = bot.get_channel(game.channel_id)
        if channel is None:
            try:
                channel = await bot.fetch_channel(game.channel_id)
            except discord.NotFound:
                await self.house_lost_channel(game)
                return None
            except discord.Forbidden as exc:
                log.warning("no access to channel %s of game %s", game.channel_id, game.id)
                await self.house.pauser.refused(game, exc, None)
                return None
        return channel

    async def house_lost_channel(self, game: GameRow) -> None:
        """The channel or thread is gone: the game cannot be shown any more, so it ends."""
        if await self.house.store.finish(game.id, "cancelled", now(), {"reason": "channel_deleted"}):
            log.info("game %s ended: its channel %s is gone", game.id, game.channel_id)
            self.house.forget(game.id)
            self.pending.pop(game.id, None)
            ended = await self.house.store.get(game.id) or game
            for s in ended.seats:
                if s.user_id:
                    await self.dms.close(ended, s.user_id, "core.error.channel_gone")
        self.house.forget(game.id)

    def seen(self, message: discord.Message) -> None:
        """A message appeared in some channel: count it below that channel's table, and the
        turn message there is no longer the latest."""
        self.turns.seen(message.channel.id, message.id)
        for game_id, count in list(self.below.items()):
            cached = self.house.cached(game_id)
            if cached is not None and cached.channel_id == message.channel.id and message.id != cached.table_message_id:
                self.below[game_id] = count + 1

    async def distance(self, game: GameRow, channel: Any) -> int:
        """How many messages sit below the table (counted as they come; read from the channel's
        history once after a restart)."""
        if game.id not in self.below:
            if not game.table_message_id:
                return 0
            try:
                after = [m async for m in channel.history(after=discord.Object(id=game.table_message_id),
                                                          limit=SCREEN + 1)]
            except discord.HTTPException:
                return 0
            self.below[game.id] = len(after)
        return self.below[game.id]

    # -- sending ----------------------------------------------------------------------------

    async def flush(self, game_id: int, p: Pending) -> None:
        """The turn message, the table (posted again at the bottom when it drifted out of reach
        as a turn passes), the results, the DM panels. A refusal that means the channel is out
        of reach pauses the game; one that retrying cannot cure (Attach Files taken away) is
        remembered in `blocked` and shown to players in their panels; a passing one (server
        error, rate limit) propagates to be retried, and what was said is not said again."""
        house = self.house
        game = await house.game(game_id, fresh=True)
        if game is None or game.state is None:
            return
        channel = await self.channel(game)
        if channel is None:
            return
        refused: list[str] = []
        calling = set(p.ping | p.remind)
        turn_passes = bool(p.ping) and game.status == "active"
        try:
            if turn_passes and await self.distance(game, channel) > SCREEN:
                p.repost = True
            if p.repost:  # the table first, so the call to act is the newest message
                await self.update_table(game, channel, repost=True)
                p.repost = False
            await self.turns.tell(game, channel, p)
            p.said()
            await self.update_table(game, channel)
            if game.status == "finished":
                await post_results(self, game, channel)
        except discord.Forbidden as exc:
            if await house.pauser.refused(game, exc, channel):
                p.said()
                return
            p.said()
            refused += [self._send_perm(channel), "attach_files"]
        except discord.NotFound as exc:
            if exc.code == 10003:  # Unknown Channel: it was deleted under the game
                await self.house_lost_channel(game)
                return
            raise
        except discord.HTTPException as exc:
            if await house.pauser.refused(game, exc, channel):  # a thread archived or locked
                p.said()
                return
            raise
        # Told (or, without the permission, told as far as the channel allows): a restart
        # from here on has nothing to catch up for this game.
        await house.store.mark_told(game.id, game.version)
        await self.dms.update(game, calling)
        if refused:
            missing = self.missing_permissions(channel) or sorted(set(refused))
            if self.blocked.get(game_id) != missing:
                log.warning("game %s: the channel %s refuses the bot (missing %s)", game_id, game.channel_id, missing)
            self.blocked[game_id] = missing
        else:
            self.blocked.pop(game_id, None)

    @staticmethod
    def _send_perm(channel: Any) -> str:
        return "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"

    def missing_now(self, game: GameRow) -> list[str] | None:
        """What the table needs in the game's channel and lacks now, as the bot's cache knows it
        (so a panel drawn right after a permission was taken away, or given back, says so at
        once); None when the channel is not in the cache."""
        bot = self.house.bot
        channel = bot.get_channel(game.channel_id) if bot is not None else None
        if channel is None or getattr(getattr(channel, "guild", None), "me", None) is None:
            return None
        return self.missing_permissions(channel)

    def missing_permissions(self, channel: Any) -> list[str]:
        """The permissions the table needs that the bot lacks in `channel` (from the cache)."""
        needed = [self._send_perm(channel) if p == "send_messages" else p for p in TABLE_PERMS]
        try:
            me = channel.guild.me
            perms = channel.permissions_for(me)
        except Exception:
            return []
        return [p for p in needed if not getattr(perms, p, False)]

    def narrate(self, game: GameRow, t: Translator, events: list[dict[str, Any]]) -> list[str]:
        ui = ui_for(game.title)
        names = text_names(game.names)
        lines = []
        for ev in events:
            if ev.get("to") is not None:
                continue
            try:
                line = ui.narrate(t, ev, names)
            except Exception:
                log.exception("narration of %s failed", ev)
                line = None
            if line:
                lines.append(line)
        return lines

    async def deadline_for(self, game: GameRow, seats: list[int]) -> float | None:
        engine = ui_for(game.title).game
        owing = {w.id for w in engine.windows(game.state or {}) if set(w.seats) & set(seats)}
        dues = [tm.due_at for tm in await self.house.store.timers(game.id) if tm.kind == "deadline" and tm.ref in owing]
        return min(dues) if dues else None

    # -- the table message ------------------------------------------------------------------

    def house_buttons(self, game: GameRow, t: Translator) -> list[Button]:
        """The buttons every table (and its pointer) carries: My hand, Rules, Log, Game."""
        buttons = []
        if game.status == "active":
            buttons.append(Button(t("core.table.hand"), "Hhand", "primary", emoji="🂠", any_version=True))
        buttons += [Button(t("core.table.rules"), "Hrules:0", "secondary", emoji="📖", any_version=True),
                    Button(t("core.table.log"), "Hlog", "secondary", emoji="📜", any_version=True)]
        if game.status == "active":
            buttons.append(Button(t("core.table.menu"), "Hmenu", "secondary", emoji="⚙️", any_version=True))
        return buttons

    async def table_panel(self, game: GameRow) -> tuple[Panel, bytes]:
        """The table as a panel (status above the picture, players, recent moves, buttons) and
        its picture, for the current state."""
        ui = ui_for(game.title)
        engine = ui.game
        t = Translator(game.lang)
        public = engine.view(game.state or {}, None)
        names = game.names
        data = await pictures_of(self.house.bot).png(ui.render.table_image, public, picture_names(names), game.lang)
        tc = TableContext(game.id, game.version, public, t, text_names(names), game.title)
        lines = list(ui.table_lines(tc))
        if game.status == "active":
            humans = {s.seat for s in game.seats if not s.ai_plays}
            waiting = list(engine.to_act(game.state or {}))
            if waiting:
                lines.append(t("core.table.waiting", seats=separator(t.lang).join(
                    text_name(ai_tagged(game.seats[s].name, s not in humans)) for s in waiting)))
            deadline = await self.deadline_for(game, waiting)
            if deadline:
                lines.append(t("core.table.deadline", when=f"<t:{int(deadline)}:R>"))
            if paused(game) is not None:
                lines.append("⏸️ " + self.house.pauser.reason(game, t))
        elif game.status == "cancelled":
            lines.append(t("core.table.ended"))
        elif game.status == "finished":
            lines.append(t("core.table.over"))
        players = []
        away = await self.house.away.of(game) if game.status == "active" else {}
        for s in game.seats:
            tag = " " + t("core.table.left") if s.left_at else ""
            if s.seat in away:
                tag += " " + t("seat.away.tag", when=f"<t:{int(away[s.seat])}:f>")
            players.append(f"`{s.seat + 1}` {text_name(ai_tagged(s.name, s.ai_plays))}{tag}")
        recent = await self.recent_lines(game, t, RECENT_LINES)
        components: list[Any] = self.house_buttons(game, t)
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
        for entry in await self.house.store.actions(game.id, newest_first=True, limit=count * 2):
            lines[:0] = self.narrate(game, t, entry["events"])
            if len(lines) >= count:
                break
        return lines[-count:]

    async def update_table(self, game: GameRow, channel: Any, repost: bool = False) -> None:
        """Edit the table in place, or post it (again) at the bottom; an older table becomes a
        short pointer to the new one, whose buttons keep working. Nothing is sent when the
        table already shows this version (a reminder re-uploads no picture)."""
        message_id = game.table_message_id
        if message_id and not repost and self.drawn.get(game.id) == (game.version, game.status):
            return
        panel, data = await self.table_panel(game)
        accent = ui_for(game.title).colour
        name = f"table-{game.id}-{game.version}.png"
        view = panel_view(game, game.version, panel, image=name, accent=accent)
        if message_id and not repost:
            partial = channel.get_partial_message(message_id)
            try:
                await partial.edit(view=view, attachments=[image_file(data, name)])
                self.drawn[game.id] = (game.version, game.status)
                return
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
                repost = True
        refused: discord.Forbidden | None = None
        try:
            sent = await channel.send(view=view, file=image_file(data, name))
        except discord.Forbidden as exc:  # no Attach Files: a table without its picture
            refused = exc
            sent = await channel.send(view=panel_view(game, game.version, panel, accent=accent))
        if message_id and message_id != sent.id:
            await self.pointer(game, channel, message_id, sent.id)
        if (game.settings or {}).get("layout") != LAYOUT:
            game.settings = {**(game.settings or {}), "layout": LAYOUT}
            await self.house.store.update_game(game.id, now(), table_message_id=sent.id, settings=game.settings)
        else:
            await self.house.store.update_game(game.id, now(), table_message_id=sent.id)
        game.table_message_id = sent.id
        self.house.note_table(game.id, sent.id)
        self.below[game.id] = 0
        self.drawn[game.id] = (game.version, game.status)
        if refused is not None:
            raise refused

    async def pointer(self, game: GameRow, channel: Any, old_id: int, new_id: int) -> None:
        """The table that was left behind becomes a line pointing down to the new one; its
        buttons (My hand, Rules, Log, Game) keep working."""
        t = Translator(game.lang)
        panel = Panel(title="", description=t("core.table.moved", link=jump(game, new_id)),
                      components=self.house_buttons(game, t))
        try:
            await channel.get_partial_message(old_id).edit(
                view=panel_view(game, game.version, panel, accent=ui_for(game.title).colour), attachments=[])
        except discord.HTTPException:
            try:  # an older table that cannot take the new layout goes instead
                await channel.get_partial_message(old_id).delete()
            except discord.HTTPException:
                pass

    async def summary(self, guild_id: int, user_id: int, t: Translator) -> list[str]:
        """One line per running game of a server in which the user holds a seat: where, whose
        move (theirs first), the deadline, a link to the table (`/game mine`)."""
        lines, _ = await game_lines(self.house, await self.house.store.games_of_member(guild_id, user_id), user_id, t)
        return lines

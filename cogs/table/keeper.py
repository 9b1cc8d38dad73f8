"""The table keeper: the runtime's notifier (play/ports.py). It tells a game's channel what
happened and who must act: the turn message (turns.py), the table message kept within a screen of
the bottom (message.py), the results (results.py) and the DM panels (dm.py).

Updates are coalesced per game: while one update is being sent, later changes accumulate and go
out together in the next, so a burst of clicks (E-Wars dice time) costs one table edit, and
Discord's rate limits are respected by construction.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from cogs.access import Members
from play.replays import Replays
from play.runtime import Parts
from service import metrics
from store import GameRow

from .channels import Channels, missing_permissions, send_perm
from .dm import DMPanels
from .message import LAYOUT, TableMessage
from .pause import pause, refusal_means_pause
from .pending import Pending
from .private_panel import PrivatePanels
from .results import post_results
from .turns import Turns
from .undo import UndoOffer

log = logging.getLogger(__name__)

#: Messages below the table after which it counts as out of reach ("more than a screen away"):
#: when the turn passes, it is posted again at the bottom.
SCREEN = 8
#: Seconds before the first retry of a table update Discord refused for a passing reason (a
#: server error, a rate limit without retry_after); doubled at each further failure.
RETRY_FIRST = 2.0
RETRIES = 5
#: Discord's "Unknown Channel": the channel was deleted under the game.
UNKNOWN_CHANNEL = 10003


class TableKeeper:
    def __init__(self, bot: discord.Client, parts: Parts, members: Members | None = None) -> None:
        self.bot = bot
        #: Who can still reach a game (DM panels go only to them): app.py shares its own with Access.
        self.members = members or Members(bot, parts.games)
        self.store = store = parts.store
        self.games = parts.games
        self.records = records = parts.records
        self.pauses = parts.pauses
        self.channels = Channels(bot)
        self.message = TableMessage(bot, store, parts.away, parts.planner, records)
        self.panels = PrivatePanels(bot, store, self.channels, UndoOffer(parts.undo), parts.planner)
        #: Who reads which language (play/people.py): what goes to one person follows theirs.
        self.people = parts.planner.people
        self.dms = DMPanels(bot, store, records, self.panels, self.channels, self.members, self.people)
        self.turns = Turns(store, parts.away, parts.planner)
        #: Finished games being replayed (the story, /game replay): states kept every few moves.
        self.replays = Replays(store)
        self.pending: dict[int, Pending] = {}
        self.tasks: dict[int, asyncio.Task] = {}
        #: Messages seen in a game's channel below its table (None: not counted since start-up).
        self.below: dict[int, int] = {}
        #: Games whose update waits to be retried.
        self.retrying: set[int] = set()

    # -- what changed (the Notifier) ------------------------------------------------------------

    def _pending(self, game_id: int) -> Pending:
        p = self.pending.get(game_id)
        if p is None:
            p = self.pending[game_id] = Pending()
        return p

    def changed(self, game: GameRow, events: list[dict[str, Any]], ping: list[int],
                news: list[int] | tuple[int, ...] = ()) -> None:
        p = self._pending(game.id)
        p.events.extend(events)
        p.ping.update(ping)
        p.news.update(news)
        self._ensure(game.id)

    def note(self, game_id: int, kind: str, **params: Any) -> None:
        self._pending(game_id).notes.append((kind, params))
        self._ensure(game_id)

    def remind(self, game_id: int, seats: list[int], passed: bool = False, kind: str | None = None) -> None:
        p = self._pending(game_id)
        p.remind.update(seats)
        if kind is not None:
            p.reminded_of.update({seat: kind for seat in seats})
        p.overdue = p.overdue or passed
        self._ensure(game_id)

    def refresh(self, game_id: int, repost: bool = False) -> None:
        """Draw the table again (its message was deleted, a setting changed, /game status)."""
        self.message.drawn.pop(game_id, None)
        p = self._pending(game_id)
        p.repost = p.repost or repost
        self._ensure(game_id)

    def reposts(self, game: GameRow) -> bool:
        return (game.settings or {}).get("layout") != LAYOUT

    # -- sending, one game at a time ------------------------------------------------------------

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

    def busy(self) -> set[int]:
        """The games whose update waits to be sent or is being sent."""
        return set(self.pending) | {gid for gid, task in self.tasks.items() if not task.done()}

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

    # -- the channel ------------------------------------------------------------------------

    async def channel(self, game: GameRow) -> Any:
        """The game's channel, or None: it is gone (the game ends) or out of reach (it pauses)."""
        try:
            return await self.channels.of(game)
        except discord.NotFound:
            await self.lost_channel(game)
        except discord.Forbidden as exc:
            log.warning("no access to channel %s of game %s", game.channel_id, game.id)
            missing = refusal_means_pause(exc, None)
            if missing:
                await pause(self.bot, self.store, self.pauses, game, missing)
        return None

    async def lost_channel(self, game: GameRow) -> None:
        """The channel or thread is gone: the game cannot be shown any more, so it ends."""
        if await self.records.finish_lost(game):
            log.info("game %s ended: its channel %s is gone", game.id, game.channel_id)
            self.pending.pop(game.id, None)
            ended = await self.store.get(game.id) or game
            for s in ended.seats:
                if s.user_id:
                    await self.dms.close(ended, s.user_id, "core.error.channel_gone")

    def seen(self, message: discord.Message) -> None:
        """A message appeared in some channel: count it below that channel's table, and the
        turn message there is no longer the latest."""
        self.turns.seen(message.channel.id, message.id)
        for game_id, count in list(self.below.items()):
            cached = self.games.cached(game_id)
            if cached is not None and cached.channel_id == message.channel.id and message.id != cached.table_message_id:
                self.below[game_id] = count + 1

    def check_in(self, game: GameRow) -> None:
        """Someone opened their panel: a table counted more than a screen up comes down to them.
        Only the counter is read (no request); after a restart it is known from the next update."""
        if game.status == "active" and self.below.get(game.id, 0) > SCREEN:
            self.refresh(game.id, repost=True)

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
        # Read under the game's lock: a move tells its story before letting it go, so whatever
        # came with the version read is pending by now, and joins what this update tells (the
        # results never go out before the story of the move that ended the game).
        async with self.games.lock(game_id):
            game = await self.games.game(game_id, fresh=True)
        later = self.pending.pop(game_id, None)
        if later is not None:
            p.merge(later)
        if game is None or game.state is None:
            return
        channel = await self.channel(game)
        if channel is None:
            return
        refused: list[str] = []
        calling = set(p.ping | p.remind | p.news)
        # A call, a reminder or a deadline line asks someone to look at the table: one more
        # than a screen up comes down first (issue 30: 18 of 33 reminders sat far below it).
        asks = game.status == "active" and bool(calling or any(kind == "deadline" for kind, _ in p.notes))
        try:
            if asks and await self.distance(game, channel) > SCREEN:
                p.repost = True
            # The table first, so the call to act is the newest message: when it drifted out
            # of reach, and at the start of a game (issue 30: the first call sat above it).
            if p.repost or not game.table_message_id:
                await self._update_table(game, channel, repost=True)
                p.repost = False
            await self.turns.tell(game, channel, p)
            p.said()
            await self._update_table(game, channel)
            if game.status == "finished":
                await post_results(self.bot, self.records, game, channel, self.replays)
        except discord.Forbidden as exc:
            p.said()
            missing = refusal_means_pause(exc, channel)
            if missing:
                await pause(self.bot, self.store, self.pauses, game, missing)
                return
            refused += [send_perm(channel), "attach_files"]
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                await self.lost_channel(game)
                return
            raise
        except discord.HTTPException as exc:
            missing = refusal_means_pause(exc, channel)  # a thread archived or locked
            if missing:
                p.said()
                await pause(self.bot, self.store, self.pauses, game, missing)
                return
            raise
        # Told (or, without the permission, told as far as the channel allows): a restart
        # from here on has nothing to catch up for this game.
        await self.records.told(game.id, game.version)
        await self.dms.update(game, calling)
        blocked = self.channels.blocked
        if refused:
            missing = missing_permissions(channel) or sorted(set(refused))
            if blocked.get(game_id) != missing:
                log.warning("game %s: the channel %s refuses the bot (missing %s)", game_id, game.channel_id, missing)
            blocked[game_id] = missing
        else:
            blocked.pop(game_id, None)

    async def _update_table(self, game: GameRow, channel: Any, repost: bool = False) -> None:
        if await self.message.update(game, channel, repost=repost):
            self.below[game.id] = 0

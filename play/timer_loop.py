"""The loop that fires timers: it sleeps until the earliest one (or until the alarm rings, when a
move planned a sooner one), claims the due rows and fires them (deadlines, reminders, the
seat-filler's turns). Timers are database rows, so a restart picks them up again; a claim (owner
and lease) keeps another process from firing the same row. A part of the house (`House.timers`),
composed, not mixed in: it moves games only through the house's `act` and `ai_move` (`Mover`)."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket

from engine.core import SYSTEM
from store import GameRow, Store, StoreUnavailable, Timer

from .alarm import Alarm
from .duties import Duties, Mover
from .away import Away
from .games import GameCache
from .orders import orders_of
from .plan import Planner, open_window, rules
from .ports import Clock, Notifier, Ready
from .result import Kind
from .settings import paused

log = logging.getLogger(__name__)

#: With no timer at all the loop still wakes weekly (the alarm wakes it sooner).
IDLE_SLEEP = 7 * 24 * 3600
#: Seconds before a timer whose work failed fires again; doubled at each further failure, up to
#: TIMER_RETRY_MAX.
TIMER_RETRY = 60
TIMER_RETRY_MAX = 15 * 60
#: How long a claimed timer is this process's to fire; a crashed process's claims lapse then.
TIMER_LEASE = 60
#: Timers claimed at once (each is fired well within the lease).
CLAIM_BATCH = 10
#: The timer loop's wait after the database refused a claim, doubled each time, up to OUTAGE_MAX.
OUTAGE_FIRST = 10
OUTAGE_MAX = 5 * 60


class TimerLoop:
    def __init__(self, mover: Mover, store: Store, games: GameCache, planner: Planner, away: Away,
                 notifier: Notifier, clock: Clock, alarm: Alarm, ready: Ready) -> None:
        self.mover = mover
        self.away = away
        self.ready = ready
        self.store = store
        self.games = games
        self.planner = planner
        self.notifier = notifier
        self.clock = clock
        self.alarm = alarm
        self.duties = Duties(mover, store, games, planner, notifier, clock, alarm)
        #: Who claims timers: unique per running house, readable in the database.
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._task: asyncio.Task | None = None
        self._sleeping = False
        self._closed = False
        alarm.listen(self.kick)
        self._failures: dict[tuple[int, str, str], int] = {}  # timers whose work failed, how often

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="boardroom-timers")

    def kick(self) -> None:
        """A timer may now be due sooner than the loop's sleep: restart its sleep. While it is
        firing timers it re-reads the table anyway."""
        task = self._task
        if task is not None and self._sleeping and not task.done() and not self._closed:
            task.cancel()
            self._sleeping = False
            self._task = asyncio.create_task(self._run(), name="boardroom-timers")

    async def stop(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        """Sleep until the earliest timer row (or the alarm, when a sooner one is added), then claim
        the due ones and fire them. Timers are rows, so a restart simply picks them up again;
        a claim (owner and lease) makes sure no other process fires the same row, and a crashed
        owner's claims lapse with the lease. While the database refuses (a claim is a write), the
        loop backs off with growing delays; the store says so once in the log."""
        await self.ready()
        trouble = 0
        while not self._closed:
            try:
                due = await self.store.next_due(self.games.shards)
                delay = IDLE_SLEEP if due is None else due - self.clock()
                if delay > 0:
                    self._sleeping = True
                    try:
                        await asyncio.sleep(min(delay, IDLE_SLEEP))
                    finally:
                        self._sleeping = False
                claimed = await self.store.claim_timers(self.clock(), owner=self.owner, lease=TIMER_LEASE,
                                                        limit=CLAIM_BATCH, shards=self.games.shards)
                trouble = 0
                for timer in claimed:
                    await self.fire(timer)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                trouble += 1
                wait = min(OUTAGE_FIRST * 2 ** (trouble - 1), OUTAGE_MAX)
                if not isinstance(exc, StoreUnavailable):  # the store logs its own refusals, once
                    log.exception("timer loop failed; retrying in %ss", wait)
                await asyncio.sleep(wait)

    async def fire(self, timer: Timer) -> None:
        """Run one claimed timer, judged on the game as it is in the database (never a cached
        copy), then consume its row: in SQL, only if the game is still at the version the timer
        was planned for; otherwise what the timer did moved the game and the row was planned
        again, and only the claim is released. Whatever a timer announces (a deadline passed, a
        reminder) goes out only after what it did was committed, so a retry never says it twice.
        A timer whose work failed (the database refusing, a bug in a title) is retried after
        growing delays, never dropped: a dropped deadline would stall the game."""
        key = (timer.game_id, timer.kind, timer.ref)
        try:
            game = await self.games.game(timer.game_id, fresh=True)
            live = game is not None and game.status == "active" and game.state is not None and paused(game) is None
            if live and timer.kind == "ai":
                # A seat-filler's turn stays its turn when another seat moved first at the same
                # instant (its move is judged on the game as it is now): re-planned instead, the
                # first seat-filler in a batch moved and the others' turns were put off again
                # and again (issue 28: one seat-filler played a whole game, the others never).
                assert game is not None
                if await self.away.filler_plays(game, int(timer.ref)):
                    await self.mover.ai_move(timer.game_id, int(timer.ref))
                else:  # its player's away time ended: the seat is theirs again, with its deadlines
                    await self.planner.replan(game)
                await self.games.consume(timer)
            elif game is not None and game.status == "active" and game.state is not None \
                    and game.version != timer.version:
                # Planned for another moment (the game was moved without replanning): plan the
                # game's timers afresh from its state; the loop then fires the current one.
                await self.planner.replan(game)
                await self.games.consume(timer)
            elif game is None or game.status != "active" or game.state is None or paused(game) is not None:
                await self.games.consume(timer)  # nothing moves (a paused game has no timers)
            elif timer.kind == "duty":
                await self.duties.fire(timer, game)
            elif timer.kind == "deadline":
                await self._window_deadline(timer, game)
            elif timer.kind == "order":
                await self._standing_order(timer, game)
            else:  # a kind of an earlier version (per-window reminders): plan the game afresh
                await self.games.consume(timer)
                await self.planner.replan(game)
            self._failures.pop(key, None)
        except Exception as exc:
            failures = self._failures[key] = self._failures.get(key, 0) + 1
            wait = min(TIMER_RETRY * 2 ** (failures - 1), TIMER_RETRY_MAX)
            if isinstance(exc, StoreUnavailable):
                log.info("timer %s: the database refuses (%s); it fires again in %ss", timer, exc, wait)
            else:
                log.exception("timer %s failed; it fires again in %ss", timer, wait)
            try:
                await self.store.retry_timer(timer, self.clock() + wait)
            except Exception:  # the claim's lease runs out by itself, and the timer fires again
                log.debug("could not put timer %s back; its lease will lapse", timer, exc_info=True)

    async def _standing_order(self, timer: Timer, game: GameRow) -> None:
        """A seat's standing orders answer what a window asks it: played as the seat's move (no
        person clicked, so there is nothing to take back), judged on the game as it is now."""
        seat = int(timer.ref)
        action = rules(game).standing_answer(game.state, seat, orders_of(game, seat))
        if action is not None:
            result = await self.mover.act(game.id, seat, action, version=game.version)
            if not result.applied and result.kind is not Kind.STALE:
                log.error("game %s: the standing order of seat %s was refused: %s", game.id, seat, result.error)
        await self.games.consume(timer)

    async def _window_deadline(self, timer: Timer, game: GameRow) -> None:
        """A window nobody owes (a pure timer, E-Wars' dice time) ends at its deadline."""
        if open_window(rules(game), game.state, timer.ref) is not None:
            await self.mover.act(game.id, SYSTEM, {"type": "timeout", "id": timer.ref})
        await self.games.consume(timer)

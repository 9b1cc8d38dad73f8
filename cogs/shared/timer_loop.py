"""The house's timers: what each game's timers are after a move (`plan_timers`), and the loop
that sleeps until the earliest one, claims the due rows and fires them (deadlines, reminders,
the seat-filler's turns). Timers are database rows, so a restart picks them up again; a claim
(owner and lease) keeps another process from firing the same row. A part of `House`."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from engine.core import SYSTEM
from store import GameRow, StoreUnavailable, Timer

from . import away as away_mod, settings as settings_mod
from .clock import now
from .pause import paused
from .titles import ui_for

log = logging.getLogger(__name__)

#: With no timer at all the scheduler still wakes weekly (a kick wakes it sooner).
IDLE_SLEEP = 7 * 24 * 3600
#: Seconds before a timer whose work failed fires again; doubled at each further failure, up to
#: TIMER_RETRY_MAX.
TIMER_RETRY = 60
#: Moves the seat-filler may make for one late seat at one deadline (an E-Wars dispatch is
#: several choices and a Confirm).
DEADLINE_MOVES = 12
TIMER_RETRY_MAX = 15 * 60
#: How long a claimed timer is this process's to fire; a crashed process's claims lapse then.
TIMER_LEASE = 60
#: Timers claimed at once (each is fired well within the lease).
CLAIM_BATCH = 10
#: The timer loop's wait after the database refused a claim, doubled each time, up to OUTAGE_MAX.
OUTAGE_FIRST = 10
OUTAGE_MAX = 5 * 60



def open_window(engine: Any, state: dict[str, Any] | None, ref: str) -> Any:
    """The window `ref` names, if the game still has it open (else None: what the timer was for
    is over)."""
    return next((w for w in engine.windows(state or {}) if w.id == ref), None)


class TimerLoop:
    """Mixed into `House`, whose store, cache, locks, away times, table and moves
    (`act`, `ai_move`, `replan`, `game`) it uses."""

    def plan_timers(self, game: GameRow, state: dict[str, Any], existing: list[Timer], t: float,
                    away: dict[int, float] | None = None) -> list[tuple]:
        """The game's timers after an action: a deadline and a reminder per open window (kept at
        their first due time while the window stays open, or sooner if the settings were
        shortened), and a turn for each AI seat that can move. Recomputed from the state on
        every action, so timers never drift from the rules. `away`: {seat: until} of players
        away now; as the host chose, their deadlines stretch or the seat-filler plays for them
        (see away.py)."""
        if paused(game) is not None:
            return []
        engine = ui_for(game.title).game
        conf = settings_mod.merged(game.settings)
        old = {(x.kind, x.ref): x.due_at for x in existing}
        sent = {x.ref: x.payload.get("n", 0) for x in existing if x.kind == "reminder"}
        ai_seats = {s.seat for s in game.seats if s.ai_plays}
        humans = {s.seat for s in game.seats if not s.ai_plays}
        away = away or {}
        if away and conf["away"] == "filler":
            ai_seats, humans = ai_seats | set(away), humans - set(away)
        payloads = {x.ref: x.payload for x in existing if x.kind == "deadline"}
        out: list[tuple] = []
        for w in engine.windows(state):
            length = settings_mod.deadline_for(engine, conf, w.kind)
            deadline = None
            if length > 0:
                deadline = min(old.get(("deadline", w.id), t + length), t + length)
                payload: dict[str, Any] = {"kind": w.kind}
                if away and conf["away"] == "stretch":
                    deadline, payload = away_mod.stretch(deadline, payload, w.seats, away, length, t, payloads.get(w.id))
                out.append(("deadline", w.id, deadline, payload))
            if humans & set(w.seats):
                n = sent.get(w.id, 0)
                due = old.get(("reminder", w.id)) if w.id in sent else \
                    settings_mod.reminder_due(conf["reminder"], n, t, deadline, length)
                if due is not None:
                    out.append(("reminder", w.id, due, {"n": n}))
        for seat in sorted(ai_seats):
            if engine.legal(state, seat):
                # Kept while still ahead (others' moves do not push it back); once it has fired,
                # the seat's next move comes after a fresh "thinking" delay.
                due = old.get(("ai", str(seat)))
                out.append(("ai", str(seat), due if due is not None and due > t else t + conf["ai_delay"], {}))
        return out

    def kick(self) -> None:
        """A timer may now be due sooner than the scheduler's sleep: restart its sleep (as
        RoboDanny's reminders do). While it is firing timers it re-reads the table anyway."""
        task = self._scheduler
        if task is not None and self._sleeping and not task.done() and not self.closed:
            task.cancel()
            self._sleeping = False
            self._scheduler = asyncio.create_task(self._run_timers(), name="boardroom-timers")

    async def _run_timers(self) -> None:
        """Sleep until the earliest timer row (or a kick when a sooner one is added), then claim
        the due ones and fire them. Timers are rows, so a restart simply picks them up again;
        a claim (owner and lease) makes sure no other process fires the same row, and a crashed
        owner's claims lapse with the lease. While the database refuses (a claim is a write), the
        loop backs off with growing delays; the store says so once in the log."""
        await self.bot.wait_until_ready()
        trouble = 0
        while not self.closed:
            try:
                due = await self.store.next_due(self.shards)
                delay = IDLE_SLEEP if due is None else due - now()
                if delay > 0:
                    self._sleeping = True
                    try:
                        await asyncio.sleep(min(delay, IDLE_SLEEP))
                    finally:
                        self._sleeping = False
                claimed = await self.store.claim_timers(now(), owner=self.owner, lease=TIMER_LEASE,
                                                        limit=CLAIM_BATCH, shards=self.shards)
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
            game = await self.game(timer.game_id, fresh=True)
            if game is not None and game.status == "active" and game.state is not None \
                    and game.version != timer.version:
                # Planned for another moment (the game was moved without replanning): plan the
                # game's timers afresh from its state; the loop then fires the current one.
                await self.replan(game)
                await self.store.consume_timer(timer)
            elif game is None or game.status != "active" or game.state is None or paused(game) is not None:
                await self.store.consume_timer(timer)  # nothing moves (a paused game has no timers)
            elif timer.kind == "ai":
                if await self.away.filler_plays(game, int(timer.ref)):
                    await self.ai_move(timer.game_id, int(timer.ref))
                else:  # its player's away time ended: the seat is theirs again, with its deadlines
                    await self.replan(game)
                await self.store.consume_timer(timer)
            elif timer.kind == "deadline":
                await self._deadline(timer, game)
            elif timer.kind == "reminder":
                await self._reminder(timer, game)
            else:
                await self.store.consume_timer(timer)
            self._failures.pop(key, None)
        except Exception as exc:
            failures = self._failures[key] = self._failures.get(key, 0) + 1
            wait = min(TIMER_RETRY * 2 ** (failures - 1), TIMER_RETRY_MAX)
            if isinstance(exc, StoreUnavailable):
                log.info("timer %s: the database refuses (%s); it fires again in %ss", timer, exc, wait)
            else:
                log.exception("timer %s failed; it fires again in %ss", timer, wait)
            try:
                await self.store.retry_timer(timer, now() + wait)
            except Exception:  # the claim's lease runs out by itself, and the timer fires again
                log.debug("could not put timer %s back; its lease will lapse", timer, exc_info=True)

    async def _deadline(self, timer: Timer, game: GameRow) -> None:
        engine = ui_for(game.title).game
        window = open_window(engine, game.state, timer.ref)
        if window is None:
            await self.store.consume_timer(timer)
            return
        conf = settings_mod.merged(game.settings)
        if conf["on_deadline"] == "remind":
            if await self.store.consume_timer(timer) and self.table is not None:
                self.table.note(game.id, "deadline", window=window, mode="remind")
                self.table.remind(game.id, list(window.seats), passed=True)
            return
        moved = False
        if conf["on_deadline"] == "ai":
            # The seat-filler finishes what each late seat owes in this window (an E-Wars
            # dispatch is several choices and a Confirm), a bounded number of moves per seat.
            for seat in window.seats:
                for _ in range(DEADLINE_MOVES):
                    current = await self.game(timer.game_id)
                    if current is None or current.status != "active":
                        break
                    owed = open_window(engine, current.state, timer.ref)
                    if owed is None or seat not in owed.seats or not engine.legal(current.state or {}, seat):
                        break
                    result = await self.ai_move(current.id, seat)
                    if result is None or not result.applied:
                        break
                    moved = True
        current = await self.game(timer.game_id)
        if current is not None and current.status == "active" \
                and open_window(engine, current.state, timer.ref) is not None:
            result = await self.act(current.id, SYSTEM, {"type": "timeout", "id": timer.ref})
            moved = moved or result.applied
        if moved and self.table is not None:  # committed: now it may be said
            self.table.note(game.id, "deadline", window=window, mode=conf["on_deadline"])
        await self.store.consume_timer(timer)

    async def _reminder(self, timer: Timer, game: GameRow) -> None:
        engine = ui_for(game.title).game
        window = open_window(engine, game.state, timer.ref)
        if window is None:
            await self.store.consume_timer(timer)
            return
        # The next reminder of this window, if it is due one (at most two, none before half the
        # deadline has passed: see settings.reminder_due).
        conf = settings_mod.merged(game.settings)
        n = int(timer.payload.get("n", 0)) + 1
        deadline = next((x.due_at for x in await self.store.timers(game.id)
                         if x.kind == "deadline" and x.ref == timer.ref), None)
        length = settings_mod.deadline_for(engine, conf, window.kind)
        due = settings_mod.reminder_due(conf["reminder"], n, now(), deadline, length)
        # The next reminder is written (or this one consumed) first; the ping goes out only once
        # it is: a retry after a refused write must not ping twice.
        if not await self.store.consume_timer(timer, rearm_at=due, payload={"n": n}):
            return
        if due is not None:
            self.kick()
        humans = {s.seat for s in game.seats if not s.ai_plays}
        owing = [s for s in window.seats if s in humans]
        if owing and self.table is not None:
            self.table.remind(game.id, owing)

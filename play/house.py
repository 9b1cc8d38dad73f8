"""The house: the one place that changes a running game.

A move is one call, `act`: load (cached) -> the rules on the snapshot -> commit with the version
compare-and-swap and the game's new timers in one statement -> remember what taking it back needs
-> tell the notifier (the table, coalesced per game, so a burst of clicks costs one table edit).
The other changes of a running game that are not moves are here too (taking a move back, away
mode, settings, ending a game), or in the parts the house is built with (seats.py, pause.py,
lobby.py), each of which writes through the game's lock.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import replace
from typing import Any

import engine
from engine.core import RuleError
from service import metrics
from store import GameRow, Store

from . import orders as orders_mod, settings as settings_mod, timing
from .away import Away
from .crossing import Crossing
from .duties import answering
from .games import GameCache
from .moments import Moments
from .plan import Plan, Planner, news_of, obligations, owing, rules
from .ports import Clock, Notifier, Ready
from .result import Kind, Result, outcome_json
from .settings import paused
from .timer_loop import TimerLoop
from .undo import UndoMemory

log = logging.getLogger(__name__)


class House:
    def __init__(self, store: Store, games: GameCache, planner: Planner, away: Away, undo: UndoMemory,
                 crossing: Crossing, notifier: Notifier, clock: Clock, ready: Ready) -> None:
        self.store = store
        self.games = games
        self.planner = planner
        self.away = away
        self.undo = undo
        self.crossing = crossing
        self.notifier = notifier
        self.clock = clock
        self.ready = ready
        #: Since when each obligation is open: a click drawn earlier may still be its player's own.
        self.moments = Moments()
        self.catching_up: asyncio.Task | None = None  # telling what a crash kept from the channels
        self.closed = False
        self.timers = TimerLoop(self, store, games, planner, away, notifier, clock, planner.alarm, ready)

    # -- applying actions ---------------------------------------------------------------------

    async def act(self, game_id: int, seat: int | None, action: dict[str, Any], *, user_id: int | None = None,
                  version: int | None = None, ai_for: bool = False,
                  notes: list[tuple[str, dict[str, Any]]] | None = None) -> Result:
        """Apply one action for `seat` (None: the system); a player's move (`user_id`) is
        remembered for taking it back. With `version`, only if the game is still at that version
        (a click drawn for an earlier moment is refused as stale). When another process moved
        the game after this one read it, the move is judged once more on the store's row: a
        cached copy never decides it. `ai_for`: the seat-filler moves for a person whose time ran
        out; its events say so (`ai_for`: the seat), so the channel never reads it as theirs.
        `notes`: house notes told with the move, only once it is committed (a deadline passed)."""
        result = await self._act(game_id, seat, action, user_id=user_id, version=version, ai_for=ai_for,
                                 notes=notes)
        if result.kind is Kind.LOST:
            result = await self._act(game_id, seat, action, user_id=user_id, version=version, fresh=True,
                                     ai_for=ai_for, notes=notes)
        if result.kind is Kind.LOST:
            return Result(Kind.STALE, result.game)
        if result.applied and user_id is not None and seat is not None:
            self.undo.remember(game_id, seat, user_id, result)
        return result

    async def _act(self, game_id: int, seat: int | None, action: dict[str, Any], *, user_id: int | None,
                   version: int | None, fresh: bool = False, ai_for: bool = False,
                   notes: list[tuple[str, dict[str, Any]]] | None = None) -> Result:
        games = self.games
        async with games.lock(game_id):
            game = await games.game(game_id, fresh=fresh)
            if game is not None and version is not None and version > game.version:
                game = await games.game(game_id, fresh=True)  # drawn after a move made elsewhere
            if game is None:
                return Result(Kind.MISSING)
            if game.status != "active" or game.state is None:
                return Result(Kind.OVER, game)
            if version is not None and version != game.version:
                return Result(Kind.STALE, game)
            if paused(game) is not None:  # the channel is out of the bot's reach: nothing moves
                return Result(Kind.PAUSED, game)
            game_rules = rules(game)
            # A new top-level dict is enough: `Game.apply` runs the rules on its own deep copy and
            # on success replaces this dict's keys, so the cached snapshot (and anything drawn from
            # it meanwhile) never changes. A second deep copy here cost 5% of an action's CPU.
            state = dict(game.state)
            # The windows before and after the move, asked of the title once each (obligations,
            # news and the plan all read them: seven asks a move). A `Window` is frozen, its seats
            # a tuple, and `apply` replaces the keys of `state` without touching what they held.
            was_open = game_rules.windows(state)
            before = obligations(game, state, was_open)
            try:
                events = game_rules.apply(state, seat, action)
            except RuleError as err:
                if games.shards is not None and not fresh:  # judged on a copy another process may
                    return Result(Kind.LOST, game)          # have outdated: judge it on the store's
                metrics.action(game.title, "refused")
                return Result(Kind.REFUSED, game, error=err)
            if ai_for and events:  # the move itself (its consequences are nobody's own)
                events = [{**events[0], "ai_for": seat}] + events[1:]
            outcome = game_rules.outcome(state)
            t = self.clock()
            existing = await games.timers(game_id, game.version)
            now_open = game_rules.windows(state)
            news = news_of(game, game.state, state, events, seat, (was_open, now_open))
            planned = Plan([]) if outcome is not None else await self.planner.timers_after(game, state, existing, t,
                                                                                           news, now_open)
            owned = games.owns(game)
            ok = await self.store.commit_action(
                game_id, expected_version=game.version, seat=seat, user_id=user_id, action=action, events=events,
                state=state, now=t, finished=outcome_json(outcome) if outcome is not None else None,
                timers=planned.rows, notify=not owned, clock=planned.clock, known=games.known(game_id, existing),
            )
            if not ok:  # someone else (another process?) moved the game: reload next time
                games.forget(game_id)
                return Result(Kind.LOST, game)
            # Moves made elsewhere that this process has not told yet go out with this one.
            missed = await self.crossing.missed(game, game.version + 1, over=outcome is not None)
            previous, previous_clock = game.state, game.clock  # never changed in place: safe to keep
            # A new row, never the cached one changed in place: a reader holding it (the table
            # keeper drawing the table across awaits) would see half of one version and half of
            # the next (CI: a table showing a closed window and the move that closed it).
            game = game.moved(state, t, planned.clock if planned.clock is not None else game.clock)
            if outcome is not None:
                game.status, game.result, game.finished_at = "finished", outcome_json(outcome), t
            games.keep(game)
            if outcome is None:
                games.planned(game_id, game.version, planned.rows)
            self.planner.alarm.ring()
            after = obligations(game, state, now_open) if outcome is None else set()
            self.moments.moved(game_id, seat, game.version, before, after, over=outcome is not None)
            # Told before the lock is let go (the table keeper reads the game under it): whoever
            # sees this version has its story queued, so the results never go out before the
            # move that ended the game (issue 28: "Deadline passed" below the results).
            if not owned:
                metrics.crossing("sent")
            else:  # else the owner hears of it and tells
                self._tell(game, events, missed, notes, planned, seat, after - before)
        metrics.action(game.title, "applied")
        if outcome is not None:
            await self.rate(game)
        return Result(Kind.APPLIED, game, events, before=previous, timers=existing, clock_before=previous_clock,
                      filler_next=any(row[0] == "ai" for row in planned.rows))

    def _tell(self, game: GameRow, events: list[dict[str, Any]], missed: list[dict[str, Any]],
              notes: list[tuple[str, dict[str, Any]]] | None, planned: Plan, seat: int | None,
              new: set[tuple[str, int]]) -> None:
        """Queue a committed move's story for the channel: its notes first, then its events."""
        for kind, params in notes or []:  # queued with the move, so told with it
            self.notifier.note(game.id, kind, **params)
        # A seat whose standing orders answer at once is not called for what they answer.
        answered = {int(row[1]) for row in planned.rows if row[0] == "order"}
        # A seat a closed window had held up is called as for a new question ("offer an
        # investor for deal I"), not told "new answers are in": none came in for it.
        called = {s for _, s in new} | set(planned.freed or ())
        self.notifier.changed(game, missed + events, ping=sorted(called - answered),
                              news=planned.news or [])

    async def rate(self, game: GameRow) -> None:
        """The game just ended by its rules: rate it now, once (store/ratings/; the results step
        asks again, so a failure here or a crash right after the commit leaves it to them)."""
        try:
            await self.store.rate_game(game, self.clock())
        except Exception:
            log.exception("rating game %s failed; its results will try again", game.id)

    # -- the AI seat-filler -------------------------------------------------------------------

    def ai_choice(self, game: GameRow, seat: int, window: str | None = None) -> dict[str, Any] | None:
        """The seat-filler's move for `seat`, or None when it chooses to wait (with `window`: only
        among the moves that answer that window), at the game's strength level (settings.py's
        `ai_level`: an AI seat and a late person's stand-in play alike). Its randomness is seeded
        from the game and version, so a replayed game makes the same choices."""
        game_rules = engine.get(game.title)
        state = game.state or {}
        legal = answering(game, seat, window) if window is not None else game_rules.legal(state, seat)
        if not legal:
            return None
        rng = random.Random(f"{game.seed}/ai/{seat}/{game.version}")
        level = settings_mod.merged(game.settings)["ai_level"]
        return game_rules.ai_action(game_rules.view(state, seat), legal, rng, level=level)

    async def ai_move(self, game_id: int, seat: int, *, window: str | None = None,
                      notes: list[tuple[str, dict[str, Any]]] | None = None) -> Result | None:
        """The seat-filler's move for `seat` (a seat it plays; or, `window`, a person's whose time
        ran out in that window)."""
        game = await self.games.game(game_id)
        if game is None or game.status != "active" or paused(game) is not None:
            return None
        version = game.version
        try:
            action = await asyncio.to_thread(self.ai_choice, game, seat, window)
        except Exception:  # a seat-filler bug: the seat waits, and its deadline moves the game on
            log.exception("the seat-filler failed in game %s for seat %s", game_id, seat)
            return None
        if action is None:
            return None
        result = await self.act(game_id, seat, action, version=version, ai_for=window is not None, notes=notes)
        if result.kind is Kind.REFUSED:  # a seat-filler bug must not stall the table
            log.error("AI move %s refused in game %s: %s", action, game_id, result.error)
        return result

    # -- changes that are not moves -----------------------------------------------------------

    async def take_back(self, game_id: int, seat: int, user_id: int, version: int) -> str | None:
        """Take back the player's last move (undo.py): None when done, else the catalogue key
        saying why not. The deadlines go back to where they were before the move."""
        games = self.games
        async with games.lock(game_id):
            fresh = await games.game(game_id, fresh=True)
            refusal = self.undo.refusal(fresh, seat, user_id, version)
            if refusal is not None:
                return refusal
            assert fresh is not None
            taken = self.undo.take(game_id)
            t = self.clock()
            fresh = replace(fresh, clock=taken.clock)  # the banks as they were before the move
            planned = await self.planner.timers_after(fresh, taken.before, taken.timers, t)
            done = await self.store.undo_action(game_id, version=taken.version, state=taken.before, now=t,
                                                timers=planned.rows, notify=not games.owns(fresh),
                                                clock=planned.clock if planned.clock is not None else taken.clock)
            games.forget(game_id)
            self.planner.alarm.ring()
        if not done:
            return "core.undo.moved_on"
        log.info("game %s: seat %s took back its move %s", game_id, seat, version)
        if not games.owns(fresh):  # the owner tells its channel (another process's hears the notice)
            return None
        if taken.seen_by_others(len(fresh.seats)):
            self.notifier.note(game_id, "undone", seat=seat)
        else:  # nobody else saw the move (a secret pick): nobody else hears of its taking back
            self.notifier.refresh(game_id)
        return None

    async def set_away(self, user_id: int, until: float | None) -> int:
        """The player is away until `until` (None: back), in every game they play: each game's
        timers are planned again and its table says so. The number of running games touched."""
        await self.away.keep(user_id, until)
        touched = 0
        for game_id in await self.store.games_of_user(user_id):
            async with self.games.lock(game_id):
                game = await self.games.game(game_id, fresh=True)
                seat = game.seat_of(user_id) if game is not None and game.status == "active" else None
                if game is None or seat is None:
                    continue
                touched += 1
                conf = settings_mod.merged(game.settings)
                # The absence this game grants (its clock stands still then), capped per game.
                clock = timing.grant_away(game, seat, self.clock(), until, conf)
                await self.planner.replan(game, locked=True, clock=clock)
            if until is None:
                self.notifier.note(game.id, "back", seat=seat)
            else:
                self.notifier.note(game.id, "away", seat=seat, until=until, cap_days=int(conf.get("away_days", 7)))
            self.notifier.refresh(game.id)
        log.info("user %s is %s (%s running games)", user_id, "back" if until is None else f"away until {until}",
                 touched)
        return touched

    async def set_quiet(self, user_id: int, quiet: str | None, tz: str | None) -> None:
        """The player's quiet hours and time zone changed: their running games plan their
        deadlines and reminders on their new clock."""
        await self.planner.people.set(user_id, quiet, tz)
        for game_id in await self.store.games_of_user(user_id):
            game = await self.games.game(game_id, fresh=True)
            if game is not None and game.status == "active":
                await self.planner.replan(game)

    async def set_order(self, game_id: int, seat: int, order: dict[str, Any] | None = None, *,
                        cancel: str | None = None, cancel_all: bool = False) -> RuleError | None:
        """Set one of the seat's standing orders (or cancel the one keyed `cancel`, or all):
        None when done, else why not. Private: the table says nothing; if the order answers
        something open now, the timer loop plays it at once."""
        async with self.games.lock(game_id):
            game = await self.games.game(game_id, fresh=True)
            if game is None or game.status != "active" or game.state is None:
                return RuleError("core.error.game_over")
            game_rules = rules(game)
            try:
                if order is not None:
                    clock = orders_mod.set_order(game_rules, game, seat, order)
                else:
                    clock = orders_mod.cancel_order(game_rules, game, seat, None if cancel_all else cancel)
            except RuleError as exc:
                return exc
            await self.planner.replan(game, locked=True, clock=clock)
        return None

    async def change_settings(self, game: GameRow, settings: dict[str, Any]) -> None:
        """The host changed the game's settings: open windows keep their running deadlines; new
        windows use the new lengths."""
        async with self.games.lock(game.id):
            await self.store.update_game(game.id, self.clock(), settings=settings)
            self.games.forget(game.id)
        if game.status == "active":
            await self.planner.replan(game)
            self.notifier.refresh(game.id)

    async def end(self, game: GameRow, by: int) -> bool:
        """The host (or a channel manager) ended the game. False if it was not live."""
        async with self.games.lock(game.id):
            done = await self.store.finish(game.id, "cancelled", self.clock(), {"reason": "ended", "by": by})
            self.games.forget(game.id)
        return done

    # -- after a restart ----------------------------------------------------------------------

    def start(self) -> None:
        """The timer loop, the catch-up after a restart, and listening to other processes."""
        self.timers.start()
        if self.catching_up is None:
            self.catching_up = asyncio.create_task(self.catch_up(), name="boardroom-catch-up")
        self.crossing.start()

    async def catch_up(self) -> None:
        """Tell the channels what a crash kept from them: moves committed just before it whose
        narration, pings and table update never went out (the game's `told_version` is behind
        its version). The events come from the action log; the players who must act now are
        pinged."""
        await self.ready()
        await self.crossing.ready()
        for game_id in await self.store.untold_games(self.games.shards):
            try:
                # Under the game's lock, as a move made meanwhile (here, or elsewhere and noticed)
                # tells what it tells: each move is told once.
                async with self.games.lock(game_id):
                    found = await self.crossing.untold(game_id)
                if found is None:
                    continue
                game, events, told = found
                ping = owing(game) if game.status == "active" else []
                log.info("game %s: telling moves %s..%s again after a restart", game_id, told + 1, game.version)
                self.notifier.changed(game, events, ping=ping)
            except Exception:  # one game's trouble must not keep the others untold
                log.exception("could not catch up game %s after a restart", game_id)
        # Tables posted before the current message layout are posted once again in it.
        for game_id, _ in await self.store.active_games(self.games.shards):
            game = await self.games.game(game_id, fresh=True)
            if game is not None and game.status == "active" and game.table_message_id \
                    and self.notifier.reposts(game):
                self.notifier.refresh(game_id, repost=True)

    async def stop(self) -> None:
        self.closed = True
        await self.timers.stop()
        if self.catching_up is not None:
            self.catching_up.cancel()
            await asyncio.gather(self.catching_up, return_exceptions=True)
        await self.crossing.stop()

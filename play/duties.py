"""When a person's obligation comes due (a "duty" row, timing.py): a reminder, or their time ran
out. Reminders go only to that person, two at most for the window's whole life, never inside
their quiet hours (the row's due time is on their own clock) and never while they are playing
(a move of theirs in the last minutes puts it off), nor while nothing on their panel answers the
window yet, nor within the hour after a news call told them already (`Duties.hold`). When their
time runs out, only that window is answered, only for that seat: the seat-filler answers it for
them (or the host's choice: the title's timeout once everyone in the window is out of time, or a
last reminder); in a window where a late person simply misses their turn (`lapse`), they miss
it, whatever the setting.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any, Protocol

from engine.core import SYSTEM, Window
from store import GameRow, Store, Timer

from . import settings as settings_mod, timing
from .alarm import Alarm
from .games import GameCache
from .plan import Planner, lapses, obligations, open_window, rules
from .ports import Clock, Notifier
from .quiet import Quiet
from .result import Result

log = logging.getLogger(__name__)

#: Moves the seat-filler may make for one late seat in one window (an E-Wars dispatch is several
#: choices and a Confirm).
DEADLINE_MOVES = 12
#: A person who moved in the game this recently is playing now: a reminder waits this long.
ACTING = 10 * 60
#: A person who owes a window they cannot answer yet (another window comes first) is looked at
#: again this much later: when the other window closes, the news call tells them at once.
BLOCKED = 60 * 60


class Mover(Protocol):
    """What moves a game (the house)."""

    async def act(self, game_id: int, seat: int | None, action: dict[str, Any], *, user_id: int | None = None,
                  version: int | None = None, notes: list[tuple[str, dict[str, Any]]] | None = None) -> Result: ...

    async def ai_move(self, game_id: int, seat: int, *, window: str | None = None,
                      notes: list[tuple[str, dict[str, Any]]] | None = None) -> Result | None: ...


class Duties:
    def __init__(self, mover: Mover, store: Store, games: GameCache, planner: Planner, notifier: Notifier,
                 clock: Clock, alarm: Alarm) -> None:
        self.mover = mover
        self.store = store
        self.games = games
        self.planner = planner
        self.notifier = notifier
        self.clock = clock
        self.alarm = alarm

    async def fire(self, timer: Timer, game: GameRow) -> None:
        found = timing.duty_of(timer.ref)
        window = open_window(rules(game), game.state, found[0]) if found else None
        if found is None or window is None or found[1] not in window.seats:
            await self.games.consume(timer)  # answered, or its window closed
            return
        seat, end = found[1], timer.payload.get("end")
        if end is not None and not timer.payload.get("out") and self.clock() >= float(end) - 1:
            await self.time_out(timer, game, window, seat)
        elif timer.payload.get("news") and self.clock() >= float(timer.payload.get("told") or 0) + timing.NEWS_EVERY - 1:
            await self.tell_news(timer, game, window, seat)
        else:
            await self.remind(timer, game, window, seat)

    # -- reminders ----------------------------------------------------------------------------

    async def remind(self, timer: Timer, game: GameRow, window: Window, seat: int) -> None:
        now = self.clock()
        if await self.playing(game, seat, now):
            await self.games.consume(timer, rearm_at=now + ACTING)
            self.alarm.ring()
            return
        hold = self.hold(game, window, seat, timer.payload, now)
        if hold is not None:  # on their own clock (never inside their quiet hours), never past the deadline
            later = (await self.clock_of(game, window, seat)).awake_from(hold)
            end = timer.payload.get("end")
            later = later if end is None else min(later, float(end))
            await self.games.consume(timer, rearm_at=timing.news_due(later, timer.payload))
            self.alarm.ring()
            return
        sent = int(timer.payload.get("n", 0)) + 1
        due, payload = await self.next_due(game, window, seat, timer.payload, sent)
        # The count is written first; the ping goes out only once it is: a retry never pings twice.
        if not await self.games.consume(timer, rearm_at=due, payload=payload):
            return
        self.alarm.ring()
        self.notifier.remind(game.id, [seat], kind=window.kind)

    @staticmethod
    def hold(game: GameRow, window: Window, seat: int, payload: dict[str, Any], now: float) -> float | None:
        """Until when a reminder due now waits, uncounted (None: it goes now). It waits while
        nothing on their panel answers the window (I'm the Boss!: a reaction window waits for
        someone else, and no offer may be made before it closes: the reminder sent them to a
        panel with nothing to do), and for an hour after a news call, which told them already
        (when that reaction closes, its news call and the held reminder came in one minute)."""
        told = float(payload.get("told") or 0)
        if now < told + timing.NEWS_EVERY - 1:
            return told + timing.NEWS_EVERY
        return None if can_answer(game, seat, window.id) else now + BLOCKED

    async def tell_news(self, timer: Timer, game: GameRow, window: Window, seat: int) -> None:
        """Answers came in for the seat since its last call, an hour ago: call it now."""
        was = {**timer.payload, "news": False, "told": self.clock()}
        due, payload = await self.next_due(game, window, seat, was, int(timer.payload.get("n", 0)),
                                           out=bool(timer.payload.get("out")))
        if await self.games.consume(timer, rearm_at=due, payload=payload):
            self.alarm.ring()
            self.notifier.changed(game, [], ping=[], news=[seat])

    async def playing(self, game: GameRow, seat: int, now: float) -> bool:
        """Did the seat's person move in this game in the last few minutes?"""
        for entry in await self.store.actions(game.id, newest_first=True, limit=10):
            if now - float(entry["at"]) > ACTING:
                return False
            if entry["seat"] == seat and entry["user_id"] is not None:
                return True
        return False

    async def next_due(self, game: GameRow, window: Window, seat: int, was: dict[str, Any], sent: int,
                       out: bool = False) -> tuple[float, dict[str, Any]]:
        """The duty row's next due time and payload once `sent` reminders went out."""
        conf = settings_mod.merged(game.settings)
        clock = await self.clock_of(game, window, seat)
        length = settings_mod.deadline_for(rules(game), conf, window.kind)
        now = self.clock()
        due, payload = timing.duty(float(was.get("opened", now)), length, timing.bank_left(game, seat, conf),
                                   clock, conf, sent, out, window.kind, was, now, window.held)
        return timing.news_due(due, payload), payload

    async def clock_of(self, game: GameRow, window: Window, seat: int) -> Quiet:
        """The seat's own clock for this window (`timing.person_clock`)."""
        daily = (await self.planner.daily(game)).get(seat)
        return timing.person_clock(game, seat, settings_mod.merged(game.settings), daily,
                                   lapse=lapses(rules(game), window.kind))

    # -- time out -----------------------------------------------------------------------------

    async def time_out(self, timer: Timer, game: GameRow, window: Window, seat: int) -> None:
        """The seat's time, bank and all, ran out in this window. What it did is said only once
        it is committed, so that a retry (a refused write) never says it twice."""
        game_rules = rules(game)
        mode = settings_mod.merged(game.settings)["on_deadline"]
        if lapses(game_rules, window.kind):  # they miss it, whatever the setting: nobody decides
            result = await self.mover.act(game.id, SYSTEM, {"type": "timeout", "id": window.id, "seats": [seat]})
            if not result.applied:
                log.error("game %s: the lapse of seat %s in %s was refused: %s", game.id, seat, window.id,
                          result.error)
            await self.games.consume(timer)
            return
        # The note goes with the first move it causes, so that it is told with it (above it, once
        # committed); with no move, once the row says the seat is out of time.
        note = [("deadline", {"window": window, "mode": mode, "seats": [seat]})]
        moved = await self.answer_for(game.id, seat, window.id, note) if mode == "ai" else False
        current = await self.games.game(game.id, fresh=True)
        still = current is not None and current.status == "active" and seat in (
            (open_window(game_rules, current.state, window.id) or Window("", "")).seats)
        if still and mode != "remind" and await self.others_out(current, window, seat):
            # Everyone in the window is out of time now: the title's own timeout ends it.
            result = await self.mover.act(game.id, SYSTEM, {"type": "timeout", "id": window.id},
                                          notes=None if moved else note)
            moved, still = moved or result.applied, False
        if still:
            assert current is not None
            due, payload = await self.next_due(current, window, seat, timer.payload,
                                               int(timer.payload.get("n", 0)), out=True)
            done = await self.games.consume(timer, rearm_at=due, payload=payload)
        else:  # (the move planned the game's timers afresh: this row may be gone already)
            done = await self.games.consume(timer) or moved
        if done and not moved:
            self.notifier.note(game.id, "deadline", window=window, mode=mode, seats=[seat])
        if done and mode == "remind":
            self.notifier.remind(game.id, [seat], passed=True, kind=window.kind)
        self.alarm.ring()

    async def answer_for(self, game_id: int, seat: int, window_id: str,
                         note: list[tuple[str, dict[str, Any]]]) -> bool:
        """The seat-filler answers this window, and only it, for the seat; whether it moved.
        `note` is told with its first move."""
        moved = False
        for _ in range(DEADLINE_MOVES):
            current = await self.games.game(game_id)
            if current is None or current.status != "active":
                break
            owed = open_window(rules(current), current.state, window_id)
            if owed is None or seat not in owed.seats:
                break
            result = await self.mover.ai_move(game_id, seat, window=window_id, notes=None if moved else note)
            if result is None or not result.applied:
                break
            moved = True
        return moved

    async def others_out(self, game: GameRow, window: Window, seat: int) -> bool:
        """Whether every other person who owes the window is out of time too (and no seat the
        seat-filler plays still owes it)."""
        duties = {t.ref: t for t in await self.store.timers(game.id) if t.kind == "duty"}
        people = {s.seat for s in game.seats if not s.ai_plays}
        for other in window.seats:
            if other == seat:
                continue
            row = duties.get(timing.duty_ref(window.id, other))
            if other not in people or row is None or not row.payload.get("out"):
                return False
        return True


def answering(game: GameRow, seat: int, window_id: str) -> list[dict[str, Any]]:
    """The seat's moves for the window whose time ran out, never one that answers another window
    it owes (such as a reaction window open for minutes). First those that answer it and leave the
    seat owing nothing new; else the seat-filler chooses among the moves toward answering it (an
    E-Wars dispatch: the picks before the Confirm) and the answers that open a new window of the
    seat's own (I'm the Boss!: proposing a deal ends the turn's window but makes its boss owe the
    deal; rolling on is as good an answer for a seat no deal pays)."""
    clean, rest = [], []
    for action, alone in _toward(game, seat, window_id):
        (clean if alone else rest).append(action)
    return clean or rest


def can_answer(game: GameRow, seat: int, window_id: str) -> bool:
    """Whether the seat has a move toward answering the window now (`answering` is not empty)."""
    return next(_toward(game, seat, window_id), None) is not None


def _toward(game: GameRow, seat: int, window_id: str) -> Iterator[tuple[dict[str, Any], bool]]:
    """The seat's legal moves that answer no other window it owes, each with whether it leaves
    the seat owing nothing new."""
    game_rules = rules(game)
    state = game.state or {}
    others = {w for w, s in obligations(game, state) if s == seat and w != window_id}
    for action in game_rules.legal(state, seat):
        trial = dict(state)
        try:
            game_rules.apply(trial, seat, action)
        except Exception:  # a legal move the rules refuse would be a title's bug: not for the AI
            continue
        after = {w for w, s in obligations(game, trial) if s == seat}
        if others <= after:  # else it answers another window
            yield action, after <= others

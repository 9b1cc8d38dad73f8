"""What a game owes next: who must act (obligations), and the timers that follow from it (a
deadline and reminders per open window, a turn for each seat-filler that can move). Timers are
planned from the state after every move, so they never drift from the rules; a re-plan outside a
move (start, settings, a seat changing hands, a player away) writes them for the version it read.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.core import Game, Window
from store import GameRow, Store, Timer

from . import away as away_mod, settings as settings_mod
from .alarm import Alarm
from .away import Away
from .games import GameCache
from .ports import Clock


def rules(game: GameRow) -> Game:
    return engine.get(game.title)


def obligations(game: GameRow, state: dict[str, Any]) -> set[tuple[str, int]]:
    """Who owes what now: (window id, seat) for each open window, and (`act`, seat) for a seat
    that must act outside any window. A pair that is new after a move is a new obligation, and
    its seat is told, even if it was already waiting for something else."""
    game_rules = rules(game)
    owed = {(w.id, seat) for w in game_rules.windows(state) for seat in w.seats}
    covered = {seat for _, seat in owed}
    owed |= {("act", seat) for seat in game_rules.to_act(state) if seat not in covered}
    return owed


def owing(game: GameRow) -> list[int]:
    """The seats that owe something now."""
    return sorted({seat for _, seat in obligations(game, game.state)}) if game.state else []


def open_window(game_rules: Game, state: dict[str, Any] | None, ref: str) -> Window | None:
    """The window `ref` names, if the game still has it open (else None: what a timer was for
    is over)."""
    return next((w for w in game_rules.windows(state or {}) if w.id == ref), None)


def deadline_of(game: GameRow, timers: list[Timer], seats: list[int]) -> float | None:
    """The earliest deadline of the windows these seats owe (None: no deadline)."""
    owed = {w.id for w in rules(game).windows(game.state or {}) if set(w.seats) & set(seats)}
    dues = [tm.due_at for tm in timers if tm.kind == "deadline" and tm.ref in owed]
    return min(dues) if dues else None


def plan_timers(game: GameRow, state: dict[str, Any], existing: list[Timer], t: float,
                away: dict[int, float] | None = None) -> list[tuple]:
    """The game's timers after an action: a deadline and a reminder per open window (kept at
    their first due time while the window stays open, or sooner if the settings were shortened),
    and a turn for each AI seat that can move. `away`: {seat: until} of players away now; as the
    host chose, their deadlines stretch or the seat-filler plays for them (see away.py)."""
    if settings_mod.paused(game) is not None:
        return []
    game_rules = rules(game)
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
    for w in game_rules.windows(state):
        length = settings_mod.deadline_for(game_rules, conf, w.kind)
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
        if game_rules.legal(state, seat):
            # Kept while still ahead (others' moves do not push it back); once it has fired,
            # the seat's next move comes after a fresh "thinking" delay.
            due = old.get(("ai", str(seat)))
            out.append(("ai", str(seat), due if due is not None and due > t else t + conf["ai_delay"], {}))
    return out


class Planner:
    """Plans a game's timers and writes them (for the version they were planned from)."""

    def __init__(self, store: Store, games: GameCache, away: Away, clock: Clock, alarm: Alarm) -> None:
        self.store = store
        self.games = games
        self.away = away
        self.clock = clock
        self.alarm = alarm

    async def timers_after(self, game: GameRow, state: dict[str, Any], existing: list[Timer],
                           t: float) -> list[tuple]:
        return plan_timers(game, state, existing, t, await self.away.of(game))

    async def replan(self, game: GameRow, *, locked: bool = False) -> None:
        """Recompute a game's timers outside an action (start, settings change, a seat left).
        `locked`: the caller already holds the game's lock."""
        if not locked:
            async with self.games.lock(game.id):
                return await self.replan(game, locked=True)
        fresh = await self.games.game(game.id, fresh=True)
        if fresh is None or fresh.status != "active" or fresh.state is None:
            return
        existing = await self.store.timers(game.id)
        # Only for the version it was planned from: a move committed meanwhile planned its own.
        await self.store.replace_timers(game.id, fresh.version,
                                        await self.timers_after(fresh, fresh.state, existing, self.clock()))
        self.alarm.ring()

    async def deadline(self, game: GameRow, seats: list[int]) -> float | None:
        """The earliest deadline these seats face now (from the game's timer rows)."""
        if not seats or game.state is None:
            return None
        return deadline_of(game, await self.store.timers(game.id), seats)

"""Replays of finished games (`/game replay`): the state at any move, rebuilt by replaying the
log through the rules (never from stored pictures). A replay keeps a copy of the state every
CHECKPOINT moves, so a step replays at most that many moves; the few replays people are
stepping through are kept, least recently used first out."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.core import State, copy_json
from engine.replay import steps
from store import GameRow, Store

from .export import log_of

#: Moves between two kept states: a step replays at most this many (a few milliseconds).
CHECKPOINT = 16
#: Replays kept at once (each holds about log length / CHECKPOINT states).
KEPT = 8


@dataclass
class Replay:
    game: GameRow
    entries: list[dict[str, Any]]
    kept: dict[int, State] = field(default_factory=dict)

    @property
    def moves(self) -> int:
        return len(self.entries)

    def build(self) -> None:
        """Replay the whole log once, keeping a state every CHECKPOINT moves."""
        moves = [(e["seat"], e["action"]) for e in self.entries]
        for n, (state, _) in enumerate(steps(self.game.title, len(self.game.seats), self.game.seed,
                                             self.game.options, moves)):
            if n % CHECKPOINT == 0 or n == len(moves):
                self.kept[n] = copy_json(state)

    def state_at(self, n: int) -> State:
        """The state after move `n` (0: the start)."""
        n = max(0, min(n, self.moves))
        start = max(k for k in self.kept if k <= n)
        state = copy_json(self.kept[start])
        game = engine.get(self.game.title)
        for entry in self.entries[start:n]:
            game.apply(state, entry["seat"], entry["action"])
        return state

    def marks(self, types: frozenset[str]) -> list[int]:
        """The moves whose events start a turn, round or deal (event `types`), in order."""
        return [i for i, e in enumerate(self.entries, 1) if any(ev.get("type") in types for ev in e["events"])]


class Replays:
    def __init__(self, store: Store, kept: int = KEPT) -> None:
        self.store = store
        self.kept = kept
        self._open: OrderedDict[int, Replay] = OrderedDict()

    async def open(self, game: GameRow) -> Replay | None:
        """The replay of a finished game; None when its log was archived (pruned)."""
        replay = self._open.get(game.id)
        if replay is not None:
            self._open.move_to_end(game.id)
            return replay
        entries = await log_of(self.store, game)
        if entries is None:
            return None
        replay = Replay(game, entries)
        await asyncio.to_thread(replay.build)  # the whole log once: off the event loop
        self._open[game.id] = replay
        while len(self._open) > self.kept:
            self._open.popitem(last=False)
        return replay

"""Whole games played by the seat-filler AI, for demos, benchmarks and soak runs.

Pure like the rest of `engine/`: all randomness comes from the `random.Random` passed in, so a
(seed, seats, options) triple always plays the same game. The loop mirrors what the bot does:
any seat the AI can move for moves; when every seat-filler waits, an open window times out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engine.core import Game, State


def steps(game: Game, seats: int, seed: int, options: dict[str, Any] | None = None,
          max_steps: int = 100_000) -> Iterator[tuple[State, int | None, dict, list]]:
    """Yield (state, seat, action, events) after each applied action until the game ends.
    The state is the live object: copy it if you keep it."""
    rng = random.Random(seed)
    state = game.setup(seats, seed, options or {})
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return
        seat, action = None, None
        movers = [s for s in range(seats) if game.legal(state, s)]
        for candidate in rng.sample(movers, len(movers)):
            action = game.ai_action(game.view(state, candidate), game.legal(state, candidate), rng)
            if action is not None:
                seat = candidate
                break
        if action is None:
            windows = game.windows(state)
            if not windows:
                raise RuntimeError("nobody can move and no window is open")
            action = {"type": "timeout", "id": windows[0].id}
        events = game.apply(state, seat, action)
        yield state, seat, action, events
    raise RuntimeError(f"game did not end in {max_steps} steps")


def play(game: Game, seats: int, seed: int, options: dict[str, Any] | None = None,
         until: Callable[[State, int], bool] | None = None) -> tuple[State, int]:
    """Play until the end (or until `until(state, step)` is true); return (state, actions)."""
    state, n = game.setup(seats, seed, options or {}), 0
    for n, (state, _seat, _action, _events) in enumerate(steps(game, seats, seed, options), 1):
        if until is not None and until(state, n):
            break
    return state, n

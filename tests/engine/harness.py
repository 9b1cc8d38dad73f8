"""Random whole games through the engine contract, for every title alike.

`play_random(game, seats, seed)` plays a game to its end with seeded random choices among the
legal actions (and timeouts now and then), checking after every step what the contract promises:
  - the state stays JSON and every view is JSON;
  - a refused action changes nothing;
  - no view or event meant for others carries a seat's secrets, or anything hidden;
  - the title's own invariants (`check(state)`), if given.
It returns the action log, so `replay` can prove (seed, options, log) reproduces the state.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

from engine.core import SYSTEM, Game, RuleError, copy_json


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def assert_no_leak(game: Game, state: dict, events: list[dict] | None = None) -> None:
    """Views and events addressed to a seat (or to all) carry none of another seat's secrets."""
    secrets = game.secrets(state)
    seats = len(game.view(state, None).get("seats", [])) or None
    views = {None: _dump(game.view(state, None))}
    for key in secrets:
        if key != "hidden":
            views[int(key)] = _dump(game.view(state, int(key)))
    for owner, tokens in secrets.items():
        for viewer, text in views.items():
            if owner != "hidden" and viewer == int(owner):
                continue
            for token in tokens:
                assert f'"{token}"' not in text, f"view of {viewer} shows {owner}'s secret {token!r}"
    for ev in events or []:
        to = ev.get("to")
        text = _dump(ev)
        for owner, tokens in secrets.items():
            if owner != "hidden" and to is not None and to == [int(owner)]:
                continue
            for token in tokens:
                assert f'"{token}"' not in text, f"event {ev.get('type')} to {to} shows {owner}'s secret {token!r}"
    del seats


def _refusal_changes_nothing(game: Game, state: dict, seat: int, rng: random.Random) -> None:
    before = _dump(state)
    bogus = [
        {"type": "no_such_action"},
        {"type": "timeout", "id": "no-such-window"},
    ]
    legal = game.legal(state, seat)
    if legal:
        broken = dict(rng.choice(legal))
        for k in list(broken):
            if k != "type" and rng.random() < 0.5:
                broken[k] = rng.choice([None, -1, 10**9, "x", [], {}])
        bogus.append(broken)
    for action in bogus:
        try:
            game.apply(state, seat if action["type"] != "timeout" else SYSTEM, action)
        except RuleError as err:
            assert isinstance(err.key, str) and err.key
            assert _dump(state) == before, f"refused {action} changed the state"
        else:
            return  # the mutated action happened to be legal; fine, but stop here
    assert _dump(state) == before


def play_random(
    game: Game,
    seats: int,
    seed: int,
    options: dict | None = None,
    check: Callable[[dict], None] | None = None,
    max_steps: int = 20000,
    timeout_rate: float = 0.03,
    leak_every: int = 1,
    ai: bool = False,
) -> tuple[dict, list[tuple[int | None, dict]]]:
    rng = random.Random(seed)
    state = game.setup(seats, seed, options or {})
    log: list[tuple[int | None, dict]] = []
    assert_no_leak(game, state)
    for step in range(max_steps):
        if game.outcome(state) is not None:
            return state, log
        movers = [s for s in range(seats) if game.legal(state, s)]
        windows = game.windows(state)
        if windows and (not movers or rng.random() < timeout_rate):
            seat, action = SYSTEM, {"type": "timeout", "id": rng.choice(windows).id}
        else:
            assert movers, f"nobody can act and no window is open at step {step}"
            seat, action = None, None
            if ai:
                # A seat-filler may wait (None) when it owes nothing: ask the others, as the bot does.
                for candidate in rng.sample(movers, len(movers)):
                    action = game.ai_action(game.view(state, candidate), game.legal(state, candidate), rng)
                    if action is not None:
                        seat = candidate
                        break
                if action is None:
                    assert windows, f"every seat-filler waits and no window is open at step {step}"
                    seat, action = SYSTEM, {"type": "timeout", "id": rng.choice(windows).id}
            else:
                seat = rng.choice(movers)
                action = rng.choice(game.legal(state, seat))
            if step % 7 == 0 and seat is not SYSTEM:
                # On a copy: a "broken" action can happen to stay legal (one with no fields), and
                # must not then be applied to the game being played.
                _refusal_changes_nothing(game, copy_json(state), seat, rng)
        events = game.apply(state, seat, action)
        json.dumps(state)
        log.append((seat, copy_json(action)))
        if check is not None:
            check(state)
        if leak_every and step % leak_every == 0:
            assert_no_leak(game, state, events)
    raise AssertionError(f"game did not end in {max_steps} steps")


def replay(game: Game, seats: int, seed: int, options: dict | None, log: list[tuple[int | None, dict]]) -> dict:
    state = game.setup(seats, seed, options or {})
    for seat, action in log:
        game.apply(state, seat, action)
    return state

"""`engine.core.undoable`: a move may be taken back only when it revealed nothing (issue 19,
undo). One generic judgement for every title, from the contract alone: the Chance box, the
secrets and the private part of every other seat's view."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.core import SYSTEM, Chance, Game, Outcome, Window, copy_json, undoable


class Cards(Game):
    """A made-up title whose every kind of move touches one thing: a private hand, a hidden
    pile, a private number (shown only in its seat's view), the Chance box, or nothing."""

    title = "cards"

    def _setup(self, seats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
        return {"n": seats, "hands": [[f"c{s}"] for s in range(seats)], "pile": ["p1", "p2"], "cash": [5] * seats,
                "chance": Chance.new(seed), "table": 0, "over": False}

    def _legal(self, state, seat):
        return [{"type": t} for t in ("tap", "steal", "draw", "tax", "roll", "end")]

    def _apply(self, state, seat, action):
        kind, other = action["type"], (seat + 1) % state["n"]
        if kind == "tap":
            state["table"] += 1
        elif kind == "steal":
            state["hands"][seat].append(state["hands"][other].pop())
        elif kind == "draw":
            state["hands"][seat].append(state["pile"].pop())
        elif kind == "tax":
            state["cash"][other] -= 1
        elif kind == "roll":
            state["table"] += Chance(state["chance"]).die()
        elif kind == "end":
            state["over"] = True
        return []

    def _view(self, state, seat):
        view = {"table": state["table"], "seats": [{"cards": len(h)} for h in state["hands"]]}
        if seat is not None:
            view["seats"][seat] = {"cards": len(state["hands"][seat]), "hand": state["hands"][seat],
                                   "cash": state["cash"][seat]}
        return view

    def windows(self, state):
        return [Window("w", "turn", (0,))]

    def to_act(self, state):
        return [0]

    def outcome(self, state):
        return Outcome([1] * state["n"]) if state["over"] else None

    def secrets(self, state):
        return {str(s): list(h) for s, h in enumerate(state["hands"])} | {"hidden": list(state["pile"])}


def _after(game: Game, state: dict, seat: int | None, action: dict) -> dict:
    after = copy_json(state)
    game.apply(after, seat, action)
    return after


@pytest.mark.parametrize("kind, allowed", [
    ("tap", True),      # public only: nothing revealed
    ("steal", False),   # another seat's hand changed
    ("draw", False),    # the hidden pile changed: the mover saw a card
    ("tax", False),     # another seat's private number changed (not a secrets token)
    ("roll", False),    # chance was drawn
    ("end", False),     # the game is over
])
def test_only_a_move_that_revealed_nothing_may_be_taken_back(kind, allowed):
    game = Cards()
    before = game.setup(3, 1)
    assert undoable(game, before, _after(game, before, 0, {"type": kind}), 0) is allowed


def test_the_system_never_takes_back_a_timeout():
    game = Cards()
    before = game.setup(2, 1)
    game._timeout = lambda state, window_id: []  # type: ignore[method-assign]
    after = _after(game, before, SYSTEM, {"type": "timeout", "id": "w"})
    assert not undoable(game, before, after, None)


def test_the_judgement_reads_nothing_but_its_arguments():
    game = Cards()
    before = game.setup(2, 1)
    after = _after(game, before, 0, {"type": "tap"})
    frozen = (copy_json(before), copy_json(after))
    undoable(game, before, after, 0)
    assert (before, after) == frozen


@pytest.mark.parametrize("title", ["blackfriday", "ewars", "filthyrich", "imtheboss"])
def test_every_title_lets_quiet_moves_be_taken_back_but_never_a_draw_of_chance(title):
    """Random games of each real title: every move that drew from the Chance box is refused,
    and some moves (a plain pass, an offer) may be taken back."""
    game = engine.titles()[title]
    seats = min(game.max_players, game.min_players + 1)
    state = game.setup(seats, 11, {})
    rng = random.Random(3)
    quiet = drew = 0
    for _ in range(300):
        if game.outcome(state) is not None:
            break
        movers = [s for s in range(seats) if game.legal(state, s)]
        if not movers:
            game.apply(state, SYSTEM, {"type": "timeout", "id": game.windows(state)[0].id})
            continue
        seat = rng.choice(movers)
        before = copy_json(state)
        game.apply(state, seat, rng.choice(game.legal(state, seat)))
        verdict = undoable(game, before, state, seat)
        if before[game.chance_key] != state[game.chance_key]:
            drew += 1
            assert not verdict
        quiet += verdict
    assert quiet > 0 and drew > 0, (quiet, drew)

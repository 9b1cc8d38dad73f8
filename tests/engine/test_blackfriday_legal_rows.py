"""Black Friday's legal list builds its buys and sells a row per bag vector (engine/blackfriday/
legal.py: the list was a fifth of the 1,000-game benchmark's CPU). Checked against the rules'
own follow-up choices (`extra_choices`, `take_choices`, which the panel's forms and `apply`
use) over whole games, and the bags dict of a vector is built once and shared, as the actions
themselves are."""

from __future__ import annotations

import random

import pytest

from engine.blackfriday import GAME
from engine.blackfriday import legal as L
from engine.blackfriday.board import holdings, must_settle, stuck_in_debt
from engine.blackfriday.data import COLOURS
from engine.core import SYSTEM


def _name(c):
    return None if c is None else COLOURS[c]


def _bags(vec):
    return {COLOURS[c]: k for c, k in enumerate(vec) if k}


def expected_buys(state, seat):
    """Every buy with every extra bag the rules allow, in the vectors' order."""
    if must_settle(state, seat) or stuck_in_debt(state, seat):
        return []
    return [{"type": "buy", "bags": _bags(v), "extra": _name(e)}
            for v in L.buy_vectors(state, seat) for e in L.extra_choices(state["market"], v)]


def expected_sells(state, seat):
    """Every sell with every lowered colour and table bag the rules allow."""
    if not holdings(state, seat):
        return []
    table = state["sell"][state["sell_cur"]]
    return [{"type": "sell", "bags": _bags(v), "lower": COLOURS[lo], "take": _name(tk)}
            for v in L.sell_vectors(state, seat) for lo in range(5) if v[lo] for tk in L.take_choices(table, v)]


def states(players, seed, steps=400):
    """The states of a random game, each with its active seat."""
    rng = random.Random(seed)
    state = GAME.setup(players, seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            return
        movers = [s for s in range(players) if GAME.legal(state, s)]
        if not movers:
            GAME.apply(state, SYSTEM, {"type": "timeout", "id": GAME.windows(state)[0].id})
            continue
        yield state, movers[0]
        GAME.apply(state, movers[0], rng.choice(GAME.legal(state, movers[0])))


@pytest.mark.parametrize("players", [2, 3, 5])
def test_buys_and_sells_are_the_rules_follow_up_choices(players):
    checked = 0
    for state, seat in states(players, 40 + players):
        got = GAME.legal(state, seat)
        buys, sells = expected_buys(state, seat), expected_sells(state, seat)
        if state["acted"] or state["phase"] == "setup" or len(buys) + len(sells) > L.BUDGET - 120:
            continue  # nothing to buy or sell, or narrowed to fit the budget (the module note)
        assert [a for a in got if a["type"] == "buy"] == buys
        assert [a for a in got if a["type"] == "sell"] == sells
        checked += 1
    assert checked > 10


def test_a_vectors_bags_dict_is_built_once_and_shared():
    seen: dict[tuple, dict] = {}
    shared = 0
    for state, seat in states(3, 5):
        for a in GAME.legal(state, seat):
            if a["type"] not in ("buy", "sell"):
                continue
            key = tuple(sorted(a["bags"].items()))
            first = seen.setdefault(key, a["bags"])
            assert first is a["bags"], "the same bags built again"
            shared += 1
    assert shared > 1000

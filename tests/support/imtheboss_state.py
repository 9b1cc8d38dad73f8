"""I'm the Boss! engine-test helpers (tests/engine/test_imtheboss_*.py and the panel tests): positions
built by hand, moves through `GAME.apply`, and a refusal that must leave the state unchanged. Ann,
Bob, Cal, Dot are seats 0, 1, 2, 3 (clockwise)."""

from __future__ import annotations

import json
import random

import pytest

from engine.core import RuleError
from engine.imtheboss import GAME
from engine.imtheboss.data import CLANS, DECK, card_sort_key, kind

ANN, BOB, CAL, DOT = 0, 1, 2, 3


def make(n: int, placards: dict, hands: dict | None = None, marker: int = 0, top: int = 1, active: int = ANN,
         opts: dict | None = None, seed: int = 1) -> dict:
    """A game at the start of `active`'s turn with the given placards (clan -> seat; others are
    spares), hands (seat -> list of card kinds), marker and top deal card."""
    st = GAME.setup(n, seed, opts or {})
    st["placards"] = [placards.get(c) for c in CLANS]
    pool = list(DECK)
    st["hands"] = []
    for s in range(n):
        h = []
        for k in (hands or {}).get(s, []):
            card = next(c for c in pool if kind(c) == k)
            pool.remove(card)
            h.append(card)
        st["hands"].append(sorted(h, key=card_sort_key))
    st["draw"] = pool
    st["discard"] = []
    st["marker"] = marker
    st["phase"] = "turn_start"
    st["active"] = active
    st["start"] = active
    st["stack"] = [no for no in st["stack"] if no >= top]
    st["timer"] = {"id": "turn:99", "kind": "turn"}
    st["wid"] = 100
    check(st)
    return st


def check(st: dict) -> None:
    cards = list(st["draw"]) + st["discard"] + [c for h in st["hands"] for c in h]
    if st["deal"]:
        cards += [t["card"] for t in st["deal"]["table"]] + list(st["deal"]["away"].values())
    if st["window"] and st["window"]["kind"] == "reaction":
        cards += st["window"]["cards"]
    assert sorted(cards) == sorted(DECK)
    assert sum(st["money"]) == st["bank_paid"]


def act(st, seat, **action):
    ev = GAME.apply(st, seat, action)
    check(st)
    return ev


def refused(st, seat, key, **action):
    before = json.dumps(st, sort_keys=True)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, seat, action)
    assert err.value.key == key, err.value.key
    assert json.dumps(st, sort_keys=True) == before


def types(events):
    return [e["type"] for e in events]


def force_die(st: dict, value: int) -> None:
    """Point the chance box at a draw that rolls `value` next."""
    box = st["chance"]
    n = box["n"]
    while random.Random(f"{box['seed']}/{n}").randint(1, 6) != value:
        n += 1
    box["n"] = n


def all_pass(st, but):
    for s in list(st["window"]["owing"]):
        if s != but:
            act(st, s, type="pass")


def offer_id(st, src):
    return next(o["id"] for o in st["deal"]["offers"] if o["src"] == src)

"""Filthy Rich engine-test helpers (tests/engine/test_filthyrich_*.py): positions built by hand,
scripted dice, and a refusal that must leave the state unchanged. Seats: A=0 (Andrea), B=1 (Murphy),
C=2, D=3.

Dice are scripted by replacing the rules' `Chance` with `Script` (the `script` fixture), so each test
states the roll it describes; everything else runs through `GAME.apply` as in play."""

from __future__ import annotations

import json
import random

import pytest

from engine.core import RuleError
from engine.filthyrich import GAME, binder as bd, plays, resolve, table as tbl
from engine.filthyrich.data import BUSINESSES, kind

A, B, C, D = 0, 1, 2, 3


class Script:
    """Stands in for engine.core.Chance: business dice, page dice and other rolls from queues."""

    def __init__(self, dice=(), page_die=(5,), ints=()):
        self.dice_q = list(dice)
        self.page_q = list(page_die)
        self.ints = list(ints)
        self.rng = random.Random(0)

    def __call__(self, box):  # used as the Chance class: Chance(state["chance"])
        return self

    def dice(self, n, sides):
        assert sides == 10
        out, self.dice_q = self.dice_q[:n], self.dice_q[n:]
        assert len(out) == n, f"script has too few dice for {n}"
        return [d + 1 for d in out]  # the rules turn 1..10 into faces 0..9

    def die(self, sides):
        return self.page_q.pop(0) if self.page_q else 5

    def randint(self, lo, hi):
        return self.ints.pop(0) if self.ints else lo

    def shuffle(self, items):
        self.rng.shuffle(items)


def scripted_dice(monkeypatch):
    """The `script` fixture's body (tests/engine/conftest.py): `script(dice=..., page_die=...,
    ints=...)` installs a `Script` as the rules' `Chance` for the rest of the test."""
    def install(**kw):
        s = Script(**kw)
        for mod in (resolve, plays, tbl):
            monkeypatch.setattr(mod, "Chance", s)
        return s
    return install


def new(n=4, page=1, money=None, active=A):
    st = GAME.setup(n, 11)
    for s in range(n):
        st["deck"] += st["hands"][s]
        st["hands"][s] = []
    st["active"] = st["start"] = active
    st["page"] = page
    st["money"] = list(money) if money else [10] * n
    return st


def take(st, k):
    for pile in (st["deck"], st["discard"]):
        for c in pile:
            if kind(c) == k:
                pile.remove(c)
                return c
    raise AssertionError(f"no free {k}")


def hand(st, seat, *kinds):
    ids = [take(st, k) for k in kinds]
    st["hands"][seat] += ids
    return ids if len(ids) != 1 else ids[0]


def ad(st, seat, k, page, slots):
    cid = take(st, k)
    st["biz"][seat].append(cid)
    sign = BUSINESSES[k]["sign"]
    bd.place(st["binder"], page, slots, sign)
    st["ads"][sign] = {"card": cid, "owner": seat, "page": page, "slots": sorted(slots)}
    return cid


def asset(st, seat, k, row=None, turn=0):
    cid = take(st, k)
    st["assets"][seat].append({"id": cid, "row": row, "turn": turn})
    return cid


def lux(st, seat, *xs):
    for x in xs:
        st["market"].remove(x)
        st["lux"][seat].append(x)


def dump(st):
    return json.dumps(st, sort_keys=True)


def do(st, seat, **action):
    return GAME.apply(st, seat, action)


def play(st, seat, card, **fields):
    return GAME.apply(st, seat, {"type": "play", "card": card, **fields})


def types(events):
    return [e["type"] for e in events]


def ready_to_roll(st):
    st["turn"]["actions"] = 0
    st["turn"]["acted"] = True


def roll(st, script, dice, page_die=5, ints=()):
    script(dice=dice, page_die=[page_die], ints=ints)
    ready_to_roll(st)
    return do(st, st["active"], type="roll")


def refused(st, seat, action, key=None):
    before = dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, seat, action)
    assert dump(st) == before
    if key:
        assert err.value.key == key, err.value.key
    return err.value


def placements_of(st, seat, card):
    return [a["slots"] for a in GAME.legal(st, seat) if a["type"] == "play" and a["card"] == card]

"""E-Wars engine-test helpers for boards built by hand (tests/engine/test_ewars_rules.py, _rounds.py,
_turns.py): cards put where a test needs them, a contract run through `apply`, a dispatch set up
and sent as a player sends it. Seats: RED=0, BLUE=1, YELLOW=2, GREEN=3."""

from __future__ import annotations

import json

from engine.ewars import GAME
from engine.ewars.data import employee_ids
from engine.ewars.grid import index_of, names

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
N44 = names(4, 4)
IDX = index_of(4, 4)


def dump(state):
    return json.dumps(state, sort_keys=True)


def fresh(seats=4, seed=7, **opts):
    return GAME.setup(seats, seed, opts)


def put_card(state, pos, card_prefix):
    """Make the card at `pos` one with faces `card_prefix` ("35"), swapping it with a copy
    from the deck or elsewhere on the grid so that the 63 cards stay conserved."""
    i = index_of(state["rows"], state["cols"])[pos]
    if state["cells"][i] and state["cells"][i].startswith(card_prefix):
        return
    for k, c in enumerate(state["deck"]):
        if c.startswith(card_prefix):
            state["deck"][k], state["cells"][i] = state["cells"][i], c
            return
    for j, c in enumerate(state["cells"]):
        if c and c.startswith(card_prefix) and j != i:
            state["cells"][j], state["cells"][i] = state["cells"][i], c
            return
    raise AssertionError(card_prefix)


def contract(parent, emps, seats=4, seed=3):
    """Claims for every (seat, rank, pos), then each seat dispatches through `apply`: the last
    placement runs the contract. Returns (state, events, removed positions, won per seat)."""
    st = fresh(seats, seed)
    st["parent"] = parent
    st["phase"] = "dispatch"
    for seat, _rank, pos in emps:
        st["claims"][IDX[pos]] = seat
    events = []
    for seat, rank, pos in emps:
        events += GAME.apply(st, seat, {"type": "dispatch", "pos": pos, "rank": rank})
    for seat in dict.fromkeys(seat for seat, _rank, _pos in emps):
        events += GAME.apply(st, seat, {"type": "confirm"})
    last = st["last"]
    removed = sorted(N44[i] for i, c in enumerate(last["cells"]) if c and c["emp"] and c["emp"]["removed"])
    won = {s: sorted(N44[i] for i, c in enumerate(last["cells"]) if c and c["won_by"] == s) for s in range(seats)}
    return st, events, removed, {s: w for s, w in won.items() if w}


def rng(a, b):
    """Positions a..b along a row ("A1", "A4" -> A1 A2 A3 A4)."""
    r = a[0]
    return [f"{r}{c}" for c in range(int(a[1]), int(b[1]) + 1)]

def dispatch_state(seat_claims, parent=RED, seats=4):
    st = fresh(seats, 2)
    st["parent"] = parent
    st["phase"] = "dispatch"
    for seat, pos in seat_claims:
        st["claims"][IDX[pos]] = seat
    return st


def send(st, seat, *placements):
    """`seat` sends (pos, rank) employees and confirms its dispatch, as a player does."""
    events = []
    for pos, rank in placements:
        events += GAME.apply(st, seat, {"type": "dispatch", "pos": pos, "rank": rank})
    if {"type": "confirm"} in GAME.legal(st, seat):
        events += GAME.apply(st, seat, {"type": "confirm"})
    return events


def one_left(seat=BLUE):
    """Blue holds one Staff; the other 8 employees are in its discard pile."""
    ids = employee_ids(seat)
    return [ids[-1]], ids[:-1]


def table_with(positions, deck):
    """A 4x4 table with cards only at `positions`, and this deck."""
    st = fresh(4, 6)
    everything = st["cells"] + st["deck"]
    st["cells"] = [everything[i] if N44[i] in positions else None for i in range(16)]
    st["deck"] = deck
    return st

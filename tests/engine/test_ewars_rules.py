"""E-Wars rules: every worked example of /work/shared/rules/ewars.md section 11 (T1-T4b,
S1-S9, D1-D4), extra sandwich cases, each rank's reach, timeouts, and refusals that must
leave the state unchanged."""

from __future__ import annotations

import json

import pytest

from engine.core import SYSTEM, RuleError
from engine.ewars import GAME
from engine.ewars.contract import acquire, resolve
from engine.ewars.data import (ACTING, DECK_SIZE, EMPLOYEES, IMMUNE, MIX, PAIRS, RANKS, REACH,
                               card_ids, employee_ids, rank_of)
from engine.ewars.grid import between, index_of, layout, names, reach
from engine.ewars.settle import refill_table

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


# -- data -------------------------------------------------------------------------------------

def test_component_data_holds_together():
    assert DECK_SIZE == 63 and len(card_ids()) == 63 and len(PAIRS) == 21
    assert sum(MIX.values()) == EMPLOYEES == 9
    assert MIX == {"star": 1, "executive": 1, "manager": 1, "section_chief": 1, "subsection_chief": 2, "staff": 3}
    assert ACTING == ("star", "executive", "manager", "section_chief", "subsection_chief")
    assert IMMUNE == {"star"}
    assert len(set(employee_ids(0) + employee_ids(1))) == 18
    assert [rank_of(e) for e in employee_ids(2)].count("staff") == 3
    for pair in PAIRS:
        assert sum(1 for c in card_ids() if c.startswith(f"{pair[0]}{pair[1]}")) == 3


def test_reach_of_every_rank_from_b2():
    b2 = IDX["B2"]
    got = {r: sorted(N44[i] for i in reach(REACH[r], b2, 4, 4)) for r in RANKS}
    assert got["star"] == [] and got["staff"] == []
    assert got["executive"] == sorted(["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"])
    assert got["manager"] == ["B1", "B3", "B4"]
    assert got["section_chief"] == ["A2", "C2", "D2"]
    assert got["subsection_chief"] == sorted(["A1", "C3", "D4", "A3", "C1"])
    # An executive in a corner has three neighbours (digest 10.6).
    assert sorted(N44[i] for i in reach("neighbours8", IDX["A1"], 4, 4)) == ["A2", "B1", "B2"]


def test_between_follows_lines_only():
    assert [N44[i] for i in between(IDX["A1"], IDX["A4"], 4)] == ["A2", "A3"]
    assert [N44[i] for i in between(IDX["D4"], IDX["A1"], 4)] == ["C3", "B2"]
    assert [N44[i] for i in between(IDX["A4"], IDX["D1"], 4)] == ["B3", "C2"]
    assert between(IDX["A1"], IDX["B3"], 4) is None  # a knight's move is no line
    assert between(IDX["A1"], IDX["A2"], 4) == ()


def test_layouts():
    assert [layout(n) for n in (16, 15, 13, 12, 10, 9)] == [(4, 4), (4, 4), (4, 4), (3, 4), (3, 4), (3, 3)]


# -- contract examples T1-T4b -----------------------------------------------------------------

def test_T1_executive_removes_manager_before_it_acts():
    st, events, removed, won = contract(RED, [(GREEN, "executive", "B2"), (RED, "manager", "B3")])
    assert removed == ["B3"]
    assert won == {GREEN: ["B2"]}
    ab = [e for e in events if e["type"] == "ability"]
    assert len(ab) == 1 and ab[0]["seat"] == GREEN and ab[0]["rank"] == "executive" and ab[0]["pos"] == "B2"
    assert ab[0]["removed"] == ["B3"] and ab[0]["seats"] == [RED]
    assert sorted(ab[0]["reach"]) == sorted(["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"])
    # The manager never acted: no step of red's.
    assert all(s["seat"] != RED for s in st["last"]["steps"])


def test_T2_row_misses_then_column_hits():
    st, events, removed, won = contract(GREEN, [(GREEN, "manager", "C2"), (BLUE, "section_chief", "B2")])
    assert removed == ["C2"] and won == {BLUE: ["B2"]}
    steps = st["last"]["steps"]
    assert [(s["rank"], s["removed"]) for s in steps] == [("manager", []), ("section_chief", ["C2"])]


def test_T2b_blue_sandwiches_the_removed_card():
    _, _, removed, won = contract(GREEN, [(GREEN, "manager", "C2"), (BLUE, "section_chief", "B2"),
                                         (BLUE, "staff", "D2")])
    assert removed == ["C2"] and won == {BLUE: ["B2", "C2", "D2"]}


def test_T3_star_is_immune():
    _, _, removed, won = contract(BLUE, [(RED, "star", "A1"), (BLUE, "executive", "B1"),
                                         (YELLOW, "manager", "A4"), (GREEN, "section_chief", "D1")])
    assert removed == ["B1"]
    assert won == {RED: ["A1"], YELLOW: ["A4"], GREEN: ["D1"]}


def test_T4_parent_executive_first():
    _, _, removed, won = contract(BLUE, [(RED, "executive", "B2"), (BLUE, "executive", "B3")])
    assert removed == ["B2"] and won == {BLUE: ["B3"]}


def test_T4b_order_from_the_parent_clockwise():
    _, _, removed, won = contract(YELLOW, [(RED, "executive", "B2"), (BLUE, "executive", "B3")])
    assert removed == ["B3"] and won == {RED: ["B2"]}


# -- sandwich examples S1-S9 -----------------------------------------------------------------

def test_S1_row_sandwich():
    _, _, removed, won = contract(RED, [(RED, "staff", "A1"), (RED, "staff", "A4")])
    assert removed == [] and won == {RED: rng("A1", "A4")}


def test_S2_rival_blocks():
    _, _, _, won = contract(RED, [(RED, "staff", "A1"), (RED, "staff", "A4"), (BLUE, "staff", "A3")])
    assert won == {RED: ["A1", "A4"], BLUE: ["A3"]}


def test_S3_row_column_and_diagonal():
    _, _, removed, won = contract(BLUE, [(RED, "staff", "A1"), (RED, "staff", "D4"), (RED, "subsection_chief", "A4")])
    assert removed == []
    assert won == {RED: sorted(["A1", "A2", "A3", "A4", "B2", "B4", "C3", "C4", "D4"])}


def test_S3b_rival_survivor_on_the_diagonal():
    _, _, removed, won = contract(BLUE, [(RED, "staff", "A1"), (RED, "staff", "D4"), (RED, "subsection_chief", "A4"),
                                         (BLUE, "staff", "C3")])
    assert removed == []  # the subsection chief's diagonals from A4 are B3 C2 D1
    assert won == {RED: sorted(["A1", "A2", "A3", "A4", "B4", "C4", "D4"]), BLUE: ["C3"]}


def test_S4_crossing_sandwiches_go_to_the_parent():
    _, _, _, won = contract(BLUE, [(RED, "staff", "B1"), (RED, "staff", "B3"), (BLUE, "staff", "A2"), (BLUE, "staff", "C2")])
    assert won == {BLUE: ["A2", "B2", "C2"], RED: ["B1", "B3"]}


def test_S4b_priority_from_the_parent_clockwise():
    _, _, _, won = contract(YELLOW, [(RED, "staff", "B1"), (RED, "staff", "B3"), (BLUE, "staff", "A2"), (BLUE, "staff", "C2")])
    assert won == {RED: ["B1", "B2", "B3"], BLUE: ["A2", "C2"]}


def test_S5_remover_sandwiches_the_removed_card():
    _, _, removed, won = contract(BLUE, [(RED, "executive", "B1"), (RED, "staff", "B3"), (BLUE, "staff", "B2")])
    assert removed == ["B2"] and won == {RED: ["B1", "B2", "B3"]}


def test_S6_own_employees_between_do_not_block():
    _, _, _, won = contract(RED, [(RED, "staff", "A1"), (RED, "staff", "A2"), (RED, "staff", "A4")])
    assert won == {RED: rng("A1", "A4")}


def test_S7_star_blocks_and_survives():
    _, _, removed, won = contract(RED, [(RED, "manager", "C1"), (RED, "staff", "C4"), (BLUE, "star", "C2")])
    assert removed == [] and won == {RED: ["C1", "C4"], BLUE: ["C2"]}


def test_S8_column_ability_clears_the_row():
    _, _, removed, won = contract(BLUE, [(RED, "section_chief", "A3"), (RED, "staff", "D1"), (RED, "staff", "D4"),
                                         (BLUE, "staff", "D3")])
    assert removed == ["D3"] and won == {RED: ["A3", "D1", "D2", "D3", "D4"]}


def test_S9_diagonal_ability_and_sandwich():
    _, _, removed, won = contract(BLUE, [(RED, "subsection_chief", "A1"), (RED, "staff", "D4"), (BLUE, "staff", "C3")])
    assert removed == ["C3"] and won == {RED: ["A1", "B2", "C3", "D4"]}


# -- extra sandwich cases --------------------------------------------------------------------

def test_extra_anti_diagonal_sandwich():
    _, _, _, won = contract(RED, [(BLUE, "staff", "A4"), (BLUE, "staff", "D1")])
    assert won == {BLUE: ["A4", "B3", "C2", "D1"]}


def test_extra_knight_move_is_not_a_sandwich():
    _, _, _, won = contract(RED, [(RED, "staff", "A1"), (RED, "staff", "B3")])
    assert won == {RED: ["A1", "B3"]}


def test_extra_adjacent_pair_wins_only_itself():
    _, _, _, won = contract(RED, [(RED, "staff", "C2"), (RED, "staff", "C3")])
    assert won == {RED: ["C2", "C3"]}


def test_extra_three_in_a_column_with_rival_outside():
    _, _, _, won = contract(GREEN, [(YELLOW, "staff", "A2"), (YELLOW, "staff", "D2"), (GREEN, "staff", "B3")])
    assert won == {YELLOW: ["A2", "B2", "C2", "D2"], GREEN: ["B3"]}


def test_extra_removed_rival_no_longer_blocks():
    # Blue's manager in row A removes red's staff on A2, so blue's A1-A4 pair sandwiches A2 A3.
    _, _, removed, won = contract(RED, [(BLUE, "manager", "A1"), (BLUE, "staff", "A4"), (RED, "staff", "A2")])
    assert removed == ["A2"] and won == {BLUE: rng("A1", "A4")}


def test_extra_one_card_two_sandwiches_same_player():
    _, _, _, won = contract(RED, [(RED, "staff", "A2"), (RED, "staff", "C2"), (RED, "subsection_chief", "B1")])
    # B2 lies between A2 and C2; B1 has no diagonal rival; A2-B1 and B1-C2 are adjacent.
    assert won == {RED: ["A2", "B1", "B2", "C2"]}


def test_extra_rival_pairs_across_the_board_three_players():
    # Yellow (parent) sandwiches B2 and C3 along the diagonal; blue's column pair A3-D3 gets
    # B3 and C3, but C3 goes to yellow first; red holds D1 and wins only it.
    _, _, _, won = contract(YELLOW, [(YELLOW, "staff", "A1"), (YELLOW, "staff", "D4"), (BLUE, "staff", "A3"),
                                      (BLUE, "staff", "D3"), (RED, "staff", "D1")], seats=3)
    assert won == {YELLOW: ["A1", "B2", "C3", "D4"], BLUE: ["A3", "B3", "D3"], RED: ["D1"]}


def test_extra_gap_is_neither_blocking_nor_won():
    # A 3x4 grid with a gap at C4: a column pair A4 .. C4 cannot exist, but a row pair in
    # row C runs past nothing. Checked on the pure functions with a gap between two cells.
    alive = {0: (RED, "staff"), 3: (RED, "staff")}
    has_card = [True, False, True, True]  # a 1x4 line with a gap at the 2nd position
    won = acquire(alive, has_card, RED, 2, 4)
    assert won == {0: RED, 2: RED, 3: RED}


def test_extra_own_employees_are_never_hit():
    _, _, removed, won = contract(RED, [(RED, "executive", "B2"), (RED, "manager", "B3"), (RED, "staff", "C3")])
    assert removed == [] and won == {RED: ["B2", "B3", "C3"]}


def test_resolve_is_pure_and_matches_contract():
    emps = {IDX["B2"]: (GREEN, "executive"), IDX["B3"]: (RED, "manager")}
    steps, alive = resolve(emps, RED, 4, 4, 4)
    assert list(alive) == [IDX["B2"]] and steps[0].removed == (IDX["B3"],)


# -- after the contract: discards, scores, refill ---------------------------------------------

def test_after_contract_employees_discarded_cards_scored_table_refilled():
    st, events, _, won = contract(RED, [(GREEN, "executive", "B2"), (RED, "manager", "B3")])
    assert [rank_of(e) for e in st["discards"][RED]] == ["manager"]
    assert [rank_of(e) for e in st["discards"][GREEN]] == ["executive"]
    assert len(st["scores"][GREEN]) == 1 and st["phase"] == "await_start" and st["round"] == 2
    assert all(c is not None for c in st["cells"]) and len(st["deck"]) == 47 - 1
    assert st["claims"] == [None] * 16 and st["emps"] == [None] * 16
    types = [e["type"] for e in events]
    assert types[-5:] == ["revealed", "ability", "acquired", "table_refilled", "next_round"]
    assert st["parent"] == RED  # the parent stays until someone rings
    # The view carries the last contract for the table picture.
    view = GAME.view(st, None)
    assert view["last"]["steps"][0]["removed"] == ["B3"]
    assert view["last"]["cells"][IDX["B2"]]["won_by"] == GREEN


def test_unclaimed_card_under_removed_employee_stays():
    st, _, removed, won = contract(RED, [(GREEN, "executive", "B2"), (RED, "manager", "B3")])
    assert st["last"]["cells"][IDX["B3"]]["won_by"] is None


# -- D1: dice time ---------------------------------------------------------------------------

def test_D1_dice_time():
    st = fresh(4, 5)
    st["parent"] = RED
    with pytest.raises(RuleError) as err:
        GAME.apply(st, BLUE, {"type": "ring_bell"})
    assert err.value.key == "only_parent_starts"
    ev = GAME.apply(st, RED, {"type": "ring_bell"})
    assert ev[0]["type"] == "dice_time" and st["phase"] == "dice"
    assert all(len(d) == 6 for d in st["dice"])
    put_card(st, "B2", "35")
    st["dice"][BLUE] = [3, 5, 5, 1, 6, 2]
    st["dice"][YELLOW] = [3, 5, 1, 1, 1, 1]
    GAME.apply(st, BLUE, {"type": "claim", "pos": "B2"})
    assert sorted(st["dice"][BLUE]) == [1, 2, 5, 6] and st["claims"][IDX["B2"]] == BLUE
    before = dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, YELLOW, {"type": "claim", "pos": "B2"})
    assert err.value.key == "taken" and dump(st) == before
    ev = GAME.apply(st, GREEN, {"type": "ring_bell"})
    assert ev[0] == {"type": "bell", "seat": GREEN, "round": 1}
    assert st["parent"] == GREEN and st["phase"] == "dispatch"
    before = dump(st)
    for act in ({"type": "claim", "pos": "A1"}, {"type": "roll"}, {"type": "ring_bell"}):
        with pytest.raises(RuleError) as err:
            GAME.apply(st, RED, act)
        assert err.value.key == "dice_time_over" and dump(st) == before
    start = next(e for e in ev if e["type"] == "dispatch_start")
    assert start["seat"] == GREEN and start["seats"] == [BLUE]
    assert GAME.to_act(st) == [BLUE]


def test_D1_dispatch_order_from_new_parent_skipping_empty_seats():
    st = fresh(4, 5)
    st["parent"] = RED
    GAME.apply(st, RED, {"type": "ring_bell"})
    for seat, pos, pair in ((BLUE, "B2", "35"), (RED, "C1", "12"), (YELLOW, "D4", "66")):
        put_card(st, pos, pair)
        st["dice"][seat] = [int(pair[0]), int(pair[1]), 1, 1, 1, 1] if pair != "66" else [6, 6, 1, 1, 1, 1]
        GAME.apply(st, seat, {"type": "claim", "pos": pos})
    ev = GAME.apply(st, GREEN, {"type": "ring_bell"})
    start = next(e for e in ev if e["type"] == "dispatch_start")
    assert start["seats"] == [RED, BLUE, YELLOW]  # green, red, blue, yellow; green skipped
    assert [w.seats for w in GAME.windows(st)] == [(RED, BLUE, YELLOW)]


def test_roll_rerolls_every_unplaced_die_and_claims_need_exact_pairs():
    st = fresh(2, 9)
    GAME.apply(st, st["parent"], {"type": "ring_bell"})
    seat = 0
    put_card(st, "A1", "44")
    st["dice"][seat] = [4, 1, 2, 3, 5, 6]
    before = dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, seat, {"type": "claim", "pos": "A1"})
    assert err.value.key == "no_match" and dump(st) == before
    assert {"type": "claim", "pos": "A1"} not in GAME.legal(st, seat)
    st["dice"][seat] = [4, 4, 2, 3, 5, 6]
    assert {"type": "claim", "pos": "A1"} in GAME.legal(st, seat)
    GAME.apply(st, seat, {"type": "claim", "pos": "a1"})  # lower case is accepted
    assert sorted(st["dice"][seat]) == [2, 3, 5, 6]
    ev = GAME.apply(st, seat, {"type": "roll"})
    assert ev == [{"type": "rolled", "seat": seat, "dice": st["dice"][seat]}] and len(st["dice"][seat]) == 4
    assert st["rolls"][seat] == 1
    st["dice"][seat] = []
    with pytest.raises(RuleError) as err:
        GAME.apply(st, seat, {"type": "roll"})
    assert err.value.key == "no_dice"
    assert GAME.legal(st, seat) == [{"type": "ring_bell"}]


def test_empty_round_keeps_table_and_counts_idle():
    st = fresh(3, 4)
    parent = st["parent"]
    cells, deck = list(st["cells"]), list(st["deck"])
    GAME.apply(st, parent, {"type": "ring_bell"})
    ev = GAME.apply(st, parent, {"type": "ring_bell"})
    assert [e["type"] for e in ev] == ["bell", "empty_round", "next_round"]
    assert st["phase"] == "await_start" and st["parent"] == parent and st["idle"] == 1 and st["round"] == 2
    assert st["cells"] == cells and st["deck"] == deck
    other = (parent + 1) % 3
    GAME.apply(st, parent, {"type": "ring_bell"})
    GAME.apply(st, other, {"type": "ring_bell"})  # a player with nothing claimed may ring
    assert st["parent"] == other and st["idle"] == 2


# -- D2: hand refill -------------------------------------------------------------------------

def _dispatch_state(seat_claims, parent=RED, seats=4):
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


def _one_left(seat=BLUE):
    """Blue holds one Staff; the other 8 employees are in its discard pile."""
    ids = employee_ids(seat)
    return [ids[-1]], ids[:-1]


def test_D2_the_pile_comes_back_the_moment_the_hand_runs_out():
    """Blue holds 1 card, has 8 discards and 2 claims: the card goes out, the hand is empty,
    so the 8 come back at once and pay for the second claim."""
    st = _dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
    st["hands"][BLUE], st["discards"][BLUE] = _one_left()
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A1", "rank": "staff"})
    mine = GAME.view(st, BLUE)["private"]
    assert len(mine["hand"]) == 8 and mine["discards"] == [] and mine["comes_back"] == 8
    ev = send(st, BLUE, ("A2", "executive"))
    assert {"type": "hand_refilled", "seat": BLUE, "count": 8} in ev
    assert len(st["hands"][BLUE]) == 7 and st["discards"][BLUE] == []
    assert "executive" not in [rank_of(e) for e in st["hands"][BLUE]]


def test_D2_the_last_placement_of_a_round_brings_the_pile_back_at_once():
    """With only 1 claim, placing the last card empties the hand, and the 8 discards return
    then: the card just placed stays on the table, and blue starts the next round with the
    8 in hand, not with an empty hand (issue 14 #8)."""
    st = _dispatch_state([(BLUE, "A1"), (RED, "D4")])
    st["hands"][BLUE], st["discards"][BLUE] = _one_left()
    placed = st["hands"][BLUE][0]
    ev = send(st, BLUE, ("A1", "staff"))
    assert {"type": "hand_refilled", "seat": BLUE, "count": 8} in ev
    assert len(st["hands"][BLUE]) == 8 and placed not in st["hands"][BLUE] and st["discards"][BLUE] == []
    send(st, RED, ("D4", "staff"))  # runs the contract
    assert st["phase"] == "await_start"
    assert len(st["hands"][BLUE]) == 8 and st["discards"][BLUE] == [placed]
    # Next round: blue claims, dice time ends, and nothing needs to come back.
    GAME.apply(st, st["parent"], {"type": "ring_bell"})
    st["dice"][BLUE] = [1, 2, 3, 4, 5, 6]
    claim = next(a for a in GAME.legal(st, BLUE) if a["type"] == "claim")
    GAME.apply(st, BLUE, claim)
    ev = GAME.apply(st, BLUE, {"type": "ring_bell"})
    assert not any(e["type"] == "hand_refilled" for e in ev)
    assert len(st["hands"][BLUE]) == 8


def test_a_game_saved_with_an_empty_hand_still_refills_at_dispatch():
    """A game saved under the earlier reading (hand left empty until the next placement)
    gets its pile back when dispatch starts."""
    st = fresh(4, 2)
    st["hands"][BLUE], st["discards"][BLUE] = [], employee_ids(BLUE)
    GAME.apply(st, st["parent"], {"type": "ring_bell"})
    st["dice"][BLUE] = [1, 2, 3, 4, 5, 6]
    GAME.apply(st, BLUE, next(a for a in GAME.legal(st, BLUE) if a["type"] == "claim"))
    ev = GAME.apply(st, BLUE, {"type": "ring_bell"})
    assert {"type": "hand_refilled", "seat": BLUE, "count": 9} in ev
    assert len(st["hands"][BLUE]) == 9


# -- dispatch: picks stay changeable until the seat confirms ---------------------------------

def test_a_pick_can_be_changed_and_taken_back_until_confirmed():
    st = _dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A1", "rank": "star"})
    assert st["emps"][IDX["A1"]] is None, "a pick is not on the table yet"
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A1", "rank": "manager"})
    mine = GAME.view(st, BLUE)["private"]
    assert mine["picks"] == [{"pos": "A1", "rank": "manager"}] and "manager" not in mine["hand"]
    assert "star" in mine["hand"]
    legal = GAME.legal(st, BLUE)
    assert {"type": "withdraw", "pos": "A1"} in legal and {"type": "confirm"} not in legal
    assert {"type": "dispatch", "pos": "A1", "rank": "manager"} not in legal  # already chosen
    assert {"type": "dispatch", "pos": "A1", "rank": "star"} in legal
    ev = GAME.apply(st, BLUE, {"type": "withdraw", "pos": "A1"})
    assert ev == [{"type": "withdrawn", "seat": BLUE, "cards": ["A1"], "count": 1, "to": [BLUE]}]
    assert GAME.view(st, BLUE)["private"]["picks"] == []
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A1", "rank": "staff"})
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A2", "rank": "executive"})
    assert {"type": "confirm"} in GAME.legal(st, BLUE) and GAME.windows(st)[0].seats == (RED, BLUE)
    ev = GAME.apply(st, BLUE, {"type": "confirm"})
    assert ev == [{"type": "confirmed", "seat": BLUE, "count": 2, "cards": ["A1", "A2"]}]
    assert [rank_of(st["emps"][IDX[p]][1]) for p in ("A1", "A2")] == ["staff", "executive"]
    assert GAME.legal(st, BLUE) == [] and GAME.windows(st)[0].seats == (RED,)
    for act in ({"type": "dispatch", "pos": "A1", "rank": "star"}, {"type": "withdraw", "pos": "A1"},
                {"type": "confirm"}):
        with pytest.raises(RuleError) as err:
            GAME.apply(st, BLUE, act)
        assert err.value.key == "nothing_to_place"


def test_taking_back_the_card_that_emptied_the_hand_takes_back_what_the_pile_paid_for():
    st = _dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
    st["hands"][BLUE], st["discards"][BLUE] = _one_left()
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A1", "rank": "staff"})
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A2", "rank": "executive"})
    # A1 cannot become anything but the staff: the executive came from the returned pile.
    assert {a["rank"] for a in GAME.legal(st, BLUE) if a.get("pos") == "A1" and a["type"] == "dispatch"} == set()
    ev = GAME.apply(st, BLUE, {"type": "withdraw", "pos": "A1"})
    assert ev[0]["cards"] == ["A1", "A2"]
    mine = GAME.view(st, BLUE)["private"]
    assert mine["picks"] == [] and mine["hand"] == ["staff"] and len(mine["discards"]) == 8


def test_picks_are_checked_against_the_hand_and_refusals_change_nothing():
    st = _dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A1", "rank": "star"})
    before = dump(st)
    for act, key in (({"type": "dispatch", "pos": "A2", "rank": "star"}, "not_in_hand"),
                     ({"type": "dispatch", "pos": "A1", "rank": "star"}, "already_picked"),
                     ({"type": "withdraw", "pos": "A2"}, "nothing_picked"),
                     ({"type": "withdraw", "pos": "D4"}, "not_your_claim"),
                     ({"type": "confirm"}, "picks_missing")):
        with pytest.raises(RuleError) as err:
            GAME.apply(st, BLUE, act)
        assert err.value.key == key and dump(st) == before
    assert all(a["type"] != "dispatch" or a["rank"] != "star" for a in GAME.legal(st, BLUE) if a.get("pos") == "A2")


# -- D3: compaction --------------------------------------------------------------------------

def _table_with(positions, deck):
    st = fresh(4, 6)
    everything = st["cells"] + st["deck"]
    st["cells"] = [everything[i] if N44[i] in positions else None for i in range(16)]
    st["deck"] = deck
    return st


def test_D3_compaction_to_three_by_four():
    keep = ["A1", "A2", "A4", "B1", "B3", "C1", "C2", "C3", "C4", "D2", "D4"]
    st = _table_with(keep, [])
    old = {p: st["cells"][IDX[p]] for p in keep}
    ev = refill_table(st)
    assert (st["rows"], st["cols"]) == (3, 4) and ev == [{"type": "compacted", "rows": 3, "cols": 4, "count": 11}]
    n34 = names(3, 4)
    want = {"A1": "A1", "A2": "A2", "A3": "A4", "A4": "B1", "B1": "B3", "B2": "C1", "B3": "C2", "B4": "C3",
            "C1": "C4", "C2": "D2", "C3": "D4"}
    for new, was in want.items():
        assert st["cells"][n34.index(new)] == old[was]
    assert st["cells"][n34.index("C4")] is None  # a gap at the end of the last row
    assert len(st["claims"]) == 12


def test_D3_partial_refill_then_compaction_to_four_by_four():
    keep = ["A1", "A2", "A4", "B1", "B3", "C1", "C2", "C3", "C4", "D2", "D4"]
    st = _table_with(keep, [])
    old_d2, old_d4 = st["cells"][IDX["D2"]], st["cells"][IDX["D4"]]
    spare = [c for c in card_ids() if c not in st["cells"]][:3]
    st["deck"] = list(spare)
    ev = refill_table(st)
    assert [e["type"] for e in ev] == ["table_refilled", "compacted"]
    assert (st["rows"], st["cols"]) == (4, 4) and st["deck"] == []
    # The 3 deck cards went to the first holes A3, B2, B4, before compaction.
    assert st["cells"][IDX["A3"]] == spare[0] and st["cells"][IDX["B2"]] == spare[1]
    assert st["cells"][IDX["B4"]] == spare[2]
    # Then the hole at D1 closes up: old D2 and D4 move to D1 and D2.
    assert st["cells"][IDX["D1"]] == old_d2 and st["cells"][IDX["D2"]] == old_d4
    assert st["cells"][IDX["D3"]] is None and st["cells"][IDX["D4"]] is None
    assert sum(c is not None for c in st["cells"]) == 14


def test_compaction_is_idempotent_when_nothing_was_won():
    st = _table_with(N44[:14], [])
    assert refill_table(st) == []
    assert (st["rows"], st["cols"]) == (4, 4)


def test_nine_cards_make_three_by_three_and_play_goes_on():
    st = _table_with(N44[:9], [])
    refill_table(st)
    assert (st["rows"], st["cols"]) == (3, 3) and None not in st["cells"]
    assert [a["type"] for a in GAME.legal(st, st["parent"])] == ["ring_bell"]
    GAME.apply(st, st["parent"], {"type": "ring_bell"})
    # Positions now run A1..C3.
    st["dice"][0] = [int(st["cells"][4][0]), int(st["cells"][4][1]), 1, 1, 1, 1]
    GAME.apply(st, 0, {"type": "claim", "pos": "B2"})
    with pytest.raises(RuleError) as err:
        GAME.apply(st, 0, {"type": "claim", "pos": "D4"})
    assert err.value.key == "bad_pos"


# -- D4: the end ------------------------------------------------------------------------------

def test_D4_end_with_a_shared_win():
    st = fresh(4, 8)
    cards = st["cells"] + st["deck"]
    table, rest = cards[:10], cards[10:]
    st["rows"], st["cols"] = 3, 4
    st["cells"] = table + [None, None]
    st["claims"] = [None] * 12
    st["emps"] = [None] * 12
    st["deck"] = []
    counts = {RED: 13, BLUE: 15, YELLOW: 12, GREEN: 13}
    k = 0
    for s, c in counts.items():
        st["scores"][s] = rest[k:k + c]
        k += c
    assert k == len(rest) == 53
    st["parent"] = RED
    st["phase"] = "dispatch"
    st["claims"][0] = RED
    st["claims"][5] = RED  # A1 and B2 on 3x4: adjacent diagonally, nothing between
    GAME.apply(st, RED, {"type": "dispatch", "pos": "A1", "rank": "staff"})
    GAME.apply(st, RED, {"type": "dispatch", "pos": "B2", "rank": "staff"})
    ev = GAME.apply(st, RED, {"type": "confirm"})
    assert ev[-1] == {"type": "game_over", "seats": [RED, BLUE], "count": 15, "left": 8}
    out = GAME.outcome(st)
    assert out.places == [1, 1, 4, 3] and out.scores[0] == {"cards": 15}
    assert GAME.view(st, None)["winners"] == [RED, BLUE]
    assert GAME.legal(st, RED) == [] and GAME.windows(st) == [] and GAME.to_act(st) == []
    with pytest.raises(RuleError):
        GAME.apply(st, RED, {"type": "ring_bell"})


# -- timeouts --------------------------------------------------------------------------------

def test_start_timeout_starts_dice_time_parent_unchanged():
    st = fresh(3, 1)
    parent = st["parent"]
    [w] = GAME.windows(st)
    assert w.kind == "start" and w.id == "start:1" and w.seats == (parent,)
    ev = GAME.apply(st, SYSTEM, {"type": "timeout", "id": w.id})
    assert ev[0]["type"] == "dice_time_auto" and st["phase"] == "dice" and st["parent"] == parent


def test_dice_timeout_ends_with_no_ringer():
    st = fresh(3, 1)
    parent = st["parent"]
    GAME.apply(st, parent, {"type": "ring_bell"})
    other = (parent + 1) % 3
    st["dice"][other] = [1, 2, 1, 2, 1, 2]
    put_card(st, "C3", "12")
    GAME.apply(st, other, {"type": "claim", "pos": "C3"})
    [w] = GAME.windows(st)
    assert w.kind == "dice" and w.id == "dice:1" and w.seats == ()
    ev = GAME.apply(st, SYSTEM, {"type": "timeout", "id": "dice:1"})
    assert ev[0] == {"type": "dice_timeout", "seat": parent}
    assert st["parent"] == parent and st["phase"] == "dispatch"


def test_dispatch_timeout_places_lowest_ranks_in_reading_order():
    st = _dispatch_state([(BLUE, "C1"), (BLUE, "A2"), (RED, "D4")])
    ids = employee_ids(BLUE)
    st["hands"][BLUE] = [i for i in ids if rank_of(i) in ("star", "manager", "subsection_chief")]
    st["discards"][BLUE] = [i for i in ids if i not in st["hands"][BLUE]]
    send(st, RED, ("D4", "executive"))
    [w] = GAME.windows(st)
    assert w.kind == "dispatch" and w.seats == (BLUE,)
    ev = GAME.apply(st, SYSTEM, {"type": "timeout", "id": w.id})
    assert {"type": "auto_placed", "seat": BLUE, "cards": ["A2", "C1"], "count": 2} in ev
    ranks = {c["emp"]["rank"] for c in st["last"]["cells"] if c and c["emp"] and c["emp"]["seat"] == BLUE}
    assert ranks == {"subsection_chief"}  # both copies: the lowest rank in hand, twice


def test_dispatch_timeout_keeps_unconfirmed_picks_and_fills_the_rest():
    """A seat that chose but forgot to confirm keeps its choices; a card it left without a
    choice gets the lowest rank it can still send."""
    st = _dispatch_state([(BLUE, "C1"), (BLUE, "A2"), (RED, "D4"), (YELLOW, "B3")])
    send(st, RED, ("D4", "executive"))
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "C1", "rank": "star"})
    GAME.apply(st, YELLOW, {"type": "dispatch", "pos": "B3", "rank": "manager"})
    ev = GAME.apply(st, SYSTEM, {"type": "timeout", "id": "dispatch:1"})
    assert {"type": "auto_placed", "seat": BLUE, "cards": ["A2"], "count": 1} in ev
    assert {"type": "auto_confirmed", "seat": YELLOW, "cards": ["B3"], "count": 1} in ev
    emps = {N44[i]: (c["emp"]["seat"], c["emp"]["rank"]) for i, c in enumerate(st["last"]["cells"]) if c and c["emp"]}
    assert emps["C1"] == (BLUE, "star") and emps["A2"] == (BLUE, "staff") and emps["B3"] == (YELLOW, "manager")


def test_stale_and_misaddressed_timeouts_change_nothing():
    st = fresh(2, 1)
    before = dump(st)
    for seat, act in ((SYSTEM, {"type": "timeout", "id": "dice:1"}), (SYSTEM, {"type": "timeout", "id": "start:0"}),
                      (0, {"type": "timeout", "id": "start:1"}), (SYSTEM, {"type": "timeout"})):
        with pytest.raises(RuleError):
            GAME.apply(st, seat, act)
        assert dump(st) == before


# -- refusals --------------------------------------------------------------------------------

@pytest.mark.parametrize("action,key", [
    ({"type": "claim", "pos": None}, "bad_pos"),
    ({"type": "claim", "pos": 5}, "bad_pos"),
    ({"type": "claim", "pos": "E1"}, "bad_pos"),
    ({"type": "claim", "pos": "A9"}, "bad_pos"),
    ({"type": "dispatch", "pos": "A1", "rank": "staff"}, "not_dispatch"),
    ({"type": "fly"}, "core.error.bad_action"),
])
def test_refusals_in_dice_time_change_nothing(action, key):
    st = fresh(3, 2)
    GAME.apply(st, st["parent"], {"type": "ring_bell"})
    before = dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, 1, action)
    assert err.value.key == key and dump(st) == before


def test_refusals_before_dice_time():
    st = fresh(3, 2)
    before = dump(st)
    other = (st["parent"] + 1) % 3
    for seat, act, key in ((other, {"type": "roll"}, "dice_not_started"),
                           (st["parent"], {"type": "claim", "pos": "A1"}, "dice_not_started"),
                           (other, {"type": "ring_bell"}, "only_parent_starts"),
                           (7, {"type": "ring_bell"}, "core.error.not_allowed")):
        with pytest.raises(RuleError) as err:
            GAME.apply(st, seat, act)
        assert err.value.key == key and dump(st) == before
    assert GAME.legal(st, other) == []


def test_claim_on_a_gap_is_refused():
    st = _table_with(N44[:14], [])
    st["phase"] = "dice"
    st["dice"][0] = [1, 2, 3, 4, 5, 6]
    with pytest.raises(RuleError) as err:
        GAME.apply(st, 0, {"type": "claim", "pos": "D4"})
    assert err.value.key == "no_card"


@pytest.mark.parametrize("seat,action,key", [
    (BLUE, {"type": "dispatch", "pos": "A1", "rank": "boss"}, "bad_rank"),
    (BLUE, {"type": "dispatch", "pos": "A1", "rank": None}, "bad_rank"),
    (BLUE, {"type": "dispatch", "pos": "D4", "rank": "staff"}, "not_your_claim"),
    (BLUE, {"type": "dispatch", "pos": "B1", "rank": "staff"}, "not_your_claim"),
    (BLUE, {"type": "dispatch", "pos": [], "rank": "staff"}, "bad_pos"),
    (YELLOW, {"type": "dispatch", "pos": "A1", "rank": "staff"}, "nothing_to_place"),
    (BLUE, {"type": "roll"}, "dice_time_over"),
])
def test_refusals_in_dispatch_change_nothing(seat, action, key):
    st = _dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
    before = dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, seat, action)
    assert err.value.key == key and dump(st) == before


def test_dispatch_refuses_a_rank_not_in_hand_and_a_covered_card():
    st = _dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
    st["claims"][IDX["B1"]] = BLUE
    send(st, BLUE, ("A1", "star"), ("A2", "staff"), ("B1", "staff"))
    st["claims"][IDX["C4"]] = BLUE  # a fourth claim, as a saved game might hold
    before = dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, BLUE, {"type": "dispatch", "pos": "C4", "rank": "star"})
    assert err.value.key == "not_in_hand" and dump(st) == before
    with pytest.raises(RuleError) as err:
        GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A1", "rank": "staff"})
    assert err.value.key == "covered" and dump(st) == before
    assert all(a["type"] != "dispatch" or (a["pos"] == "C4" and a["rank"] != "star") for a in GAME.legal(st, BLUE))


def test_a_second_bell_is_refused():
    st = fresh(2, 3)
    GAME.apply(st, st["parent"], {"type": "ring_bell"})
    GAME.apply(st, 0, {"type": "ring_bell"})
    with pytest.raises(RuleError):
        GAME.apply(st, 1, {"type": "ring_bell"})


# -- privacy ---------------------------------------------------------------------------------

def test_face_down_ranks_and_hands_stay_private_until_the_reveal():
    st = _dispatch_state([(BLUE, "A1"), (RED, "D4")])
    ev = GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A1", "rank": "star"})
    assert ev == [{"type": "picked", "seat": BLUE, "pos": "A1", "rank": "star", "to": [BLUE]}]
    for viewer in (None, RED, YELLOW):  # a pick shows nowhere but in blue's own view
        v = GAME.view(st, viewer)
        assert v["grid"][IDX["A1"]]["emp"] is None and v["seats"][BLUE]["hand"] == 9
        assert v.get("private", {}).get("picks", []) == [] and "blue-star" not in json.dumps(v)
    ev = GAME.apply(st, BLUE, {"type": "confirm"})
    assert ev == [{"type": "confirmed", "seat": BLUE, "count": 1, "cards": ["A1"]}]
    mine = GAME.view(st, BLUE)
    assert mine["private"]["placed"][0]["rank"] == "star" and "star" not in mine["private"]["hand"]
    for viewer in (None, RED, YELLOW):
        v = GAME.view(st, viewer)
        assert v["grid"][IDX["A1"]]["emp"] == {"seat": BLUE}
        text = json.dumps(v)
        assert "private" not in v or v["private"]["placed"] == [] or viewer == BLUE
        assert "blue-star" not in text
        assert v["seats"][BLUE]["hand"] == 8
    assert "chance" not in json.dumps(GAME.view(st, None))


def test_private_discards_option():
    st = _dispatch_state([(BLUE, "A1"), (RED, "D4")])
    st["opts"]["public_discards"] = False
    st["discards"][BLUE] = [employee_ids(BLUE)[0]]
    st["hands"][BLUE] = employee_ids(BLUE)[1:]
    assert GAME.view(st, RED)["seats"][BLUE]["discards"] is None
    assert GAME.view(st, RED)["seats"][BLUE]["discard_count"] == 1
    assert GAME.view(st, BLUE)["private"]["discards"] == ["star"]
    st["opts"]["public_discards"] = True
    assert GAME.view(st, RED)["seats"][BLUE]["discards"] == ["star"]


def test_dice_time_view_is_cheap_and_complete():
    st = fresh(4, 12)
    GAME.apply(st, st["parent"], {"type": "ring_bell"})
    v = GAME.view(st, 2)
    assert v["phase"] == "dice" and v["to_act"] == [0, 1, 2, 3]
    assert v["private"]["claimable"] == [a["pos"] for a in GAME.legal(st, 2) if a["type"] == "claim"]
    assert all(len(s["dice"]) == 6 for s in v["seats"])


# -- dice time at a slow pace (issue 19) -----------------------------------------------------

def _slow_dice(seats=3, seed=9):
    st = GAME.setup(seats, seed, {"pace": "slow"})
    st["parent"] = RED
    GAME.apply(st, RED, {"type": "ring_bell"})
    return st


def test_the_house_sets_the_pace_and_the_lobby_never_offers_it():
    [pace] = [o for o in GAME.options if o.key == "pace"]
    assert pace.house and pace.default == "live" and pace.choices == ("live", "slow")
    assert fresh()["opts"]["pace"] == "live"
    assert {t.kind for t in GAME.timers} == {"start", "dice_min", "dice", "dispatch"}
    assert all(t.slow >= 3600 for t in GAME.timers), "every window of a slow game lasts hours"


def test_slow_bell_waits_until_everyone_has_rolled():
    st = _slow_dice()
    assert [(w.kind, w.seats) for w in GAME.windows(st)] == [("dice_min", (RED, BLUE, YELLOW))]
    assert GAME.to_act(st) == [RED, BLUE, YELLOW]
    assert {"type": "ring_bell"} not in GAME.legal(st, RED)
    GAME.apply(st, RED, {"type": "roll"})
    before = dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, RED, {"type": "ring_bell"})
    assert err.value.key == "bell_locked" and err.value.params == {"count": 2} and dump(st) == before
    assert GAME.to_act(st) == [BLUE, YELLOW]  # red took part: it no longer owes anything
    st["dice"][BLUE] = [1, 2, 3, 4, 5, 6]
    GAME.apply(st, BLUE, next(a for a in GAME.legal(st, BLUE) if a["type"] == "claim"))  # a claim counts
    assert [(w.kind, w.seats) for w in GAME.windows(st)] == [("dice_min", (YELLOW,))]
    ev = GAME.apply(st, YELLOW, {"type": "roll"})
    assert ev[-1] == {"type": "bell_free", "seat": RED}
    # Everyone has had their turn (issue 24): the minimum is over for the seat-fillers too, and
    # dice time's own deadline now counts.
    assert [(w.kind, w.seats) for w in GAME.windows(st)] == [("dice", ())]
    assert GAME.to_act(st) == [] and {"type": "ring_bell"} in GAME.legal(st, YELLOW)
    GAME.apply(st, YELLOW, {"type": "ring_bell"})
    assert st["phase"] == "dispatch" and st["parent"] == YELLOW


def test_slow_bell_is_free_once_the_minimum_time_is_over():
    st = _slow_dice()
    GAME.apply(st, BLUE, {"type": "roll"})
    ev = GAME.apply(st, SYSTEM, {"type": "timeout", "id": "dice_min:1"})
    assert ev == [{"type": "dice_min_over", "seats": [RED, YELLOW], "count": 2}]
    assert [(w.kind, w.seats) for w in GAME.windows(st)] == [("dice", ())]
    assert GAME.to_act(st) == [] and GAME.view(st, None)["bell_free"]
    GAME.apply(st, RED, {"type": "ring_bell"})  # red never rolled, and may ring all the same
    assert st["phase"] == "await_start" and st["idle"] == 1  # nobody claimed: an empty round


def test_live_dice_time_races_and_has_no_minimum():
    st = fresh(3, 9)
    GAME.apply(st, st["parent"], {"type": "ring_bell"})
    assert all(w.kind != "dice_min" for w in GAME.windows(st)) and GAME.to_act(st) == [0, 1, 2]
    assert {"type": "ring_bell"} in GAME.legal(st, 1) and GAME.view(st, None)["bell_free"]


def test_dice_time_that_nobody_plays_has_no_deadline_to_end_it():
    """A dice-time deadline with nobody around used to end round after round empty (4,000
    moves in one run): dice time's deadline only counts once someone has rolled or claimed,
    so an untouched dice time waits for a person."""
    for st in (fresh(3, 9), GAME.setup(3, 9, {"pace": "slow"})):
        GAME.apply(st, st["parent"], {"type": "ring_bell"})
        assert [w for w in GAME.windows(st) if w.kind == "dice"] == []
        if st["opts"]["pace"] == "slow":
            GAME.apply(st, SYSTEM, {"type": "timeout", "id": "dice_min:1"})
        assert GAME.windows(st) == [] and st["phase"] == "dice"  # nothing can end it by itself
        GAME.apply(st, 1, {"type": "roll"})
        [w] = GAME.windows(st)
        assert (w.id, w.seats) == ("dice:1", ())
        GAME.apply(st, SYSTEM, {"type": "timeout", "id": "dice:1"})
        assert st["phase"] == "await_start"  # a person rolled: this empty round was played


def test_games_saved_before_the_pace_and_picks_keep_working():
    st = fresh(3, 9)
    GAME.apply(st, st["parent"], {"type": "ring_bell"})
    GAME.apply(st, 1, {"type": "roll"})
    for key in ("acted", "min_over", "picks"):
        del st[key]
    del st["opts"]["pace"]
    assert [w.id for w in GAME.windows(st)] == ["dice:1"] and {"type": "ring_bell"} in GAME.legal(st, 2)
    st["dice"][2] = [1, 2, 3, 4, 5, 6]
    GAME.apply(st, 2, next(a for a in GAME.legal(st, 2) if a["type"] == "claim"))
    GAME.apply(st, 2, {"type": "ring_bell"})
    del st["picks"]
    pos = next(N44[i] for i, c in enumerate(st["claims"]) if c == 2)
    send(st, 2, (pos, "staff"))
    assert st["phase"] == "await_start" and st["round"] == 2


def test_seat_filler_takes_its_turn_at_slow_dice_then_rings_once_every_person_has_rolled():
    """Issue 24: a seat-filler rings only after every person has rolled or run out of time,
    and then it may (it no longer waits for a minimum nobody owes)."""
    import random

    st = _slow_dice(2)
    rng = random.Random(1)
    taken = []
    while GAME.legal(st, BLUE):  # (empty once all its dice are down: it may not ring yet)
        action = GAME.ai_action(GAME.view(st, BLUE), GAME.legal(st, BLUE), rng)
        if action is None:
            break
        assert action["type"] in ("roll", "claim")
        GAME.apply(st, BLUE, action)
        taken.append(action["type"])
    assert 1 <= len(taken) <= 12 and BLUE not in GAME.to_act(st)
    GAME.apply(st, RED, {"type": "roll"})  # the last person rolls: the bell is free for everyone
    assert GAME.view(st, BLUE)["bell_free"] and GAME.view(st, BLUE)["min_over"]
    assert {"type": "ring_bell"} in GAME.legal(st, BLUE)
    for _ in range(30):
        action = GAME.ai_action(GAME.view(st, BLUE), GAME.legal(st, BLUE), rng)
        GAME.apply(st, BLUE, action)
        if action["type"] == "ring_bell":
            break
    assert st["phase"] != "dice" and st["parent"] == BLUE


def test_a_person_whose_dice_time_ran_out_misses_it_and_the_bell_stops_waiting():
    """Issue 24: when one person's own time runs out in slow dice time, nobody rolls for them;
    they took part with nothing (a `timeout` naming their seat), so an absent or silent player
    cannot lock the bell, whatever the deadline setting."""
    st = _slow_dice()
    GAME.apply(st, RED, {"type": "roll"})
    before = dump(st)
    with pytest.raises(RuleError):  # a seat that already took part has no time to run out
        GAME.apply(st, SYSTEM, {"type": "timeout", "id": "dice_min:1", "seats": [RED]})
    assert dump(st) == before
    ev = GAME.apply(st, SYSTEM, {"type": "timeout", "id": "dice_min:1", "seats": [BLUE]})
    assert ev == [{"type": "dice_lapsed", "seats": [BLUE], "count": 1}] and st["rolls"][BLUE] == 0
    assert [(w.kind, w.seats) for w in GAME.windows(st)] == [("dice_min", (YELLOW,))]
    ev = GAME.apply(st, SYSTEM, {"type": "timeout", "id": "dice_min:1", "seats": [YELLOW]})
    assert ev[-1] == {"type": "bell_free", "seat": RED} and GAME.view(st, None)["bell_free"]
    assert [(w.kind, w.seats) for w in GAME.windows(st)] == [("dice", ())]
    with pytest.raises(RuleError):  # a person's own time never ends another kind of window
        GAME.apply(st, SYSTEM, {"type": "timeout", "id": "dice:1", "seats": [RED]})

"""E-Wars rules: the component data, every worked example of /work/shared/rules/ewars.md section 11
(T1-T4b, S1-S9), extra sandwich cases, and what follows a contract. The round (D1-D4):
test_ewars_rounds.py; timeouts, refusals, privacy and the slow pace: test_ewars_turns.py."""

from __future__ import annotations

from engine.ewars import GAME
from engine.ewars.contract import acquire, resolve
from engine.ewars.data import (ACTING, DECK_SIZE, EMPLOYEES, IMMUNE, MIX, PAIRS, RANKS, REACH,
                               card_ids, employee_ids, rank_of)
from engine.ewars.grid import between, layout, reach
from tests.support.ewars_board import RED, BLUE, YELLOW, GREEN, N44, IDX, contract, rng


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

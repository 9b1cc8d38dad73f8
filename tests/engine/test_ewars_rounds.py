"""E-Wars rules: the round, from the digest's examples D1-D4: dice time, the hand's refill, picks that
stay changeable until confirmed, the table's compaction, and the end."""

from __future__ import annotations

import pytest

from engine.core import RuleError
from engine.ewars import GAME
from engine.ewars.data import (card_ids, employee_ids, rank_of)
from engine.ewars.grid import names
from engine.ewars.settle import refill_table
from tests.support.ewars_board import (RED, BLUE, YELLOW, GREEN, N44, IDX, dump, fresh, put_card,
                                       dispatch_state, send, one_left, table_with)


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


def test_D2_the_pile_comes_back_the_moment_the_hand_runs_out():
    """Blue holds 1 card, has 8 discards and 2 claims: the card goes out, the hand is empty,
    so the 8 come back at once and pay for the second claim."""
    st = dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
    st["hands"][BLUE], st["discards"][BLUE] = one_left()
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
    st = dispatch_state([(BLUE, "A1"), (RED, "D4")])
    st["hands"][BLUE], st["discards"][BLUE] = one_left()
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
    st = dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
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
    st = dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
    st["hands"][BLUE], st["discards"][BLUE] = one_left()
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A1", "rank": "staff"})
    GAME.apply(st, BLUE, {"type": "dispatch", "pos": "A2", "rank": "executive"})
    # A1 cannot become anything but the staff: the executive came from the returned pile.
    assert {a["rank"] for a in GAME.legal(st, BLUE) if a.get("pos") == "A1" and a["type"] == "dispatch"} == set()
    ev = GAME.apply(st, BLUE, {"type": "withdraw", "pos": "A1"})
    assert ev[0]["cards"] == ["A1", "A2"]
    mine = GAME.view(st, BLUE)["private"]
    assert mine["picks"] == [] and mine["hand"] == ["staff"] and len(mine["discards"]) == 8


def test_picks_are_checked_against_the_hand_and_refusals_change_nothing():
    st = dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
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


def test_D3_compaction_to_three_by_four():
    keep = ["A1", "A2", "A4", "B1", "B3", "C1", "C2", "C3", "C4", "D2", "D4"]
    st = table_with(keep, [])
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
    st = table_with(keep, [])
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
    st = table_with(N44[:14], [])
    assert refill_table(st) == []
    assert (st["rows"], st["cols"]) == (4, 4)


def test_nine_cards_make_three_by_three_and_play_goes_on():
    st = table_with(N44[:9], [])
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

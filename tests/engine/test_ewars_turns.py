"""E-Wars rules: timeouts, refusals that must leave the state unchanged, the views' privacy, and dice
time at a slow pace (issue 19)."""

from __future__ import annotations

import json

import pytest

from engine.core import SYSTEM, RuleError
from engine.ewars import GAME
from engine.ewars.data import (employee_ids, rank_of)
from tests.support.ewars_board import (RED, BLUE, YELLOW, N44, IDX, dump, fresh, put_card, dispatch_state,
                                       send, table_with)


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
    st = dispatch_state([(BLUE, "C1"), (BLUE, "A2"), (RED, "D4")])
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
    st = dispatch_state([(BLUE, "C1"), (BLUE, "A2"), (RED, "D4"), (YELLOW, "B3")])
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
    st = table_with(N44[:14], [])
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
    st = dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
    before = dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, seat, action)
    assert err.value.key == key and dump(st) == before


def test_dispatch_refuses_a_rank_not_in_hand_and_a_covered_card():
    st = dispatch_state([(BLUE, "A1"), (BLUE, "A2"), (RED, "D4")])
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
    st = dispatch_state([(BLUE, "A1"), (RED, "D4")])
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
    st = dispatch_state([(BLUE, "A1"), (RED, "D4")])
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

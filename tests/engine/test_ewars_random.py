"""E-Wars random whole games: the harness's random movers model real-time claims arriving in
any order. Invariants after every step: the 63 cards are conserved (table + deck + score
piles), each seat's 9 employees are conserved (hand + discards + table), dice go down in
pairs, the grid shape is consistent; every game ends; replay reproduces the state; whole
AI games; and a sentinel leak test that is shown not to be vacuous."""

from __future__ import annotations

import json
import random
import time

import pytest

from engine.core import copy_json
from engine.ewars import GAME
from engine.ewars.data import DICE, FILLER_RING_ALONE, card_ids, employee_ids
from engine.ewars import hands
from engine.ewars.grid import layout
from engine.ewars.rules import EWars
from tests.engine import harness
from tests.support.ewars_state import dice_state, only_cards

ALL_CARDS = sorted(card_ids())


@pytest.fixture(autouse=True)
def _probe_on_a_copy(monkeypatch):
    """Work around a harness quirk: its refusal probe may apply a legal action for real (a
    field-less action such as roll or ring_bell is never mutated), after which the step's
    own action can be stale. Probing a copy keeps the check and the random game intact."""
    orig = harness._refusal_changes_nothing

    def probe(game, state, seat, rng):
        orig(game, copy_json(state), seat, rng)

    monkeypatch.setattr(harness, "_refusal_changes_nothing", probe)


def check(state):
    n, rows, cols = state["n"], state["rows"], state["cols"]
    cells = state["cells"]
    assert len(cells) == rows * cols == len(state["claims"]) == len(state["emps"])
    on_table = [c for c in cells if c is not None]
    won = [c for p in state["scores"] for c in p]
    assert sorted(on_table + state["deck"] + won) == ALL_CARDS, "the 63 cards are conserved"
    if state["deck"]:
        assert (rows, cols) == (4, 4)
    else:
        # Once the deck is out the table is compacted every round: squarest shape, gaps
        # only at the end of the last row.
        k = len(on_table)
        assert (rows, cols) == layout(k) and cells[:k] == on_table
    for s in range(n):
        table = [e[1] for e in state["emps"] if e is not None and e[0] == s]
        mine = state["hands"][s] + state["discards"][s] + table
        assert sorted(mine) == sorted(employee_ids(s)), f"seat {s}'s employees are conserved"
        claims = sum(1 for c in state["claims"] if c == s)
        assert claims <= DICE // 2
        if state["phase"] == "dice":
            assert len(state["dice"][s]) + 2 * claims == DICE
        else:
            assert state["dice"][s] == []
        if state["phase"] == "dispatch" and any(c == s and state["emps"][i] is None for i, c in enumerate(state["claims"])):
            assert state["hands"][s], "a seat that owes a placement always has a hand"
    for i, e in enumerate(state["emps"]):
        if e is not None:
            assert state["claims"][i] == e[0] and state["phase"] == "dispatch"
    for s, picks in enumerate(state["picks"]):
        # Tentative picks exist only in dispatch, on the seat's own uncovered claims, and the
        # hand can always pay for them.
        assert not picks or state["phase"] == "dispatch"
        assert all(state["claims"][c] == s and state["emps"][c] is None for c, _r in picks)
        assert hands.after_picks(state, s) is not None
    if state["phase"] in ("await_start", "over"):
        assert all(c is None for c in state["claims"])
    if state["phase"] == "over":
        assert len(on_table) <= 8
    else:
        assert len(on_table) >= 9


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_keep_invariants_and_replay(seats, public, seed):
    opts = {"public_discards": public, "pace": "slow" if seed == 2 else "live"}
    state, log = harness.play_random(GAME, seats, seed * 101 + seats, opts, check=check, leak_every=2)
    assert GAME.outcome(state) is not None
    assert json.dumps(harness.replay(GAME, seats, seed * 101 + seats, opts, log), sort_keys=True) == \
        json.dumps(state, sort_keys=True)
    out = GAME.outcome(state)
    assert min(out.places) == 1 and sum(o["cards"] for o in out.scores) == 63 - sum(c is not None for c in state["cells"])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_ai_games_end(seats):
    state, log = harness.play_random(GAME, seats, 500 + seats, {}, check=check, ai=True, leak_every=3)
    assert GAME.outcome(state) is not None
    # The AI rings the bell itself: a game of AIs does not need deadlines to move on.
    assert sum(1 for seat, a in log if a["type"] == "ring_bell") > 0


@pytest.mark.parametrize("seats", [2, 4])
def test_slow_ai_games_end_and_never_ring_before_the_minimum(seats):
    """In a slow game the seat-fillers take their turn at the dice, then wait: dice time ends
    only after the minimum time's timeout (the harness applies it when everyone waits)."""
    state = GAME.setup(seats, 700 + seats, {"pace": "slow"})
    rng = random.Random(seats)
    bells = early = 0
    while GAME.outcome(state) is None:
        moved = False
        for seat in rng.sample(range(seats), seats):
            legal = GAME.legal(state, seat)
            action = GAME.ai_action(GAME.view(state, seat), legal, rng) if legal else None
            if action is None:
                assert seat not in GAME.to_act(state), "a seat-filler waits only when it owes nothing"
                continue
            if action["type"] == "ring_bell" and state["phase"] == "dice":
                bells += 1
                early += not state["min_over"]
            GAME.apply(state, seat, action)
            check(state)
            moved = True
            break
        if not moved:
            [window] = [w for w in GAME.windows(state) if w.kind == "dice_min"]
            assert window.seats == ()  # everyone took part: only the minimum time is left
            GAME.apply(state, None, {"type": "timeout", "id": window.id})
    assert bells > 0 and early == 0


def test_ai_decisions_are_quick():
    rng = random.Random(4)
    times = []
    for seats in (2, 4):
        state = GAME.setup(seats, 77 + seats)
        for _ in range(600):
            if GAME.outcome(state) is not None:
                break
            movers = [s for s in range(seats) if GAME.legal(state, s)]
            seat = rng.choice(movers)
            legal = GAME.legal(state, seat)
            view = GAME.view(state, seat)
            t0 = time.perf_counter()
            action = GAME.ai_action(view, legal, rng)
            times.append(time.perf_counter() - t0)
            assert action in legal
            GAME.apply(state, seat, action)
    times.sort()
    assert times[int(len(times) * 0.99)] < 0.2


def test_ai_beats_random_play_mostly():
    """A sanity check of the heuristics: AI seat 0 against random seats 1-2 wins more often
    than its fair share."""
    wins = 0
    for g in range(6):
        rng = random.Random(g)
        state = GAME.setup(3, 900 + g)
        while GAME.outcome(state) is None:
            movers = [s for s in range(3) if GAME.legal(state, s)]
            seat = rng.choice(movers)
            legal = GAME.legal(state, seat)
            if seat == 0:
                action = GAME.ai_action(GAME.view(state, seat), legal, rng)
            else:
                action = rng.choice(legal)
            GAME.apply(state, seat, action)
        wins += GAME.outcome(state).places[0] == 1
    assert wins >= 3


# -- leaks -----------------------------------------------------------------------------------

SENTINEL = "red-staff-987654"


def _planted_game(seats=3, seed=31):
    state = GAME.setup(seats, seed)
    hand = state["hands"][0]
    hand[hand.index("red-staff-3")] = SENTINEL
    return state


def test_sentinel_never_reaches_another_seat():
    state = _planted_game()
    rng = random.Random(5)
    seen_by_owner = False
    for _ in range(2000):
        if GAME.outcome(state) is not None:
            break
        for viewer in (None, 1, 2):
            assert "987654" not in json.dumps(GAME.view(state, viewer))
        if "987654" in json.dumps(GAME.view(state, 0)):
            seen_by_owner = True
        movers = [s for s in range(3) if GAME.legal(state, s)]
        seat = rng.choice(movers)
        legal = GAME.legal(state, seat)
        # Seat 0 always sends its lowest rank so the sentinel staff goes face down often.
        if seat == 0 and state["phase"] == "dispatch":
            picked = {p["pos"] for p in GAME.view(state, 0)["private"]["picks"]}
            fresh = [a for a in legal if a["type"] == "dispatch" and a["pos"] not in picked]
            staff = [a for a in fresh if a["rank"] == "staff"]
            action = (staff or fresh or [{"type": "confirm"}])[0]
        elif {"type": "confirm"} in legal and rng.random() < 0.5:
            action = {"type": "confirm"}  # the others change their minds less often
        else:
            action = rng.choice(legal)
        events = GAME.apply(state, seat, action)
        for ev in events:
            if ev.get("to") != [0]:
                assert "987654" not in json.dumps(ev)
        harness.assert_no_leak(GAME, state, events)
    assert seen_by_owner


class _Leaky(EWars):
    """A broken copy that shows every seat the first seat's hand."""

    def _view(self, state, seat):
        view = super()._view(state, seat)
        view["oops"] = list(state["hands"][0])
        return view


class _LeakyFaceDown(EWars):
    """A broken copy that shows which employee lies face down on each card."""

    def _view(self, state, seat):
        view = super()._view(state, seat)
        for i, e in enumerate(state["emps"]):
            if e is not None:
                view["grid"][i]["emp"]["id"] = e[1]
        return view


def test_leak_check_is_not_vacuous():
    state = _planted_game()
    with pytest.raises(AssertionError):
        harness.assert_no_leak(_Leaky(), state)
    harness.assert_no_leak(GAME, state)
    # During dispatch, a face-down employee's identity in a public view is caught too.
    state["phase"] = "dispatch"
    state["claims"][0] = 0
    state["claims"][15] = 1
    GAME.apply(state, 0, {"type": "dispatch", "pos": "A1", "rank": "staff"})
    harness.assert_no_leak(GAME, state)  # a pick: only seat 0 knows of it
    GAME.apply(state, 0, {"type": "confirm"})
    assert any(e is not None for e in state["emps"])
    harness.assert_no_leak(GAME, state)
    with pytest.raises(AssertionError):
        harness.assert_no_leak(_LeakyFaceDown(), state)


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_many_random_games(seats):
    for seed in range(60):
        opts = {"public_discards": bool(seed % 2)}
        harness.play_random(GAME, seats, seed, opts, check=check, leak_every=5)
        harness.play_random(GAME, seats, 10_000 + seed, opts, check=check, ai=True, leak_every=7)


# -- AI choices ------------------------------------------------------------------------------

def _swap_in(st, pos_index, prefix):
    for k, c in enumerate(st["deck"]):
        if c.startswith(prefix):
            st["deck"][k], st["cells"][pos_index] = st["cells"][pos_index], c
            return
    raise AssertionError(prefix)


def test_ai_claims_the_card_that_makes_a_sandwich():
    st = dice_state()
    st["claims"][0] = 0          # we hold A1
    st["dice"][0] = [1, 2, 5, 6]  # four dice left after that claim
    _swap_in(st, 3, "12")        # A4 completes A1..A4
    _swap_in(st, 9, "56")        # C2 (index 9) sandwiches nothing
    legal = GAME.legal(st, 0)
    claims = {a["pos"] for a in legal if a["type"] == "claim"}
    assert {"A4", "C2"} <= claims
    assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(1)) == {"type": "claim", "pos": "A4"}


def test_ai_rings_when_all_dice_are_down():
    st = dice_state()
    st["dice"][0] = []
    st["claims"][0] = st["claims"][1] = st["claims"][2] = 0
    assert GAME.ai_action(GAME.view(st, 0), GAME.legal(st, 0), random.Random(1)) == {"type": "ring_bell"}


def test_ai_with_a_claim_and_nothing_to_claim_rings_ahead_or_behind():
    """Issue 26: with a claim in hand, nothing to claim now and everyone having had a go, it
    rings whether level or one claim behind (it used to roll on one behind: rolling gives the
    rivals their tries too, and their claims win less than its own); with no claim, it rolls."""
    st = dice_state()
    st["claims"][0] = 0                      # one claim each
    st["claims"][5] = 1
    st["dice"][0] = [6, 6, 6, 6]
    st["dice"][1] = []                       # the rival cannot take anything right now
    st["acted"] = [True, True]               # both claimed, so both took part
    legal = [a for a in GAME.legal(st, 0) if a["type"] != "claim"]  # nothing to claim now
    assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(1)) == {"type": "ring_bell"}
    st["claims"][6] = 1                      # the rival is one claim ahead now
    for seed in range(5):
        assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(seed)) == {"type": "ring_bell"}
    st["claims"][0] = None                   # no claim of ours: roll for one
    assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(1))["type"] == "roll"


def test_ai_claims_so_that_its_other_dice_can_still_claim():
    """Issue 26: dice 1 1 2 3. Claiming 1-1 (A1) leaves 2 3 for the 2-3 card (C1), a second
    claim without a roll; claiming 1-2 (D4) leaves 1 3, which claims nothing. A1 lies on the
    row of a rival claim (a little exposure), so the old choice, blind to the dice left over,
    took D4."""
    st = dice_state()
    only_cards(st, {0: "11", 15: "12", 8: "23"})
    st["claims"][1] = 1                      # the rival's A2, on A1's row
    st["dice"][0] = [1, 1, 2, 3]
    st["dice"][1] = [6, 6]                   # the rival's dice fit no free card
    legal = GAME.legal(st, 0)
    assert {a["pos"] for a in legal if a["type"] == "claim"} == {"A1", "D4", "C1"}
    legal = [a for a in legal if a.get("pos") != "C1"]  # the 2-3 is for afterwards
    for seed in range(5):
        assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(seed)) == {"type": "claim", "pos": "A1"}


def test_ai_in_a_live_race_rings_only_once_everyone_had_a_go():
    """Issue 28: ahead at the dice, it still rolls while a seat (a person reading their dice)
    has not rolled or claimed yet; after FILLER_RING_ALONE rolls of its own (a person's wait at
    its pace) it rings anyway, so someone who looked away cannot hold dice time for ever."""
    st = dice_state()
    st["claims"][0] = 0
    st["dice"][0] = [6, 6, 6, 6]
    st["dice"][1] = []
    st["acted"] = [True, False]              # the rival has not had a go yet
    legal = [a for a in GAME.legal(st, 0) if a["type"] != "claim"]
    assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(1))["type"] == "roll"
    st["rolls"][0] = FILLER_RING_ALONE
    assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(1)) == {"type": "ring_bell"}


def test_ai_after_a_slow_minimum_rings_ahead_though_someone_never_rolled():
    """The live race's wait for everyone (and its roll count as a clock) is a live game's: in a
    slow game the minimum time (hours) has waited for the person who never rolled, so once it
    is over the seat-filler ahead rings at once, as before issue 28 (with it, it rolled on until
    FILLER_RING_ALONE rolls of its own)."""
    st = GAME.setup(2, 61, {"pace": "slow"})
    st["parent"] = 0
    GAME.apply(st, 0, {"type": "ring_bell"})
    st["claims"][0] = 0
    st["dice"][0] = [6, 6, 6, 6]
    st["dice"][1] = []
    st["acted"] = [True, False]              # the rival never rolled
    st["rolls"][0] = 1
    st["min_over"] = True                    # its minimum time ran out (dice_min_over)
    view = GAME.view(st, 0)
    assert view["pace"] == "slow" and view["min_over"]
    legal = [a for a in GAME.legal(st, 0) if a["type"] != "claim"]
    assert GAME.ai_action(view, legal, random.Random(1)) == {"type": "ring_bell"}


def test_ai_sends_a_manager_against_a_row_of_rivals():
    st = GAME.setup(2, 62)
    st["parent"] = 0
    st["phase"] = "dispatch"
    st["claims"][4] = 0                      # our B1
    st["claims"][6] = st["claims"][7] = 1    # rival B3 and B4 (a pair)
    legal = GAME.legal(st, 0)
    choice = GAME.ai_action(GAME.view(st, 0), legal, random.Random(2))
    assert choice == {"type": "dispatch", "pos": "B1", "rank": "manager"}


def test_ai_protects_a_threatened_key_card_with_the_star():
    st = GAME.setup(2, 63)
    st["parent"] = 1
    st["phase"] = "dispatch"
    # Our A1 and A4 sandwich A2 A3; the rival sits on B1..B4 below, reaching A1 and A4
    # with executives, section chiefs and subsection chiefs alike.
    st["claims"][0] = st["claims"][3] = 0
    st["claims"][5] = st["claims"][6] = 1
    st["hands"][0] = [e for e in st["hands"][0] if e.split("-")[1] in ("star", "staff")]
    st["discards"][0] = [e for e in employee_ids(0) if e not in st["hands"][0]]
    legal = GAME.legal(st, 0)
    choice = GAME.ai_action(GAME.view(st, 0), legal, random.Random(3))
    assert choice["rank"] == "star"


def test_ai_sends_an_executive_that_strikes_before_the_rank_that_threatens_it():
    """Issue 26: a rival below our A1 can only hold a Section Chief (its discards show the
    rest), whose column reaches A1. An Executive on A1 acts first and removes it, so A1
    survives and sandwiches A2-A3 with A4; a survival guess that ignored rank order called
    any employee on A1 lost and sent the Executive elsewhere."""
    st = GAME.setup(2, 64)
    st["parent"] = 1                         # the rival would act first among equal ranks
    st["phase"] = "dispatch"
    st["claims"][0] = st["claims"][3] = 0    # our A1 and A4
    st["claims"][4] = 1                      # the rival's B1, below A1
    st["hands"][0] = [e for e in employee_ids(0) if e.split("-")[1] in ("executive", "staff")]
    st["discards"][0] = [e for e in employee_ids(0) if e not in st["hands"][0]]
    st["hands"][1] = [e for e in employee_ids(1) if e.split("-")[1] == "section_chief"]
    st["discards"][1] = [e for e in employee_ids(1) if e not in st["hands"][1]]
    legal = GAME.legal(st, 0)
    for seed in range(5):
        choice = GAME.ai_action(GAME.view(st, 0), legal, random.Random(seed))
        assert choice == {"type": "dispatch", "pos": "A1", "rank": "executive"}

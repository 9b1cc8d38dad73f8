"""I'm the Boss!: the asynchronous loop's rules (issue 19), through the engine contract: the
deal window owes every other player an offer or a pass, a turn has one deadline, and the
seat-filler boss gives up once no answer is coming. Ann, Bob, Cal, Dot are seats 0-3."""

from __future__ import annotations

import random

from engine.core import SYSTEM
from engine.imtheboss import GAME
from tests.support.imtheboss_state import act, all_pass, make, refused, types

ANN, BOB, CAL, DOT = 0, 1, 2, 3


def _deal_window(st):
    """Who owes something in the deal: the boss (the deal's deadline) and everyone asked."""
    windows = {w.kind: w for w in GAME.windows(st)}
    assert windows["deal"].seats == (st["deal"]["boss"],)
    return type("Owed", (), {"seats": tuple(s for w in windows.values() if w.kind in ("deal", "offers")
                                            for s in w.seats)})


def test_answering_the_boss_has_a_shorter_deadline_at_which_the_late_pass():
    st = make(4, {"red": ANN, "blue": BOB, "orange": CAL}, marker=10)
    act(st, ANN, type="deal_here")
    offers = next(w for w in GAME.windows(st) if w.kind == "offers")
    assert offers.seats == (BOB, CAL, DOT)
    assert GAME.timer("offers").slow < GAME.timer("deal").slow
    act(st, CAL, type="offer", src="placard:orange", ask={"usd": 1})
    ev = act(st, SYSTEM, type="timeout", id=offers.id)
    assert ev == [{"type": "deal_passed", "seat": BOB, "space": 10}, {"type": "deal_passed", "seat": DOT, "space": 10}]
    assert [w.kind for w in GAME.windows(st)] == ["deal"] and st["phase"] == "deal"


def test_deal_window_owes_every_player_an_offer_or_a_pass():
    st = make(4, {"red": ANN, "blue": BOB, "orange": CAL}, marker=10)
    act(st, ANN, type="deal_here")
    assert set(_deal_window(st).seats) == {ANN, BOB, CAL, DOT}
    assert GAME.to_act(st) == [ANN, BOB, CAL, DOT]
    assert {"type": "pass"} in GAME.legal(st, DOT) and {"type": "pass"} not in GAME.legal(st, ANN)
    ev = act(st, DOT, type="pass")
    assert ev == [{"type": "deal_passed", "seat": DOT, "space": 10}]
    act(st, BOB, type="offer", src="placard:blue", ask={"usd": 2})
    assert set(_deal_window(st).seats) == {ANN, CAL}
    assert GAME.view(st, None)["deal"]["asked"] == [CAL]
    # a decline asks again: the offerer owes a new offer or a pass
    oid = st["deal"]["offers"][0]["id"]
    act(st, ANN, type="decline", offer=oid)
    assert set(_deal_window(st).seats) == {ANN, BOB, CAL}
    refused(st, DOT, "no_window", type="pass")


def test_boss_change_asks_the_old_boss_and_not_the_new_one():
    st = make(4, {"red": ANN, "blue": BOB, "orange": CAL}, marker=10, hands={CAL: ["boss"]})
    act(st, ANN, type="deal_here")
    act(st, CAL, type="boss")
    all_pass(st, CAL)
    assert st["deal"]["boss"] == CAL
    assert set(_deal_window(st).seats) == {ANN, BOB, CAL, DOT}
    act(st, ANN, type="pass")
    assert ANN not in _deal_window(st).seats


def test_two_player_rules_ask_nobody_but_the_boss():
    st = make(2, {"red": ANN, "blue": BOB}, marker=10)
    act(st, ANN, type="deal_here")
    assert _deal_window(st).seats == (ANN,)
    assert {"type": "pass"} not in GAME.legal(st, BOB)


def test_a_turn_has_one_deadline_through_the_roll():
    st = make(3, {"red": ANN}, marker=1)
    before = [w.id for w in GAME.windows(st)]
    act(st, ANN, type="roll")
    assert [w.id for w in GAME.windows(st)] == before
    ev = act(st, SYSTEM, type="timeout", id=before[0])
    assert "drew" in types(ev) and st["active"] == BOB


def test_seat_filler_passes_when_it_has_nothing_to_offer():
    st = make(4, {"red": ANN, "blue": ANN, "orange": ANN}, marker=10)
    act(st, ANN, type="deal_here")
    for seat in (BOB, CAL, DOT):
        a = GAME.ai_action(GAME.view(st, seat), GAME.legal(st, seat), random.Random(1))
        assert a == {"type": "pass"}


def test_seat_filler_boss_gives_up_once_every_answer_is_in():
    # space 10 needs R B O; Ann has R B; orange is Bob's, who passes
    st = make(4, {"red": ANN, "blue": ANN, "orange": BOB}, marker=10)
    act(st, ANN, type="deal_here")
    assert GAME.ai_action(GAME.view(st, ANN), GAME.legal(st, ANN), random.Random(1)) is None  # answers due
    for seat in (BOB, CAL, DOT):
        act(st, seat, type="pass")
    a = GAME.ai_action(GAME.view(st, ANN), GAME.legal(st, ANN), random.Random(1))
    assert a == {"type": "fail"}


def test_seat_filler_boss_closes_when_the_offer_it_needs_comes():
    st = make(4, {"red": ANN, "blue": ANN, "orange": BOB}, marker=10)
    act(st, ANN, type="deal_here")
    for seat in (CAL, DOT):
        act(st, seat, type="pass")
    act(st, BOB, type="offer", src="placard:orange", ask={"div": 1})
    rng = random.Random(1)
    for _ in range(3):
        a = GAME.ai_action(GAME.view(st, ANN), GAME.legal(st, ANN), rng)
        act(st, ANN, **a)
        if a["type"] == "close":
            break
    assert st["window"]["kind"] == "last_call"

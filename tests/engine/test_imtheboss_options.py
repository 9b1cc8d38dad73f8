"""I'm the Boss!: the options (less cutthroat, pay the active player only, ...), set-up, turns and
timeouts, refusals that change nothing, the views' privacy, and the data file's invariants."""

from __future__ import annotations

import copy
import json

import pytest

from engine.core import SYSTEM, RuleError
from engine.imtheboss import GAME
from engine.imtheboss import data as D
from engine.imtheboss.data import CLANS
from tests.support.imtheboss_state import (ANN, BOB, CAL, DOT, make, check, act, refused, types, all_pass,
                                           offer_id)


# -- options ------------------------------------------------------------------------------------------

def test_less_cutthroat_uses_two_player_close():
    st = make(3, {"red": ANN, "blue": BOB, "orange": CAL}, marker=10, top=6, opts={"less_cutthroat": True})
    act(st, ANN, type="deal_here")
    assert GAME.view(st, None)["deal"]["met"]
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["money"] == [4, 4, 4]  # floor(12 / 3 investors) to each foreign source


def test_pay_active_only():
    st = make(4, {"red": ANN, "blue": BOB, "orange": CAL}, marker=10, top=6,
              opts={"pay_active_only": True}, hands={CAL: ["clan-green"], DOT: ["travel-grey"], BOB: ["stop"]})
    act(st, ANN, type="deal_here")
    act(st, BOB, type="offer", src="placard:blue", ask={"usd": 3})
    act(st, CAL, type="offer", src="placard:orange", ask={"usd": 3})
    act(st, ANN, type="accept", offer=offer_id(st, "placard:blue"))
    act(st, ANN, type="accept", offer=offer_id(st, "placard:orange"))
    act(st, DOT, type="travel", color="grey", src="placard:blue")
    act(st, BOB, type="stop")  # Bob played a card (a stop counts); Cal did not
    act(st, ANN, type="close")
    ev = []
    for s in (BOB, CAL, DOT):
        ev += act(st, s, type="pass")
    assert {"type": "unpaid", "seat": ANN, "to_seat": CAL, "usd": 3} in ev
    assert st["money"] == [9, 3, 0, 0]


def test_turn_order_kept_after_failure():
    st = make(4, {"red": ANN, "blue": CAL}, marker=10, hands={CAL: ["boss"]}, opts={"turn_order_kept": True})
    act(st, ANN, type="deal_here")
    act(st, CAL, type="boss")
    all_pass(st, CAL)
    act(st, CAL, type="fail")
    assert st["active"] == BOB


def test_must_deal_at_10():
    st = make(3, {"red": ANN}, marker=1, hands={ANN: ["boss"] * 10}, opts={"must_deal_at_10": True})
    st["must_deal"] = True  # the turn started with 10 cards
    act(st, ANN, type="roll")
    assert GAME.legal(st, ANN) == [{"type": "deal_here"}]
    refused(st, ANN, "must_deal", type="draw")
    act(st, SYSTEM, type="timeout", id=st["timer"]["id"])
    assert st["phase"] == "deal" and st["deal"]["boss"] == ANN  # the default is a deal, not a draw


def test_must_deal_flag_set_at_turn_start():
    st = make(3, {"red": ANN, "orange": ANN}, marker=3, hands={BOB: ["boss"] * 10}, opts={"must_deal_at_10": True})
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    ev = act(st, BOB, type="pass") + act(st, CAL, type="pass")
    assert st["active"] == BOB and st["must_deal"] and "must_deal" in types(ev)


@pytest.mark.parametrize("held,count", [(0, 4), (1, 3), (2, 2), (3, 1)])
def test_draw_by_placards(held, count):
    pl = dict(zip(CLANS[:held], [ANN] * held))
    st = make(3, pl, marker=1, opts={"draw_by_placards": True})
    act(st, ANN, type="roll")
    act(st, ANN, type="draw")
    assert len(st["hands"][ANN]) == count


def test_no_deal_at_3():
    st = make(3, {"red": ANN}, marker=1, hands={ANN: ["boss"] * 3}, opts={"no_deal_at_3": True})
    assert GAME.legal(st, ANN) == [{"type": "roll"}]
    refused(st, ANN, "few_cards", type="deal_here")


def test_hand_limit_10_late():
    st = make(3, {"red": ANN}, marker=1, top=10, hands={ANN: ["boss"] * 9}, opts={"hand_limit_10_late": True})
    assert GAME.view(st, None)["hand_limit"] == 10
    act(st, ANN, type="roll")
    act(st, ANN, type="draw")
    assert st["phase"] == "discard"
    st2 = make(3, {"red": ANN}, marker=1, top=9, hands={ANN: ["boss"] * 9}, opts={"hand_limit_10_late": True})
    act(st2, ANN, type="roll")
    act(st2, ANN, type="draw")
    assert st2["active"] == BOB


def test_two_player_option_is_forced():
    with pytest.raises(RuleError):
        GAME.setup(2, 1, {"two_player": False})
    st = GAME.setup(2, 1, {})
    assert st["shared"] and [s for s in st["placards"]].count(0) == 3


# -- set-up, turns, timeouts ----------------------------------------------------------------------------

@pytest.mark.parametrize("n,each,spares", [(2, 3, 0), (3, 2, 0), (4, 1, 2), (5, 1, 1), (6, 1, 0)])
def test_setup_placards_and_hands(n, each, spares):
    st = GAME.setup(n, 5, {})
    for s in range(n):
        assert st["placards"].count(s) == each and len(st["hands"][s]) == 5
    assert st["placards"].count(None) == spares
    assert len(st["draw"]) == 98 - 5 * n
    assert st["phase"] == "marker" and st["marker_seat"] == (st["start"] - 1) % n
    assert GAME.to_act(st) == [st["marker_seat"]]
    check(st)


def test_marker_placement_and_timeout():
    st = GAME.setup(4, 3, {})
    ms = st["marker_seat"]
    refused(st, st["start"], "not_your_turn", type="marker", space=2) if st["start"] != ms else None
    refused(st, ms, "bad_field", type="marker", space=16)
    act(st, ms, type="marker", space=5)
    assert st["marker"] == 5 and st["active"] == st["start"] and st["phase"] == "turn_start"
    st = GAME.setup(4, 3, {})
    act(st, SYSTEM, type="timeout", id=GAME.windows(st)[0].id)
    assert st["marker"] is not None and st["phase"] == "turn_start"


def test_turn_timeout_rolls_and_draws():
    st = make(3, {"red": ANN}, marker=1)
    ev = act(st, SYSTEM, type="timeout", id="turn:99")
    assert types(ev)[:3] == ["rolled", "drew", "drew_cards"] and st["active"] == BOB


def test_discard_timeout_picks():
    st = make(3, {"red": ANN}, marker=1, hands={ANN: ["boss"] * 6 + ["stop"] * 6})
    act(st, ANN, type="roll")
    act(st, ANN, type="draw")
    act(st, SYSTEM, type="timeout", id=st["timer"]["id"])
    assert len(st["hands"][ANN]) == 12 and st["active"] == BOB


def test_empty_draw_pile_reshuffles_discard():
    st = make(3, {"red": ANN}, marker=1)
    st["discard"] = st["draw"][2:]
    st["draw"] = st["draw"][:2]
    act(st, ANN, type="roll")
    ev = act(st, ANN, type="draw")
    assert "reshuffled" in types(ev) and len(st["hands"][ANN]) == 3


def test_refusals_leave_state_unchanged():
    st = make(4, {"red": ANN, "blue": BOB}, marker=10, hands={BOB: ["travel-red"]})
    refused(st, BOB, "not_your_turn", type="roll")
    refused(st, ANN, "wrong_phase", type="draw")
    refused(st, ANN, "wrong_phase", type="offer", src="placard:red", ask={"usd": 1})
    refused(st, ANN, "core.error.bad_action", type="dance")
    refused(st, SYSTEM, "core.error.stale_timeout", type="timeout", id="turn:1")
    act(st, ANN, type="deal_here")
    refused(st, BOB, "bad_field", type="offer", src=7, ask={"usd": 1})
    refused(st, BOB, "bad_ask", type="offer", src="placard:blue", ask=None)
    refused(st, BOB, "bad_field", type="travel", color=[], src="placard:red")
    refused(st, ANN, "bad_field", type="accept", offer="x")
    refused(st, BOB, "not_boss", type="close")
    refused(st, ANN, "requirements_not_met", type="close")
    refused(st, ANN, "no_such_offer", type="accept", offer=99)
    refused(st, ANN, "no_window", type="pass")  # the boss owes no pass in its own deal
    act(st, BOB, type="pass")  # a seat asked for an offer may pass, once (issue 19)
    refused(st, BOB, "no_window", type="pass")


def test_views_hide_hands_money_and_draw_order():
    st = make(4, {"red": ANN}, marker=10, hands={BOB: ["stop", "boss"]})
    st["money"][BOB] = 987654
    st["bank_paid"] = 987654
    for viewer in (None, ANN, CAL, DOT):
        text = json.dumps(GAME.view(st, viewer))
        assert "987654" not in text
        assert not any(f'"{c}"' in text for c in st["hands"][BOB])
        assert not any(f'"{c}"' in text for c in st["draw"])
    mine = GAME.view(st, BOB)
    assert mine["private"]["money"] == 987654 and mine["seats"][BOB]["money_est"] == [987650, 987659]
    assert GAME.view(st, ANN)["seats"][BOB]["money_est"] == [987650, 987659]


def test_money_brackets():
    from engine.imtheboss.rules import money_bracket
    assert money_bracket(0) == [0, 0]
    assert money_bracket(3) == [1, 9]
    assert money_bracket(10) == [10, 19]
    assert money_bracket(27) == [20, 29]


def test_resign_makes_spares_and_fails_own_deal():
    st = make(4, {"red": ANN, "blue": BOB}, marker=10, hands={ANN: ["boss", "stop"]})
    act(st, ANN, type="deal_here")
    ev = act(st, ANN, type="resign")
    assert "deal_failed" in types(ev) and st["resigned"][ANN]
    assert st["placards"][D.CIDX["red"]] is None and st["hands"][ANN] == []
    assert st["active"] == BOB
    assert GAME.legal(st, ANN) == []
    act(st, BOB, type="resign")
    act(st, CAL, type="resign")
    assert st["over"] and GAME.outcome(st).places == [None, None, None, 1]


# -- data ---------------------------------------------------------------------------------------------

def test_data_invariants_hold_and_are_checked():
    D.check()
    assert len(D.DECK) == 98 and D.INVESTORS[0] == 5 and D.SPACES[0]["div"] == 6
    bad = copy.deepcopy(D.RAW)
    bad["board"]["spaces"][3]["pools"] = [{"clans": ["red", "blue"], "k": 1}]
    with pytest.raises(AssertionError, match="overlaps"):
        D.check(bad)
    bad = copy.deepcopy(D.RAW)
    bad["deck"]["recruit"] = 34
    with pytest.raises(AssertionError, match="98"):
        D.check(bad)
    bad = copy.deepcopy(D.RAW)
    bad["board"]["spaces"][5]["div"] = 4
    with pytest.raises(AssertionError, match="dividends"):
        D.check(bad)
    bad = copy.deepcopy(D.RAW)
    bad["board"]["spaces"][5]["mark"] = "guess"
    with pytest.raises(AssertionError):
        D.check(bad)

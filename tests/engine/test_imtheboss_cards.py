"""I'm the Boss!: each card and effect (travel, Stop, boss change, offers, clan cards, recruits, last
call, deadlines) through `GAME.apply` (helpers: tests/support/imtheboss_state.py)."""

from __future__ import annotations

from engine.core import SYSTEM
from engine.imtheboss import GAME
from engine.imtheboss import data as D
from engine.imtheboss.data import kind
from tests.support.imtheboss_state import ANN, BOB, CAL, DOT, make, act, refused, types, all_pass, offer_id


# -- cards and effects ------------------------------------------------------------------------------

def test_travel_colour_and_grey():
    st = make(4, {"red": ANN, "blue": BOB, "orange": CAL}, marker=10, hands={DOT: ["travel-red", "travel-grey"]})
    act(st, ANN, type="deal_here")
    refused(st, DOT, "travel_colour", type="travel", color="red", src="placard:blue")
    refused(st, DOT, "no_card", type="travel", color="blue", src="placard:blue")
    act(st, DOT, type="travel", color="grey", src="placard:blue")
    all_pass(st, DOT)
    assert st["deal"]["away"] and "blue" in st["deal"]["away"]
    refused(st, DOT, "not_a_source", type="travel", color="red", src="placard:blue")


def test_travel_on_own_source_refused_in_base_game_allowed_in_two_player():
    st = make(4, {"red": ANN, "blue": BOB}, marker=10, hands={BOB: ["travel-blue"]})
    act(st, ANN, type="deal_here")
    refused(st, BOB, "travel_own", type="travel", color="blue", src="placard:blue")
    st2 = make(2, {"red": ANN, "blue": BOB, "orange": BOB}, marker=10, hands={BOB: ["travel-blue"]})
    act(st2, ANN, type="deal_here")
    act(st2, BOB, type="travel", color="blue", src="placard:blue")
    act(st2, ANN, type="pass")
    assert "blue" in st2["deal"]["away"]


def test_window_everyone_answers_and_stop_needs_a_card():
    st = make(4, {"red": ANN, "blue": BOB, "orange": CAL}, marker=10, hands={DOT: ["travel-red"], BOB: ["stop"]})
    act(st, ANN, type="deal_here")
    act(st, DOT, type="travel", color="red", src="placard:red")
    for s in (ANN, CAL):  # no stop in hand: pass is the only answer, and it is offered
        assert GAME.legal(st, s) == [{"type": "pass"}]
    assert GAME.legal(st, BOB) == [{"type": "pass"}, {"type": "stop"}]
    assert GAME.legal(st, DOT) == []
    assert GAME.to_act(st) == [ANN, BOB, CAL]
    refused(st, ANN, "no_card", type="stop")
    refused(st, DOT, "not_owing", type="pass")
    refused(st, BOB, "window_open", type="offer", src="placard:blue", ask={"usd": 1})
    act(st, ANN, type="pass")
    refused(st, ANN, "not_owing", type="pass")
    act(st, BOB, type="stop")
    refused(st, CAL, "no_window", type="stop")  # a stop cannot be stopped: the window is gone
    assert "red" not in st["deal"]["away"]


def test_boss_stop_against_boss_card():
    st = make(4, {"red": ANN, "blue": BOB, "orange": CAL}, marker=10, hands={DOT: ["boss"], ANN: ["stop"]})
    act(st, ANN, type="deal_here")
    dl = st["deal"]["dl"]
    act(st, DOT, type="boss")
    act(st, ANN, type="stop")
    assert st["deal"]["boss"] == ANN and st["deal"]["dl"] == dl
    assert DOT in st["deal"]["played"]


def test_boss_change_inherits_offers_and_voids_new_boss_offers():
    st = make(4, {"red": BOB, "blue": CAL, "orange": DOT}, marker=10, hands={CAL: ["boss"]})
    act(st, ANN, type="deal_here")
    act(st, BOB, type="offer", src="placard:red", ask={"usd": 2})
    act(st, CAL, type="offer", src="placard:blue", ask={"usd": 2})
    act(st, ANN, type="accept", offer=offer_id(st, "placard:red"))
    act(st, ANN, type="accept", offer=offer_id(st, "placard:blue"))
    dl = st["deal"]["dl"]
    act(st, CAL, type="boss")
    all_pass(st, CAL)
    deal = st["deal"]
    assert deal["boss"] == CAL and deal["dl"] != dl
    assert [(o["src"], o["state"]) for o in deal["offers"]] == [("placard:red", "inherited")]
    # the owner may withdraw an inherited offer; the new boss may decline one
    act(st, BOB, type="withdraw", offer=offer_id(st, "placard:red"))
    act(st, BOB, type="offer", src="placard:red", ask={"usd": 5})
    act(st, CAL, type="accept", offer=offer_id(st, "placard:red"))
    refused(st, BOB, "offer_locked", type="withdraw", offer=offer_id(st, "placard:red"))
    refused(st, BOB, "offer_locked", type="offer", src="placard:red", ask={"usd": 1})


def test_offers_replace_and_withdraw():
    st = make(4, {"red": BOB, "blue": ANN, "orange": ANN}, marker=10)
    act(st, ANN, type="deal_here")
    act(st, BOB, type="offer", src="placard:red", ask={"usd": 5})
    act(st, BOB, type="offer", src="placard:red", ask={"div": 1})
    offers = st["deal"]["offers"]
    assert len(offers) == 1 and offers[0]["ask"] == {"div": 1}
    refused(st, CAL, "not_your_source", type="offer", src="placard:red", ask={"usd": 1})
    refused(st, ANN, "boss_cannot_offer", type="offer", src="placard:blue", ask={"usd": 1})
    refused(st, BOB, "ask_too_high", type="offer", src="placard:red", ask={"usd": 9})
    refused(st, BOB, "ask_too_high", type="offer", src="placard:red", ask={"div": 5})
    refused(st, BOB, "bad_ask", type="offer", src="placard:red", ask={"usd": 1, "div": 1})
    refused(st, BOB, "bad_ask", type="offer", src="placard:red", ask={"eur": 1})
    refused(st, CAL, "not_your_offer", type="withdraw", offer=offers[0]["id"])
    act(st, BOB, type="withdraw", offer=offers[0]["id"])
    assert st["deal"]["offers"] == []


def test_decline_keeps_clan_card_on_table():
    st = make(4, {"red": ANN, "blue": ANN}, marker=10, hands={BOB: ["clan-orange"]})
    act(st, ANN, type="deal_here")
    act(st, BOB, type="play_clan", clan="orange")
    act(st, BOB, type="offer", src="card:orange:1", ask={"usd": 6})
    act(st, ANN, type="decline", offer=offer_id(st, "card:orange:1"))
    assert st["deal"]["table"] and st["deal"]["declined"][0]["usd"] == 6


def test_clan_card_rules():
    st = make(4, {"red": ANN, "blue": ANN}, marker=10,
              hands={ANN: ["clan-red", "clan-orange"], BOB: ["clan-orange", "clan-orange", "clan-green"]})
    act(st, ANN, type="deal_here")
    refused(st, ANN, "clan_covered", type="play_clan", clan="red")
    refused(st, BOB, "clan_not_on_space", type="play_clan", clan="green")
    act(st, BOB, type="play_clan", clan="orange")
    refused(st, BOB, "clan_already_played", type="play_clan", clan="orange")
    refused(st, CAL, "no_card", type="play_clan", clan="orange")
    act(st, ANN, type="play_clan", clan="orange")  # the boss's own card counts at once, free
    assert GAME.view(st, None)["deal"]["met"]
    act(st, ANN, type="close")
    all_pass(st, ANN)
    # Ann's card was used and discarded; Bob's unused card came back
    assert [kind(c) for c in st["hands"][BOB]].count("clan-orange") == 2
    assert "clan-orange" in [kind(c) for c in st["discard"]]


def test_boss_clan_card_doubled_by_placard_returns():
    st = make(4, {"red": ANN, "blue": ANN, "orange": BOB}, marker=10,
              hands={ANN: ["clan-orange", "recruit", "recruit", "recruit"]})
    st["placards"][D.CIDX["orange"]] = None  # a spare: Ann lays her clan card, then recruits it
    act(st, ANN, type="deal_here")
    act(st, ANN, type="play_clan", clan="orange")
    act(st, ANN, type="recruit", clan="orange")
    all_pass(st, ANN)
    act(st, ANN, type="close")
    all_pass(st, ANN)
    # orange is covered by Ann's placard too, so her clan card counts as unused and comes back
    assert [kind(c) for c in st["hands"][ANN]] == ["clan-orange"]
    assert st["money"][ANN] == 8


def test_recruit_in_deal_gives_boss_coverage():
    st = make(3, {"red": ANN, "blue": ANN, "orange": BOB, "yellow": CAL, "magenta": CAL, "green": BOB},
              marker=10, hands={ANN: ["recruit"] * 3})
    act(st, ANN, type="deal_here")
    act(st, BOB, type="offer", src="placard:orange", ask={"usd": 4})
    refused(st, ANN, "recruit_own", type="recruit", clan="red")
    act(st, ANN, type="recruit", clan="orange")
    all_pass(st, ANN)
    assert st["deal"]["offers"] == [] and GAME.view(st, None)["deal"]["met"]
    assert GAME.view(st, None)["seats"][BOB]["placards"] == ["green"]


def test_publicly_impossible_deal_fails_at_once():
    st = make(4, {"red": ANN, "blue": ANN}, marker=10)  # orange placard is a spare
    # every orange clan card and all but two recruit cards are in the discard pile: no recruit
    # triple can bring the spare (issue 14 #1; the spare alone no longer makes it impossible)
    gone = [c for c in st["draw"] if kind(c) == "clan-orange"] + [c for c in st["draw"] if kind(c) == "recruit"][2:]
    for c in gone:
        st["draw"].remove(c)
        st["discard"].append(c)
    ev = act(st, ANN, type="deal_here")
    assert {"type": "deal_failed", "seat": ANN, "space": 10, "reason": "impossible"} in ev
    assert st["active"] == BOB


def test_impossible_after_travel():
    st = make(4, {"red": ANN, "blue": ANN, "orange": BOB}, marker=10, hands={CAL: ["travel-orange"]})
    for c in [c for c in st["draw"] if kind(c) == "clan-orange"]:
        st["draw"].remove(c)
        st["discard"].append(c)
    act(st, ANN, type="deal_here")
    act(st, CAL, type="travel", color="orange", src="placard:orange")
    ev = []
    for s in (ANN, BOB, DOT):
        ev += act(st, s, type="pass")
    assert "deal_failed" in types(ev) and st["phase"] == "turn_start"


def test_last_call_blocks_negotiation_and_boss_may_cancel():
    st = make(4, {"red": ANN, "blue": ANN, "orange": ANN, "yellow": BOB}, marker=10)
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    assert GAME.windows(st)[0].kind == "last_call"
    assert GAME.legal(st, ANN) == [{"type": "cancel_close"}]
    refused(st, ANN, "last_call_open", type="fail")
    refused(st, ANN, "boss_in_last_call", type="play_clan", clan="red")
    act(st, ANN, type="cancel_close")
    assert st["window"] is None
    act(st, ANN, type="fail")


def test_deal_deadline_closes_when_met_fails_otherwise():
    st = make(4, {"red": ANN, "blue": ANN, "orange": ANN}, marker=10)
    act(st, ANN, type="deal_here")
    dl = st["deal"]["dl"]
    ev = act(st, SYSTEM, type="timeout", id=dl)
    assert "deadline_close" in types(ev) and st["window"]["kind"] == "last_call"
    assert [w.kind for w in GAME.windows(st)] == ["last_call"]
    refused(st, SYSTEM, "core.error.stale_timeout", type="timeout", id=dl)
    act(st, SYSTEM, type="timeout", id=st["window"]["id"])
    assert st["money"][ANN] == 8
    st = make(4, {"red": ANN, "blue": BOB}, marker=10)
    act(st, ANN, type="deal_here")
    ev = act(st, SYSTEM, type="timeout", id=st["deal"]["dl"])
    assert {"type": "deal_failed", "seat": ANN, "space": 10, "reason": "deadline"} in ev


def test_deal_deadline_waits_for_reaction_window():
    st = make(4, {"red": ANN, "blue": ANN, "orange": BOB}, marker=10, hands={CAL: ["travel-orange"]})
    act(st, ANN, type="deal_here")
    act(st, CAL, type="travel", color="orange", src="placard:orange")
    kinds = sorted(w.kind for w in GAME.windows(st))
    assert kinds == ["deal", "offers", "reaction"]  # the others still owe the boss an answer
    act(st, SYSTEM, type="timeout", id=st["deal"]["dl"])
    assert st["phase"] == "deal" and [w.kind for w in GAME.windows(st)] == ["reaction"]
    ev = act(st, SYSTEM, type="timeout", id=st["window"]["id"])
    assert "travelled" in types(ev) and "deal_failed" in types(ev)


def test_deadline_during_last_call_is_ignored():
    st = make(4, {"red": ANN, "blue": ANN, "orange": ANN}, marker=10)
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    act(st, SYSTEM, type="timeout", id=st["deal"]["dl"])
    assert st["window"]["kind"] == "last_call"
    all_pass(st, ANN)
    assert st["money"][ANN] == 8


def test_failed_boss_turn_passes_left_of_boss():
    st = make(4, {"red": ANN}, marker=10, active=CAL)
    act(st, CAL, type="deal_here")
    act(st, CAL, type="fail")
    assert st["active"] == DOT and st["phase"] == "turn_start"

"""I'm the Boss!: every worked example of the digest (section 10) and each card, option and
refusal. Ann, Bob, Cal, Dot are seats 0, 1, 2, 3 (clockwise)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine.core import SYSTEM, RuleError
from engine.imtheboss import GAME
from engine.imtheboss import data as D
from engine.imtheboss.data import CLANS, DECK, card_sort_key, kind

ANN, BOB, CAL, DOT = 0, 1, 2, 3


# -- building positions -------------------------------------------------------------------------

def make(n: int, placards: dict, hands: dict | None = None, marker: int = 0, top: int = 1, active: int = ANN,
         opts: dict | None = None, seed: int = 1) -> dict:
    """A game at the start of `active`'s turn with the given placards (clan -> seat; others are
    spares), hands (seat -> list of card kinds), marker and top deal card."""
    st = GAME.setup(n, seed, opts or {})
    st["placards"] = [placards.get(c) for c in CLANS]
    pool = list(DECK)
    st["hands"] = []
    for s in range(n):
        h = []
        for k in (hands or {}).get(s, []):
            card = next(c for c in pool if kind(c) == k)
            pool.remove(card)
            h.append(card)
        st["hands"].append(sorted(h, key=card_sort_key))
    st["draw"] = pool
    st["discard"] = []
    st["marker"] = marker
    st["phase"] = "turn_start"
    st["active"] = active
    st["start"] = active
    st["stack"] = [no for no in st["stack"] if no >= top]
    st["timer"] = {"id": "turn:99", "kind": "turn"}
    st["wid"] = 100
    check(st)
    return st


def check(st: dict) -> None:
    cards = list(st["draw"]) + st["discard"] + [c for h in st["hands"] for c in h]
    if st["deal"]:
        cards += [t["card"] for t in st["deal"]["table"]] + list(st["deal"]["away"].values())
    if st["window"] and st["window"]["kind"] == "reaction":
        cards += st["window"]["cards"]
    assert sorted(cards) == sorted(DECK)
    assert sum(st["money"]) == st["bank_paid"]


def act(st, seat, **action):
    ev = GAME.apply(st, seat, action)
    check(st)
    return ev


def refused(st, seat, key, **action):
    before = json.dumps(st, sort_keys=True)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, seat, action)
    assert err.value.key == key, err.value.key
    assert json.dumps(st, sort_keys=True) == before


def types(events):
    return [e["type"] for e in events]


def force_die(st: dict, value: int) -> None:
    """Point the chance box at a draw that rolls `value` next."""
    box = st["chance"]
    n = box["n"]
    while random.Random(f"{box['seed']}/{n}").randint(1, 6) != value:
        n += 1
    box["n"] = n


def all_pass(st, but):
    for s in list(st["window"]["owing"]):
        if s != but:
            act(st, s, type="pass")


def offer_id(st, src):
    return next(o["id"] for o in st["deal"]["offers"] if o["src"] == src)


# -- section 10: the worked examples -----------------------------------------------------------------

def test_s1_bank_pays_12_on_space_10_with_card_6():
    st = make(4, {"red": ANN, "blue": ANN, "orange": ANN}, marker=10, top=6)
    st["placards"] = [ANN if c in ("red", "blue", "orange") else None for c in CLANS]
    act(st, ANN, type="deal_here")
    assert st["deal"]["P"] == 12
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["money"][ANN] == 12 and st["bank_paid"] == 12


def test_s2_three_players_own_deal_closes():
    st = make(3, {"red": ANN, "orange": ANN, "blue": BOB, "yellow": BOB, "magenta": CAL, "green": CAL},
              marker=3, top=1)
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    act(st, BOB, type="pass")
    ev = act(st, CAL, type="pass")
    assert st["money"] == [6, 0, 0]
    assert st["covered"][3] == 1
    assert st["marker"] == 4
    assert st["phase"] == "turn_start" and st["active"] == BOB
    assert "deal_closed" in types(ev) and "card_placed" in types(ev)


def test_s3_dividend_offer_accepted():
    st = make(3, {"red": ANN, "blue": ANN, "orange": BOB, "yellow": BOB}, marker=10, top=6)
    act(st, ANN, type="deal_here")
    act(st, BOB, type="offer", src="placard:orange", ask={"div": 1})
    act(st, ANN, type="accept", offer=offer_id(st, "placard:orange"))
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["money"][ANN] == 9 and st["money"][BOB] == 3


def test_s4_accept_over_proceeds_refused():
    # space 0: R B Y + 2 of M O G, top #6: P = 6 x 3 = 18; give it P 12 with space 10 instead
    st = make(5, {"red": BOB, "blue": CAL, "orange": DOT}, marker=10, top=6)
    act(st, ANN, type="deal_here")
    assert st["deal"]["P"] == 12
    act(st, BOB, type="offer", src="placard:red", ask={"usd": 8})
    act(st, ANN, type="accept", offer=offer_id(st, "placard:red"))
    act(st, CAL, type="offer", src="placard:blue", ask={"usd": 5})
    refused(st, ANN, "over_proceeds", type="accept", offer=offer_id(st, "placard:blue"))
    act(st, CAL, type="offer", src="placard:blue", ask={"usd": 4})
    act(st, ANN, type="accept", offer=offer_id(st, "placard:blue"))
    assert GAME.view(st, None)["deal"]["room"] == 0


def test_s5_travel_then_stop_by_boss():
    st = make(4, {"red": ANN, "blue": ANN, "orange": BOB}, marker=10, top=6,
              hands={ANN: ["stop"], CAL: ["travel-orange"]})
    act(st, ANN, type="deal_here")
    act(st, BOB, type="offer", src="placard:orange", ask={"usd": 3})
    act(st, ANN, type="accept", offer=offer_id(st, "placard:orange"))
    act(st, CAL, type="travel", color="orange", src="placard:orange")
    assert st["window"]["kind"] == "reaction" and sorted(st["window"]["owing"]) == [ANN, BOB, DOT]
    act(st, BOB, type="pass")
    ev = act(st, ANN, type="stop")
    assert "stopped" in types(ev) and st["window"] is None
    assert sorted(kind(c) for c in st["discard"]) == ["stop", "travel-orange"]
    assert st["deal"]["away"] == {}
    assert st["deal"]["offers"][0]["state"] == "accepted"
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["money"][ANN] == 9 and st["money"][BOB] == 3


def test_s6_travel_on_accepted_clan_card():
    st = make(4, {"red": ANN, "blue": ANN}, marker=15, top=1,
              hands={DOT: ["clan-yellow"], CAL: ["travel-yellow"]})
    # space 15: Y + 1 of {M G} + 1 of {R B}
    act(st, ANN, type="deal_here")
    act(st, DOT, type="play_clan", clan="yellow")
    act(st, DOT, type="offer", src="card:yellow:3", ask={"usd": 1})
    act(st, ANN, type="accept", offer=offer_id(st, "card:yellow:3"))
    assert "yellow" in GAME.view(st, None)["deal"]["covered"]
    act(st, CAL, type="travel", color="yellow", src="card:yellow:3")
    all_pass(st, CAL)
    assert sorted(kind(c) for c in st["discard"]) == ["clan-yellow", "travel-yellow"]
    assert st["deal"]["offers"] == [] and st["deal"]["table"] == []
    assert "yellow" not in GAME.view(st, None)["deal"]["covered"]


@pytest.mark.parametrize("card,roll,ends", [
    (11, 1, True), (11, 2, True), (11, 3, False), (11, 6, False),
    (10, 1, True), (10, 2, False),
])
def test_s7_die_check_after_deal(card, roll, ends):
    st = make(3, {"red": ANN, "orange": ANN}, marker=3, top=card)
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    force_die(st, roll)
    ev = act(st, BOB, type="pass") + act(st, CAL, type="pass")
    assert ("die_end" if ends else "die_safe") in types(ev)
    assert st["over"] is ends
    if ends:
        assert GAME.outcome(st).places == [1, 2, 2]


def test_s7_card_15_ends_without_roll():
    st = make(3, {"red": ANN, "orange": ANN}, marker=3, top=15)
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    n_before = st["chance"]["n"]
    ev = act(st, BOB, type="pass") + act(st, CAL, type="pass")
    assert st["over"] and st["end_reason"] == "last_deal"
    assert st["chance"]["n"] == n_before
    assert not {"die_end", "die_safe"} & set(types(ev))


def test_s7_no_roll_before_card_10():
    st = make(3, {"red": ANN, "orange": ANN}, marker=3, top=9)
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    n_before = st["chance"]["n"]
    act(st, BOB, type="pass")
    act(st, CAL, type="pass")
    assert not st["over"] and st["chance"]["n"] == n_before


@pytest.mark.parametrize("kept", [False, True])
def test_s8_boss_card_takes_over(kept):
    # space 10: R B O. Ann owns R; Cal owns B and O.
    st = make(4, {"red": ANN, "blue": CAL, "orange": CAL}, marker=10, top=1, hands={CAL: ["boss"]},
              opts={"turn_order_kept": kept})
    act(st, ANN, type="deal_here")
    act(st, CAL, type="boss")
    all_pass(st, CAL)
    deal = GAME.view(st, None)["deal"]
    assert deal["boss"] == CAL
    assert set(deal["covered"]) == {"blue", "orange"}
    refused(st, ANN, "not_boss", type="close")
    act(st, ANN, type="offer", src="placard:red", ask={"usd": 2})
    act(st, CAL, type="accept", offer=offer_id(st, "placard:red"))
    act(st, CAL, type="close")
    all_pass(st, CAL)
    assert st["money"][CAL] == 6 and st["money"][ANN] == 2
    assert st["active"] == (BOB if kept else DOT)


def test_s9_recruit_takes_a_spare_first():
    st = make(4, {"red": ANN, "blue": BOB, "magenta": CAL, "orange": DOT}, marker=10, top=1,
              hands={BOB: ["recruit"] * 3})
    act(st, ANN, type="deal_here")
    targets = sorted(a["clan"] for a in GAME.legal(st, BOB) if a["type"] == "recruit")
    assert targets == ["green", "yellow"]
    refused(st, BOB, "recruit_spare_first", type="recruit", clan="red")
    act(st, BOB, type="recruit", clan="green")
    all_pass(st, BOB)
    assert st["placards"][D.CIDX["green"]] == BOB


def test_s10_hand_limit_discard_two():
    st = make(3, {"red": ANN}, marker=1, hands={ANN: ["stop"] * 5 + ["boss"] * 6})
    act(st, ANN, type="roll")
    ev = act(st, ANN, type="draw")
    assert st["phase"] == "discard" and len(st["hands"][ANN]) == 14
    assert {"type": "over_limit", "seat": ANN, "count": 2, "limit": 12} in ev
    refused(st, ANN, "discard_count", type="discard", cards=st["hands"][ANN][:3])
    act(st, ANN, type="discard", cards=st["hands"][ANN][:2])
    assert len(st["hands"][ANN]) == 12 and st["active"] == BOB


def test_s10_hand_limit_recruit_keeps_eleven():
    st = make(3, {"red": ANN, "blue": BOB}, marker=1, hands={ANN: ["recruit"] * 3 + ["boss"] * 8})
    st["draw"].sort(key=lambda c: not c.startswith("stop"))  # draw three stops
    act(st, ANN, type="roll")
    act(st, ANN, type="draw")
    assert st["phase"] == "discard"
    act(st, ANN, type="recruit", clan="yellow")
    assert GAME.windows(st)[0].kind == "reaction"
    all_pass(st, ANN)
    assert len(st["hands"][ANN]) == 11 and st["placards"][D.CIDX["yellow"]] == ANN
    assert st["phase"] == "turn_start" and st["active"] == BOB


def test_s11_marker_skips_covered_spaces():
    st = make(3, {"red": ANN}, marker=2)
    st["covered"][3] = 1
    st["covered"][4] = 2
    force_die(st, 3)
    ev = act(st, ANN, type="roll")
    assert st["marker"] == 7 and ev[-1]["space"] == 7


def test_s12_fail_returns_clan_cards_and_discards_travel():
    st = make(4, {"red": ANN, "blue": DOT}, marker=10, hands={BOB: ["clan-orange"], CAL: ["travel-red"]})
    act(st, ANN, type="deal_here")
    act(st, BOB, type="play_clan", clan="orange")
    act(st, CAL, type="travel", color="red", src="placard:red")
    all_pass(st, CAL)
    assert "red" in st["deal"]["away"]
    ev = act(st, ANN, type="fail")
    assert [kind(c) for c in st["hands"][BOB]] == ["clan-orange"]
    assert [kind(c) for c in st["discard"]] == ["travel-red"]
    assert st["marker"] == 10 and st["covered"][10] is None
    assert st["active"] == BOB and "deal_failed" in types(ev)


def test_s13_clan_card_voids_last_call():
    # space 13: 3 of R M O Y. Ann owns R, M; O placard is Bob's.
    st = make(4, {"red": ANN, "magenta": ANN, "orange": BOB}, marker=13, hands={DOT: ["clan-yellow"]})
    act(st, ANN, type="deal_here")
    act(st, BOB, type="offer", src="placard:orange", ask={"usd": 3})
    act(st, ANN, type="accept", offer=offer_id(st, "placard:orange"))
    act(st, ANN, type="close")
    act(st, BOB, type="pass")
    ev = act(st, DOT, type="play_clan", clan="yellow")
    assert "last_call_void" in types(ev) and st["window"] is None
    act(st, DOT, type="offer", src="card:yellow:3", ask={"usd": 1})
    act(st, ANN, type="accept", offer=offer_id(st, "card:yellow:3"))  # over-filled pool (9.5)
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["money"] == [4, 3, 0, 1]
    assert "clan-yellow-1" in st["discard"] or any(kind(c) == "clan-yellow" for c in st["discard"])


def test_s14_two_player_close_pays_floor_share():
    st = make(2, {"red": ANN, "blue": ANN, "magenta": ANN, "yellow": BOB, "orange": BOB, "green": BOB},
              marker=0, top=4)
    act(st, ANN, type="deal_here")
    assert st["deal"]["P"] == 12
    refused(st, ANN, "must_close", type="fail")
    refused(st, BOB, "no_offers_shared", type="offer", src="placard:yellow", ask={"usd": 1})
    act(st, ANN, type="close")
    ev = act(st, BOB, type="pass")
    paid = [e for e in ev if e["type"] == "paid"]
    assert [(e["to_seat"], e["usd"]) for e in paid] == [(BOB, 2), (BOB, 2)]
    assert st["money"] == [8, 4]


def test_s14_two_player_boss_names_sources():
    st = make(2, {"red": ANN, "blue": ANN, "magenta": ANN, "yellow": BOB, "orange": BOB, "green": BOB},
              marker=0, top=4)
    act(st, ANN, type="deal_here")
    refused(st, ANN, "bad_use", type="close", use=["placard:yellow"])
    act(st, ANN, type="close", use=["placard:yellow", "placard:green"])
    ev = act(st, BOB, type="pass")
    assert st["money"] == [8, 4] and "deal_closed" in types(ev)


def test_s15_short_game_seventh_deal_rolls():
    st = make(3, {"red": ANN, "orange": ANN, "green": ANN, "yellow": ANN}, marker=3, opts={"short_game": True})
    assert st["stack"] == [1, 2, 4, 5, 7, 8, 10, 11, 12, 13, 14, 15]
    st["stack"] = st["stack"][6:]  # six deals made
    st["deals"] = 6
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    force_die(st, 1)
    ev = act(st, BOB, type="pass") + act(st, CAL, type="pass")
    assert "die_end" in types(ev) and st["over"]


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

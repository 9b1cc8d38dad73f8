"""I'm the Boss!: every worked example of the digest (section 10) through `GAME.apply`; each card and
effect: test_imtheboss_cards.py; options, set-up, turns and data: test_imtheboss_options.py."""

from __future__ import annotations

import pytest

from engine.imtheboss import GAME
from engine.imtheboss import data as D
from engine.imtheboss.data import CLANS, kind
from tests.support.imtheboss_state import (ANN, BOB, CAL, DOT, make, act, refused, types, force_die, all_pass,
                                           offer_id)


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

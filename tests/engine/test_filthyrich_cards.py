"""Filthy Rich: every card's effect (businesses, assets, actions) through `GAME.apply`, with
scripted dice (tests/support/filthyrich_state.py)."""

from __future__ import annotations

import json

import pytest

from engine.filthyrich import GAME, table as tbl
from engine.filthyrich.data import BUSINESSES, kind
from tests.support.filthyrich_state import (A, B, C, D, new, hand, ad, asset, lux, do, play, types, roll,
                                            refused, placements_of)


# -- every business effect ---------------------------------------------------------------------


@pytest.mark.parametrize("k,gain", [("donut_shop", 2), ("tattoo_parlour", 3), ("laundromat", 3), ("tornado_cleaners", 4),
                                    ("pet_grooming", 2), ("car_wash", 4), ("cinema", 5), ("psychic_hotline", 2),
                                    ("gym", 4), ("karaoke", 4), ("used_cars", 5), ("hair_salon", 3), ("hotel", 6),
                                    ("arcade", 4), ("tea_house", 2), ("funeral_parlour", 2), ("tax_prep", 2)])
def test_plain_hits_pay_their_printed_amount(script, k, gain):
    st = new(money=[30, 10, 10, 10])
    card = hand(st, A, k)
    slots = placements_of(st, A, card)[0]
    play(st, A, card, slots=slots)
    money = st["money"][A]
    roll(st, script, [slots[0]])
    assert st["money"][A] - money == gain


def test_pawn_shop_pays_more_when_poor(script):
    st = new(money=[9, 10, 10, 10])
    ad(st, A, "pawn_shop", 1, [1])
    roll(st, script, [1])
    assert st["money"][A] == 13
    st = new(money=[10, 10, 10, 10])
    ad(st, A, "pawn_shop", 1, [1])
    roll(st, script, [1])
    assert st["money"][A] == 12


def test_rooftop_bar_pays_per_page(script):
    st = new(page=3)
    ad(st, A, "rooftop_bar", 2, [1])
    roll(st, script, [1, 9, 9])
    assert st["money"][A] == 13


def test_casino_rolls_a_d10_and_zero_pays_nothing(script):
    st = new()
    ad(st, A, "casino", 1, [1, 4])
    roll(st, script, [4], ints=[7])
    assert st["money"][A] == 17
    st = new()
    ad(st, A, "casino", 1, [1, 4])
    events = roll(st, script, [1], ints=[0])
    assert st["money"][A] == 10 and "tax_window" not in types(events)


def test_on_zero_pays_only_while_visible_and_per_zero(script):
    st = new(page=2, money=[10, 10, 10, 10])
    ad(st, B, "tax_prep", 1, [1])
    ad(st, C, "funeral_parlour", 1, [2, 5])
    ad(st, D, "donut_shop", 2, [2])  # hides the upper card of the Funeral Parlour only
    roll(st, script, [0, 0])
    # B: +2 x 2 zeros; C: visible at slot 5: +2 x 2. Then taxes: B 0 marks, C 1 x 2, D 1 x 2.
    for s in (B, C, D):
        do(st, s, type="tax_decision", sell=[])
    assert st["money"][B] == 14 and st["money"][C] == 12 and st["money"][D] == 8
    st = new(page=2)
    ad(st, B, "tax_prep", 1, [1])
    ad(st, D, "donut_shop", 2, [1])  # fully hidden: no zero payout
    events = roll(st, script, [0, 9])
    assert "zero_payout" not in types(events)
    for s in list(st["tax"]["pending"]):
        do(st, s, type="tax_decision", sell=[])
    assert st["money"][B] == 10


def test_on_zero_goes_to_owner_despite_price_war(script):
    st = new()
    tp = ad(st, B, "tax_prep", 1, [1])
    war = hand(st, A, "price_war")
    play(st, A, war, business=tp)
    roll(st, script, [0])
    for s in list(st["tax"]["pending"]):
        do(st, s, type="tax_decision", sell=[])
    assert st["money"][B] == 12 and st["money"][A] == 10


def test_price_war_hit_uses_the_beneficiarys_bonuses(script):
    for neon, gain in ((A, 4 + 1), (B, 4)):  # the Neon Sign counts for the war's winner only
        st = new(money=[5, 10, 10, 10])
        pawn = ad(st, B, "pawn_shop", 1, [1])
        asset(st, neon, "neon_sign")
        war = hand(st, A, "price_war")
        play(st, A, war, business=pawn)
        roll(st, script, [1])
        assert st["money"][A] == 5 + gain and st["money"][B] == 10


# -- every asset -------------------------------------------------------------------------------


def test_assets_are_paid_and_kept():
    st = new(money=[20, 10, 10, 10])
    cousin = hand(st, A, "zoning_cousin")
    events = play(st, A, cousin)
    assert st["money"][A] == 14 and st["assets"][A][0]["id"] == cousin
    assert tbl.marks(st, A) == 1 and "asset" in types(events)
    poor = hand(st, B, "tax_shelter")
    st["active"] = B
    st["money"][B] = 9
    refused(st, B, {"type": "play", "card": poor}, "cant_afford")


def test_business_broker_sells_for_three_per_card():
    st = new()
    karaoke = ad(st, A, "karaoke", 1, [1, 4, 5])
    asset(st, A, "business_broker")
    do(st, A, type="sell", business=karaoke)
    assert st["money"][A] == 19 and "karaoke" not in st["ads"] and karaoke in st["discard"]


def test_muscle_records_its_row_and_takes_up_to_one(script):
    st = new(money=[10, 10, 0, 10])
    muscle = hand(st, A, "neighbourhood_muscle")
    opts = [a for a in GAME.legal(st, A) if a.get("card") == muscle and a["type"] == "play"]
    assert sorted(a["row"] for a in opts) == [1, 2, 3]
    events = play(st, A, muscle, row=3)
    assert st["assets"][A][0]["row"] == 3 and "muscle_row" in types(events)
    ad(st, B, "laundromat", 1, [7, 8])
    ad(st, C, "donut_shop", 1, [9])
    ad(st, A, "tattoo_parlour", 1, [1])
    st["page"] = 2
    roll(st, script, [7, 9])
    # B: +3 then Muscle takes 1; C: +2 then Muscle takes 1. A: 5 - 5 + 2
    assert st["money"][B] == 12 and st["money"][C] == 1 and st["money"][A] == 7
    refused(st, st["active"], {"type": "play", "card": "x", "row": 4})


def test_muscle_does_not_charge_its_owner(script):
    st = new()
    asset(st, A, "neighbourhood_muscle", row=1)
    ad(st, A, "tattoo_parlour", 1, [1])
    roll(st, script, [1])
    assert st["money"][A] == 13


def test_bank_loan_gain_mark_and_repay():
    st = new(money=[3, 10, 10, 10])
    loan = hand(st, A, "bank_loan")
    play(st, A, loan)
    assert st["money"][A] == 13 and tbl.marks(st, A) == 1
    assert {"type": "repay", "asset": loan} in GAME.legal(st, A)
    do(st, A, type="repay", asset=loan)
    assert st["money"][A] == 1 and not st["assets"][A] and loan in st["discard"]
    refused(st, A, {"type": "repay", "asset": loan}, "not_a_loan")


def test_loan_shark_repay_ends_interest(script):
    st = new(money=[25, 10, 10, 10])
    st["turn_no"] = 4
    shark = asset(st, A, "loan_shark", turn=1)
    do(st, A, type="repay", asset=shark)
    assert st["money"][A] == 5
    events = roll(st, script, [9])
    assert "interest" not in types(events)


def test_loan_repay_must_be_affordable():
    st = new(money=[11, 10, 10, 10])
    loan = asset(st, A, "bank_loan")
    assert {"type": "repay", "asset": loan} not in GAME.legal(st, A)
    refused(st, A, {"type": "repay", "asset": loan}, "cant_afford")


def test_savings_bonds_pay_per_zero(script):
    st = new(page=3)
    asset(st, C, "savings_bonds")
    roll(st, script, [0, 0, 9])
    assert st["money"][C] == 12


def test_neon_sign_and_ad_blitz_stack(script):
    st = new()
    ad(st, A, "donut_shop", 1, [1])
    asset(st, A, "neon_sign")
    blitz = hand(st, A, "ad_blitz")
    play(st, A, blitz)
    roll(st, script, [1])
    assert st["money"][A] == 10 + 2 + 1 + 2


def test_ad_blitz_only_for_the_player_who_played_it(script):
    st = new()
    ad(st, B, "donut_shop", 1, [1])
    blitz = hand(st, A, "ad_blitz")
    play(st, A, blitz)
    roll(st, script, [1])
    assert st["money"][B] == 12


def test_lawyer_blocks_each_targeting_card_once():
    for k, field in (("frivolous_lawsuit", "target"), ("headhunter", "target"), ("tax_inspector", "target"),
                     ("hostile_takeover", "business"), ("price_war", "business")):
        st = new(money=[30, 10, 10, 10])
        donut = ad(st, B, "donut_shop", 1, [1])
        hand(st, B, "angel_investor")
        asset(st, B, "lawyer")
        card = hand(st, A, k)
        value = B if field == "target" else donut
        events = play(st, A, card, **{field: value})
        assert "lawyer" in types(events), k
        assert not st["assets"][B] and st["money"][:2] == [30, 10] and donut in st["biz"][B]
        assert st["turn"]["price_war"] == [] and st["phase"] == "turn" and len(st["hands"][B]) == 1


def test_lawyer_ignores_non_targeting_cards():
    st = new()
    asset(st, B, "lawyer")
    angel = hand(st, A, "angel_investor")
    play(st, A, angel)
    assert st["assets"][B]


def test_cousin_beats_ironclad_lease_and_lease_pays_four():
    st = new(page=2, money=[20, 10, 10, 10])
    ad(st, B, "donut_shop", 1, [1])
    asset(st, B, "ironclad_lease")
    tattoo = hand(st, A, "tattoo_parlour")
    play(st, A, tattoo, slots=[1])
    assert st["money"][:2] == [7, 14]


# -- every action ------------------------------------------------------------------------------


def test_zoning_variance_opens_on_any_page_with_that_pages_fees():
    st = new(page=1, money=[30, 10, 10, 10])
    ad(st, B, "donut_shop", 2, [3])
    ad(st, C, "tattoo_parlour", 1, [3])
    zv, tornado = hand(st, A, "zoning_variance", "tornado_cleaners")
    opts = [a for a in GAME.legal(st, A) if a.get("card") == zv and a["type"] == "play"]
    assert {a["page"] for a in opts} == {1, 2, 3, 4}
    play(st, A, zv, business=tornado, page=3, slots=[3, 6])
    assert st["money"][:3] == [30 - 12 - 2, 12, 10] and st["page"] == 1
    assert st["ads"]["tornado_cleaners"]["page"] == 3 and st["binder"][2][2] == "tornado_cleaners"


def test_zoning_variance_needs_room_on_the_chosen_page():
    st = new(page=1, money=[30, 10, 10, 10])
    ad(st, B, "hotel", 2, [1, 2, 4, 5])
    zv, tornado = hand(st, A, "zoning_variance", "tornado_cleaners")
    refused(st, A, {"type": "play", "card": zv, "business": tornado, "page": 2, "slots": [1, 4]}, "slots_taken")
    refused(st, A, {"type": "play", "card": zv, "business": tornado, "page": 5, "slots": [1, 4]}, "bad_field")


def test_ribbon_cutting_and_zoning_variance_need_a_business():
    st = new()
    rc, zv = hand(st, A, "ribbon_cutting", "zoning_variance")
    legal = GAME.legal(st, A)
    assert not [a for a in legal if a["type"] == "play"]
    assert {"type": "discard", "card": rc} in legal and {"type": "discard", "card": zv} in legal


def test_moving_day_own_cells_count_empty():
    st = new(page=1, money=[0, 10, 10, 10])
    tornado = ad(st, A, "tornado_cleaners", 1, [1, 4])
    ad(st, B, "hotel", 1, [2, 3, 5, 6])
    ad(st, B, "laundromat", 1, [8, 9])
    move = hand(st, A, "moving_day")
    opts = sorted(a["slots"] for a in GAME.legal(st, A) if a.get("card") == move and a["type"] == "play")
    assert opts == [[1, 4], [4, 7]]  # its own lifted cells count as empty
    st = new(page=2, money=[1, 10, 10, 10])
    tornado = ad(st, A, "tornado_cleaners", 1, [1, 4])
    ad(st, B, "donut_shop", 1, [3])
    move = hand(st, A, "moving_day")
    opts = sorted(a["slots"] for a in GAME.legal(st, A) if a.get("card") == move and a["type"] == "play")
    assert [3, 6] not in opts and [1, 4] in opts and [2, 5] in opts  # $1 < $2 fee
    play(st, A, move, business=tornado, slots=[2, 5])
    assert st["binder"][0] == [None, None, "donut_shop"] + [None] * 6
    assert st["binder"][1][1] == st["binder"][1][4] == "tornado_cleaners" and st["money"][A] == 1


def test_detour_turns_the_binder_now(script):
    st = new(page=1)
    ad(st, B, "donut_shop", 3, [1])
    detour = hand(st, A, "detour")
    assert sorted(a["page"] for a in GAME.legal(st, A) if a.get("card") == detour and a["type"] == "play") == [1, 2, 3, 4]
    events = play(st, A, detour, page=3)
    assert st["page"] == 3 and "detour" in types(events)
    assert GAME.view(st, None)["grid"][0]["sign"] == "donut_shop"
    roll(st, script, [1, 9, 9])
    assert st["money"][B] == 12


def test_overtime_gives_two_more_actions():
    st = new()
    ot, a1, a2 = hand(st, A, "overtime", "angel_investor", "angel_investor")
    hand(st, A, "detour", "city_contract")
    play(st, A, ot)
    assert st["turn"]["actions"] == 3
    play(st, A, a1)
    play(st, A, a2)
    assert st["turn"]["actions"] == 1 and st["money"][A] == 20
    refused(st, A, {"type": "roll"}, "actions_left")


def test_empty_hand_loses_remaining_actions(script):
    st = new()
    angel = hand(st, A, "angel_investor")
    play(st, A, angel)
    assert st["turn"]["actions"] == 1 and not st["hands"][A]
    assert GAME.legal(st, A) == [{"type": "roll"}]
    script(dice=[9])
    do(st, A, type="roll")
    assert st["active"] == B


def test_gain_cards():
    st = new()
    ad(st, A, "tornado_cleaners", 1, [1, 4])
    ad(st, A, "donut_shop", 1, [9])
    lux(st, A, "diamond_phone")
    angel, contract, refund = hand(st, A, "angel_investor", "city_contract", "tax_refund")
    play(st, A, angel)
    assert st["money"][A] == 15
    play(st, A, contract)
    assert st["money"][A] == 19
    st["turn"]["actions"] = 1
    play(st, A, refund)  # 2 + 1 + 2 marks
    assert st["money"][A] == 24


def test_estate_sale_discount_and_win():
    st = new(money=[8, 10, 10, 10])
    sale = hand(st, A, "estate_sale")
    opts = {a["luxury"] for a in GAME.legal(st, A) if a.get("card") == sale and a["type"] == "play"}
    assert opts == {"personal_trainer", "entourage", "diamond_phone", "racehorse"}
    play(st, A, sale, luxury="racehorse")
    assert st["money"][A] == 0 and st["lux"][A] == ["racehorse"] and "racehorse" not in st["market"]
    st = new(money=[8, 10, 10, 10])
    lux(st, A, "personal_trainer", "entourage")
    sale = hand(st, A, "estate_sale")
    events = play(st, A, sale, luxury="diamond_phone")
    assert st["phase"] == "over" and st["winners"] == [A] and "win" in types(events)


def test_hostile_takeover_moves_business_and_ad():
    st = new(money=[20, 10, 10, 10])
    tornado = ad(st, B, "tornado_cleaners", 2, [3, 6])
    take_ = hand(st, A, "hostile_takeover")
    play(st, A, take_, business=tornado)
    assert st["money"][:2] == [8, 22] and tornado in st["biz"][A] and not st["biz"][B]
    assert st["ads"]["tornado_cleaners"]["owner"] == A and st["binder"][1][2] == "tornado_cleaners"
    st = new(money=[11, 10, 10, 10])
    tornado = ad(st, B, "tornado_cleaners", 2, [3, 6])
    take_ = hand(st, A, "hostile_takeover")
    refused(st, A, {"type": "play", "card": take_, "business": tornado}, "cant_afford")


def test_frivolous_lawsuit_takes_up_to_four():
    st = new(money=[10, 2, 10, 10])
    suit = hand(st, A, "frivolous_lawsuit")
    play(st, A, suit, target=B)
    assert st["money"][:2] == [12, 0]
    st = new()
    suit = hand(st, A, "frivolous_lawsuit")
    play(st, A, suit, target=C)
    assert st["money"][A] == 14 and st["money"][C] == 6
    refused(st, A, {"type": "play", "card": hand(st, A, "frivolous_lawsuit"), "target": A}, "bad_target")


def test_headhunter_takes_a_random_card_privately(script):
    st = new()
    hh = hand(st, A, "headhunter")
    b_cards = hand(st, B, "angel_investor", "overtime", "detour")
    script(ints=[1])
    events = play(st, A, hh, target=B)
    assert b_cards[1] in st["hands"][A] and st["hands"][B] == [b_cards[0], b_cards[2]]
    public = [e for e in events if "to" not in e]
    assert all("overtime" not in json.dumps(e) for e in public)
    private = {tuple(e["to"]): e for e in events if "to" in e}
    assert private[(A,)]["card"] == "overtime" and private[(B,)]["card"] == "overtime"
    st = new()
    hh = hand(st, A, "headhunter")
    assert [a for a in GAME.legal(st, A) if a.get("card") == hh and a["type"] == "play"] == []  # nobody has cards


def test_market_research_found_and_missed(script):
    st = new()
    mr = hand(st, A, "market_research")
    opts = {a["business"] for a in GAME.legal(st, A) if a.get("card") == mr and a["type"] == "play"}
    assert opts == set(BUSINESSES)
    events = play(st, A, mr, business="hotel")
    assert any(kind(c) == "hotel" for c in st["hands"][A]) and "research_found" in types(events)
    assert st["research"] == {"seat": A, "business": "hotel", "found": True}
    st = new()
    hand(st, C, "hotel")
    ad(st, B, "gym", 1, [1, 4, 7])
    mr = hand(st, A, "market_research")
    assert "gym" not in {a["business"] for a in GAME.legal(st, A) if a.get("card") == mr and a["type"] == "play"}
    events = play(st, A, mr, business="hotel")
    assert "research_missed" in types(events) and len(st["hands"][A]) == 1
    drew = [e for e in events if e["type"] == "drew"]
    assert drew and drew[0]["to"] == [A]


def test_greased_palms_only_for_the_active_player(script):
    st = new()
    ad(st, A, "tornado_cleaners", 1, [1, 4])
    ad(st, B, "cinema", 1, [7, 8, 9])
    palms = hand(st, A, "greased_palms")
    play(st, A, palms)
    roll(st, script, [0])
    do(st, A, type="tax_decision", sell=[])
    do(st, B, type="tax_decision", sell=[])
    assert st["money"][:2] == [10, 8]

"""Filthy Rich: every worked example of the digest (R1-R3, S1-S20) through `GAME.apply`, with scripted
dice (tests/support/filthyrich_state.py); cards and turns: test_filthyrich_cards.py and _turns.py."""

from __future__ import annotations

import json

from engine.core import SYSTEM
from engine.filthyrich import GAME, resolve, table as tbl
from engine.filthyrich.data import kind
from tests.support.filthyrich_state import (A, B, C, D, new, hand, ad, asset, lux, dump, do, play, types,
                                            ready_to_roll, roll, refused, placements_of)


# -- R1-R3: the rulebook's examples -------------------------------------------------------------


def test_R1_placement_choices():
    st = new(money=[20, 10, 10, 10])
    tornado = hand(st, A, "tornado_cleaners")
    assert sorted(placements_of(st, A, tornado)) == [[1, 4], [2, 5], [3, 6], [4, 7], [5, 8], [6, 9]]
    play(st, A, tornado, slots=[4, 1])  # any order is accepted
    assert st["money"][A] == 8
    assert st["binder"][0][0] == st["binder"][0][3] == "tornado_cleaners"
    assert tornado in st["biz"][A] and tornado not in st["hands"][A]


def test_R2_cover_fee_across_three_pages(script):
    st = new(page=3, money=[20, 10, 10, 10])
    ad(st, B, "donut_shop", 1, [6])
    ad(st, B, "tattoo_parlour", 2, [6])
    tornado = hand(st, A, "tornado_cleaners")
    events = play(st, A, tornado, slots=[3, 6])
    fees = [e for e in events if e["type"] == "fee"]
    assert [(f["to_seat"], f["amount"], f["slot"]) for f in fees] == [(B, 2, 6)]
    assert st["money"][A] == 6 and st["money"][B] == 12
    # Follow-up hits on slot 6 from each open page.
    for page, who, gain in ((3, A, 4), (2, B, 3), (1, B, 2)):
        st2 = json.loads(dump(st))
        st2["page"] = page
        before = list(st2["money"])
        roll(st2, script, [6] + [7] * (page - 1))
        assert st2["money"][who] - before[who] == gain


def test_R3_taxes_per_zero(script):
    for zeros, due in ((1, 3), (2, 6)):
        st = new(page=zeros, money=[20, 10, 10, 10])
        ad(st, A, "tornado_cleaners", 1, [1, 4])
        lux(st, A, "personal_trainer")
        assert tbl.marks(st, A) == 3
        roll(st, script, [0] * zeros)
        assert st["phase"] == "tax" and st["tax"]["pending"] == [A]
        do(st, A, type="tax_decision", sell=[])
        assert st["money"][A] == 20 - due


# -- S1-S20 ------------------------------------------------------------------------------------


def test_S1_partial_visibility_and_multiple_dice(script):
    base = new(page=2)
    ad(base, B, "hotel", 1, [1, 2, 4, 5])
    ad(base, A, "donut_shop", 2, [5])
    st = json.loads(dump(base))
    roll(st, script, [5, 4])  # page 2: two dice
    assert (st["money"][A], st["money"][B]) == (12, 16)
    st = json.loads(dump(base))
    st["page"] = 2
    st["turn"]["dice"] = 1  # [5, 4, 4] on page 2
    roll(st, script, [5, 4, 4])
    assert (st["money"][A], st["money"][B]) == (12, 22)
    st = json.loads(dump(base))
    st["page"] = 4
    st["turn"]["dice"] = -1  # the same three dice with page 4 open (pages 3-4 empty)
    roll(st, script, [5, 4, 4])
    assert (st["money"][A], st["money"][B]) == (12, 22)
    st = json.loads(dump(base))
    st["page"] = 1
    roll(st, script, [5])
    assert (st["money"][A], st["money"][B]) == (10, 16)
    hits = st["roll"]["hits"]
    assert hits[0]["sign"] == "hotel" and hits[0]["page"] == 1


def test_S2_hits_before_taxes(script):
    st = new(page=2, money=[10, 10, 0, 10])
    ad(st, C, "laundromat", 1, [7, 8])
    events = roll(st, script, [8, 0])
    assert st["money"][C] == 3 and st["phase"] == "tax" and st["tax"]["pending"] == [C]
    assert types(events).index("hit") < types(events).index("tax_window")
    do(st, C, type="tax_decision", sell=[])
    assert st["money"][C] == 2 and st["alive"][C]


def test_S3_selling_in_the_tax_window(script):
    def setup():
        st = new(money=[10, 1, 10, 10])
        ad(st, B, "psychic_hotline", 1, [1, 2, 3])
        lux(st, B, "personal_trainer")
        roll(st, script, [0])
        assert st["phase"] == "tax" and st["tax"]["pending"] == [B]
        assert GAME.view(st, None)["tax"]["due"][str(B)] == 4
        return st
    st = setup()
    hotline = st["biz"][B][0]
    events = do(st, B, type="tax_decision", sell=[hotline])
    assert "sell" in types(events)
    assert st["money"][B] == 6 and not st["biz"][B] and "psychic_hotline" not in st["ads"]
    assert hotline in st["discard"] and all(x is None for x in st["binder"][0][:3])
    # If B's window times out instead, B keeps everything and is bankrupt.
    st = setup()
    GAME.apply(st, SYSTEM, {"type": "timeout", "id": GAME.windows(st)[0].id})
    assert not st["alive"][B]


def test_S4_bankruptcy_auction(script):
    st = new(money=[9, 15, 0, 20], page=2)
    lux(st, C, "personal_trainer", "racehorse")
    ad(st, A, "tattoo_parlour", 1, [1])
    ad(st, C, "donut_shop", 2, [1])
    roll(st, script, [0, 9])
    assert st["tax"]["pending"] == [A, C]
    do(st, A, type="tax_decision", sell=[])
    events = do(st, C, type="tax_decision", sell=[])
    assert "bankrupt" in types(events) and not st["alive"][C]
    # C's ad is gone and A's tattoo below shows again.
    assert st["binder"][1][0] is None and GAME.view(st, None)["grid"][0]["owner"] == A
    assert st["money"][A] == 8  # A paid $1 tax
    st["money"][A] = 9
    a = st["auction"]
    assert a["lux"] == "personal_trainer" and a["order"] == [D, A, B] and a["seat"] == D
    do(st, D, type="pass")
    do(st, A, type="bid", amount=6)
    do(st, B, type="bid", amount=7)
    do(st, D, type="bid", amount=8)  # allowed after D's earlier pass
    do(st, A, type="pass")
    events = do(st, B, type="pass")
    assert st["lux"][D] == ["personal_trainer"] and st["money"][D] == 12
    # Racehorse: D passes, A is passed automatically ($9 < $12), B passes: nobody bid.
    assert st["auction"]["lux"] == "racehorse" and st["auction"]["seat"] == D
    events = do(st, D, type="pass")
    assert ("auto_pass", A) in [(e["type"], e.get("seat")) for e in events]
    events = do(st, B, type="pass")
    assert "unsold" in types(events) and st["auction"] is None
    assert st["removed"] == ["racehorse"] and "racehorse" not in st["market"]
    assert st["phase"] == "turn" and st["active"] == B


def test_S4_auto_pass_is_announced(script):
    st = new(money=[9, 15, 0, 20])
    lux(st, C, "racehorse")
    roll(st, script, [0])
    types_ = []
    types_ += types(do(st, D, type="pass"))
    assert "auto_pass" in types_ and st["auction"]["seat"] == B


def test_S5_win_at_auction(script):
    st = new(n=3, money=[30, 0, 5])
    lux(st, A, "personal_trainer", "entourage")
    lux(st, B, "gold_bathtub", "sports_car")
    st["money"][A] = 30
    roll(st, script, [0])  # B owes tax on 3 marks with $0
    assert not st["alive"][B]
    # From B's left: C (auto-passed, $5 < $15), then A.
    assert st["auction"]["lux"] == "gold_bathtub" and st["auction"]["seat"] == A
    events = do(st, A, type="bid", amount=15)
    assert st["phase"] == "over" and st["winners"] == [A] and st["end"] == "luxuries"
    assert st["money"][A] == 30 - 2 - 15  # $2 tax (1 mark, doubled by the Entourage), then the bid
    assert "win" in types(events)
    assert {"lux": "sports_car", "from": B} in st["lots"]  # not auctioned
    assert GAME.outcome(st).places[A] == 1


def test_S6_fees_own_double_and_modified():
    def setup():
        st = new(page=2, money=[40, 10, 10, 10])
        ad(st, A, "pet_grooming", 1, [1, 2])
        ad(st, B, "donut_shop", 1, [4])
        ad(st, B, "tattoo_parlour", 1, [5])
        return st
    st = setup()
    hotel = hand(st, A, "hotel")
    events = play(st, A, hotel, slots=[1, 2, 4, 5])
    assert st["money"] == [40 - 25 - 4, 14, 10, 10]
    assert sum(f["amount"] for f in events if f["type"] == "fee") == 4
    st = setup()
    asset(st, B, "ironclad_lease")
    hotel = hand(st, A, "hotel")
    play(st, A, hotel, slots=[1, 2, 4, 5])
    assert st["money"][B] == 18
    st = setup()
    asset(st, B, "ironclad_lease")
    asset(st, A, "zoning_cousin")
    hotel = hand(st, A, "hotel")
    play(st, A, hotel, slots=[1, 2, 4, 5])
    assert st["money"][:2] == [15, 10]
    # B's Suds at P1 {4,5} under a square at P2 {4,5,7,8}: $4 to B.
    st = new(page=2, money=[40, 10, 10, 10])
    ad(st, B, "laundromat", 1, [4, 5])
    hotel = hand(st, A, "hotel")
    play(st, A, hotel, slots=[4, 5, 7, 8])
    assert st["money"][:2] == [40 - 25 - 4, 14]


def test_S7_no_room():
    st = new(page=2, money=[60, 10, 10, 10])
    ad(st, B, "hotel", 2, [1, 2, 4, 5])
    ad(st, B, "laundromat", 2, [7, 8])
    hotline, karaoke, tornado, donut, pooch = hand(st, A, "psychic_hotline", "karaoke", "tornado_cleaners",
                                                   "donut_shop", "pet_grooming")
    assert placements_of(st, A, tornado) == [[3, 6], [6, 9]]
    assert placements_of(st, A, donut) == [[3], [6], [9]]
    assert placements_of(st, A, hotline) == placements_of(st, A, karaoke) == placements_of(st, A, pooch) == []
    assert {"type": "discard", "card": karaoke} in GAME.legal(st, A)
    refused(st, A, {"type": "play", "card": karaoke, "slots": [5, 8, 9]}, "slots_taken")


def test_S8_tax_modifiers():
    def setup(*extra):
        st = new()
        ad(st, A, "tornado_cleaners", 1, [1, 4])
        ad(st, A, "psychic_hotline", 1, [7, 8, 9])
        lux(st, A, "entourage")
        for k in extra:
            asset(st, A, k)
        return st
    st = setup()
    assert (tbl.tax_due(st, A, 1), tbl.tax_due(st, A, 2)) == (10, 20)
    st = setup("tax_shelter")
    assert (tbl.tax_due(st, A, 1), tbl.tax_due(st, A, 2)) == (6, 12)
    st = setup("creative_accountant")
    assert tbl.marks(st, A) == 6
    assert (tbl.tax_due(st, A, 1), tbl.tax_due(st, A, 2), tbl.tax_due(st, A, 3)) == (12, 12, 12)
    assert tbl.tax_due(st, A, 2, greased=True) == 0


def test_S8_tax_modifiers_in_a_roll(script):
    st = new(page=2, money=[30, 10, 10, 10])
    ad(st, A, "tornado_cleaners", 1, [1, 4])
    ad(st, A, "psychic_hotline", 1, [7, 8, 9])
    lux(st, A, "entourage")
    asset(st, A, "tax_shelter")
    roll(st, script, [0, 0])
    do(st, A, type="tax_decision", sell=[])
    assert st["money"][A] == 30 - 12


def test_S9_knockoff_boutique(script):
    def setup(c_money):
        st = new(money=[10, 10, c_money, 10])
        ad(st, A, "knockoff_boutique", 1, [5])
        ad(st, B, "laundromat", 1, [1, 2])
        ad(st, C, "pawn_shop", 1, [4])
        ad(st, B, "tattoo_parlour", 1, [6])
        return st
    st = setup(10)
    events = roll(st, script, [5])
    assert st["money"][:3] == [14, 8, 9]
    skims = [(e["from_seat"], e["amount"]) for e in events if e["type"] == "skim"]
    assert skims == [(B, 1), (C, 1), (B, 1)]
    st = setup(0)
    roll(st, script, [5])
    assert st["money"][:3] == [13, 8, 0]


def test_S10_mega_mall(script):
    st = new(page=1)
    ad(st, A, "shopping_mall", 1, [1, 2, 4, 5])
    ad(st, A, "donut_shop", 2, [9])
    ad(st, A, "tattoo_parlour", 3, [8])
    roll(st, script, [1])
    assert st["money"][A] == 15
    st = new(page=1)
    ad(st, A, "shopping_mall", 1, [1, 2, 4, 5])
    ad(st, A, "donut_shop", 2, [9])
    ad(st, A, "tattoo_parlour", 3, [8])
    asset(st, A, "neon_sign")
    roll(st, script, [1])
    assert st["money"][A] == 16


def test_S11_loan_shark_interest(script):
    def setup():
        st = new(n=3, money=[2, 10, 10])
        st["turn_no"] = 5
        asset(st, A, "loan_shark", turn=2)
        donut = ad(st, A, "donut_shop", 1, [3])
        return st, donut
    st, donut = setup()
    assert GAME.view(st, A)["seats"][A]["interest"] == 3
    do(st, A, type="sell", business=donut)
    assert st["money"][A] == 4
    events = roll(st, script, [9])
    assert "interest" in types(events) and st["money"][A] == 1
    st, donut = setup()
    st["page"] = 2
    events = roll(st, script, [], page_die=1)
    assert types(events)[:2] == ["interest_unpaid", "bankrupt"]
    assert "roll" not in types(events) and "page_die" not in types(events)
    assert st["active"] == B and st["page"] == 2 and st["phase"] == "turn"


def test_S11_interest_starts_next_turn(script):
    st = new(n=3, money=[0, 10, 10])
    shark = hand(st, A, "loan_shark")
    play(st, A, shark)
    assert st["money"][A] == 20
    ready_to_roll(st)
    events = roll(st, script, [9])
    assert "interest" not in types(events) and st["money"][A] == 20


def test_S12_dice_count_and_page_die(script):
    st = new(page=3)
    events = roll(st, script, [9, 9, 9], page_die=5)
    assert len(st["roll"]["dice"]) == 3 and st["page"] == 3
    st = new(page=3)
    rush = hand(st, A, "rush_hour")
    play(st, A, rush)
    assert GAME.view(st, None)["turn"]["dice"] == 4
    roll(st, script, [9, 9, 9, 9], page_die=2)
    assert len(st["roll"]["dice"]) == 4 and st["page"] == 2
    st = new(page=1)
    holiday = hand(st, A, "public_holiday")
    play(st, A, holiday)
    events = roll(st, script, [], page_die=6)
    assert st["roll"]["dice"] == [] and "page_stay" in types(events) and st["page"] == 1
    st = new(page=1)
    events = roll(st, script, [9], page_die=4)
    assert "page_die" in types(events) and st["page"] == 4


def test_S13_audit_with_a_sale(script):
    st = new(money=[10, 3, 10, 10])
    karaoke = ad(st, B, "karaoke", 1, [1, 4, 5])  # 2 $, three cards: sells for $6
    lux(st, B, "mega_yacht")
    ad(st, C, "tax_prep", 1, [5])
    ad(st, A, "donut_shop", 1, [9])
    asset(st, D, "savings_bonds")
    visit = hand(st, A, "tax_inspector")
    play(st, A, visit, target=B)
    assert st["phase"] == "audit" and st["tax"]["pending"] == [B]
    assert GAME.to_act(st) == [B]
    do(st, B, type="tax_decision", sell=[karaoke])
    assert st["money"] == [10, 6, 10, 10]
    assert st["phase"] == "turn" and st["active"] == A and st["turn"]["actions"] == 1


def test_S13_audit_without_business_pays_at_once():
    st = new(money=[10, 5, 10, 10])
    lux(st, B, "mega_yacht")
    visit = hand(st, A, "tax_inspector")
    win_before = st["win"]
    play(st, A, visit, target=B)
    assert st["money"][B] == 2 and st["phase"] == "turn" and st["win"] == win_before


def test_S14_faulty_wiring():
    def setup(page, *b_assets):
        st = new(page=page)
        ad(st, B, "karaoke", 1, [1, 4, 5])
        ad(st, C, "donut_shop", 2, [1])
        ad(st, C, "pawn_shop", 2, [4])
        ad(st, C, "tattoo_parlour", 2, [5])
        for k in b_assets:
            asset(st, B, k)
        fire = hand(st, A, "faulty_wiring")
        return st, fire
    st, fire = setup(2)
    targets = [a["business"] for a in GAME.legal(st, A) if a["type"] == "play" and a["card"] == fire]
    karaoke = st["biz"][B][0]
    assert karaoke not in targets
    refused(st, A, {"type": "play", "card": fire, "business": karaoke}, "not_visible")
    st, fire = setup(1, "fire_insurance")
    karaoke = st["biz"][B][0]
    events = play(st, A, fire, business=karaoke)
    assert "karaoke" not in st["ads"] and karaoke in st["discard"] and not st["biz"][B]
    assert st["money"][B] == 24 and not st["assets"][B]
    assert "destroyed" in types(events) and "insurance" in types(events)
    st, fire = setup(1, "lawyer", "fire_insurance")
    karaoke = st["biz"][B][0]
    events = play(st, A, fire, business=karaoke)
    assert "karaoke" in st["ads"] and [kind(a["id"]) for a in st["assets"][B]] == ["fire_insurance"]
    assert "lawyer" in types(events) and fire in st["discard"] and st["money"][B] == 10


def test_S15_price_war_and_muscle(script):
    def setup():
        st = new()
        tornado = ad(st, B, "tornado_cleaners", 1, [2, 5])
        asset(st, C, "neighbourhood_muscle", row=1)
        war = hand(st, A, "price_war")
        play(st, A, war, business=tornado)
        return st
    st = setup()
    roll(st, script, [2])
    assert st["money"][:3] == [13, 10, 11]
    st = setup()
    roll(st, script, [5])
    assert st["money"][:3] == [14, 10, 10]


def test_S16_end_conditions(script):
    # Two players, B cannot pay: A wins, and there is no auction.
    st = new(n=2, money=[10, 0])
    lux(st, B, "personal_trainer")
    events = roll(st, script, [0])
    assert st["phase"] == "over" and st["winners"] == [A] and st["end"] == "last_standing"
    assert "lot" not in types(events)
    # Three players, B and C both cannot pay: A wins.
    st = new(n=3, money=[10, 0, 0])
    lux(st, B, "personal_trainer")
    lux(st, C, "racehorse")
    roll(st, script, [0])
    assert st["winners"] == [A] and st["end"] == "last_standing"
    # Two players who both cannot pay: 1. more luxuries wins.
    st = new(n=2, money=[1, 0])
    lux(st, A, "personal_trainer", "racehorse")
    lux(st, B, "space_shuttle")
    roll(st, script, [0])
    assert st["winners"] == [A] and st["end"] == "tie_break"
    # 2. then the higher luxury total: 15 + 12 = 27 beats 18 + 6 = 24.
    st = new(n=2, money=[1, 1])
    lux(st, A, "sports_car", "personal_trainer")
    lux(st, B, "gold_bathtub", "racehorse")
    roll(st, script, [0])
    assert st["winners"] == [B] and st["end"] == "tie_break"
    # 3. then more money before the payment: 6 + 29 = 10 + 25 = 35; B had $4, A $2.
    st = new(n=2, money=[2, 4])
    lux(st, A, "personal_trainer", "ski_chalet")
    lux(st, B, "diamond_phone", "mega_yacht")
    roll(st, script, [0])
    assert st["winners"] == [B] and st["end"] == "tie_break"
    assert GAME.outcome(st).places == [2, 1]


def test_S16_tie_break_by_money_and_shared():
    st = new(n=3)
    lux(st, A, "personal_trainer")
    lux(st, B, "racehorse")
    assert resolve.tie_break(st, [A, B], {A: 5, B: 5}) == [B]
    st = new(n=3)
    st["lux"][A] = ["personal_trainer"]
    st["lux"][B] = ["personal_trainer"]  # a test-only copy to make the values equal
    assert resolve.tie_break(st, [A, B], {A: 3, B: 5}) == [B]
    assert resolve.tie_break(st, [A, B], {A: 5, B: 5}) == [A, B]


def test_S17_stale_timeout(script):
    st = new(money=[10, 10, 10, 10])
    ad(st, A, "donut_shop", 1, [1])
    st["win"] = st["turn_win"] = 6
    roll(st, script, [0])
    assert [w.id for w in GAME.windows(st)] == ["tax:7"]
    do(st, A, type="tax_decision", sell=[])
    assert st["phase"] == "turn"
    refused(st, SYSTEM, {"type": "timeout", "id": "tax:7"}, "core.error.stale_timeout")


def test_S18_reshuffle(script):
    st = new()
    a_hand = hand(st, A, "angel_investor", "angel_investor", "detour")
    rest = st["deck"]
    st["deck"], st["discard"] = rest[:1], rest[1:11]
    leftover = rest[11:]
    events = roll(st, script, [9])
    assert "reshuffle" in types(events)
    assert len(st["hands"][A]) == 5 and len(st["deck"]) == 9 and st["discard"] == []
    assert rest[0] in st["hands"][A]
    assert next(e for e in events if e["type"] == "reshuffle")["count"] == 10
    del a_hand, leftover


def test_S19_ribbon_cutting():
    def setup(money):
        st = new(page=2, money=[money, 10, 10, 10])
        ad(st, B, "donut_shop", 1, [3])
        rc, tornado = hand(st, A, "ribbon_cutting", "tornado_cleaners")
        return st, rc, tornado
    st, rc, tornado = setup(11)
    play(st, A, rc, business=tornado, slots=[3, 6])
    assert st["money"][:2] == [0, 12] and st["turn"]["actions"] == 1
    assert tornado in st["biz"][A] and rc in st["discard"]
    st, rc, tornado = setup(10)
    opts = [a["slots"] for a in GAME.legal(st, A) if a.get("card") == rc and a["type"] == "play"]
    assert [3, 6] not in opts and [1, 4] in opts
    refused(st, A, {"type": "play", "card": rc, "business": tornado, "slots": [3, 6]}, "cant_afford")


def test_S20_moving_day():
    st = new(page=3)
    donut = ad(st, A, "donut_shop", 1, [5])
    ad(st, B, "tattoo_parlour", 2, [1])
    move = hand(st, A, "moving_day")
    play(st, A, move, business=donut, slots=[1])
    assert st["money"][:2] == [8, 12]
    assert st["binder"][0][4] is None and st["binder"][2][0] == "donut_shop"
    assert donut in st["biz"][A] and st["ads"]["donut_shop"]["page"] == 3

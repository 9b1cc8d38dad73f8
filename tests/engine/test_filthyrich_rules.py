"""Filthy Rich: every worked example of the digest (R1-R3, S1-S20), every card's effect, and
refusals that leave the state unchanged. Seats: A=0 (Andrea), B=1 (Murphy), C=2, D=3.

Dice are scripted by replacing the rules' `Chance` with `Script`, so each test states the roll
it describes; everything else runs through `GAME.apply` as in play."""

from __future__ import annotations

import json
import random

import pytest

from engine.core import SYSTEM, RuleError
from engine.filthyrich import GAME, binder as bd, plays, resolve, table as tbl
from engine.filthyrich.data import BUSINESSES, DECK, kind

A, B, C, D = 0, 1, 2, 3


# -- helpers -----------------------------------------------------------------------------------


class Script:
    """Stands in for engine.core.Chance: business dice, page dice and other rolls from queues."""

    def __init__(self, dice=(), page_die=(5,), ints=()):
        self.dice_q = list(dice)
        self.page_q = list(page_die)
        self.ints = list(ints)
        self.rng = random.Random(0)

    def __call__(self, box):  # used as the Chance class: Chance(state["chance"])
        return self

    def dice(self, n, sides):
        assert sides == 10
        out, self.dice_q = self.dice_q[:n], self.dice_q[n:]
        assert len(out) == n, f"script has too few dice for {n}"
        return [d + 1 for d in out]  # the rules turn 1..10 into faces 0..9

    def die(self, sides):
        return self.page_q.pop(0) if self.page_q else 5

    def randint(self, lo, hi):
        return self.ints.pop(0) if self.ints else lo

    def shuffle(self, items):
        self.rng.shuffle(items)


@pytest.fixture
def script(monkeypatch):
    def install(**kw):
        s = Script(**kw)
        for mod in (resolve, plays, tbl):
            monkeypatch.setattr(mod, "Chance", s)
        return s
    return install


def new(n=4, page=1, money=None, active=A):
    st = GAME.setup(n, 11)
    for s in range(n):
        st["deck"] += st["hands"][s]
        st["hands"][s] = []
    st["active"] = st["start"] = active
    st["page"] = page
    st["money"] = list(money) if money else [10] * n
    return st


def take(st, k):
    for pile in (st["deck"], st["discard"]):
        for c in pile:
            if kind(c) == k:
                pile.remove(c)
                return c
    raise AssertionError(f"no free {k}")


def hand(st, seat, *kinds):
    ids = [take(st, k) for k in kinds]
    st["hands"][seat] += ids
    return ids if len(ids) != 1 else ids[0]


def ad(st, seat, k, page, slots):
    cid = take(st, k)
    st["biz"][seat].append(cid)
    sign = BUSINESSES[k]["sign"]
    bd.place(st["binder"], page, slots, sign)
    st["ads"][sign] = {"card": cid, "owner": seat, "page": page, "slots": sorted(slots)}
    return cid


def asset(st, seat, k, row=None, turn=0):
    cid = take(st, k)
    st["assets"][seat].append({"id": cid, "row": row, "turn": turn})
    return cid


def lux(st, seat, *xs):
    for x in xs:
        st["market"].remove(x)
        st["lux"][seat].append(x)


def dump(st):
    return json.dumps(st, sort_keys=True)


def do(st, seat, **action):
    return GAME.apply(st, seat, action)


def play(st, seat, card, **fields):
    return GAME.apply(st, seat, {"type": "play", "card": card, **fields})


def types(events):
    return [e["type"] for e in events]


def ready_to_roll(st):
    st["turn"]["actions"] = 0
    st["turn"]["acted"] = True


def roll(st, script, dice, page_die=5, ints=()):
    script(dice=dice, page_die=[page_die], ints=ints)
    ready_to_roll(st)
    return do(st, st["active"], type="roll")


def refused(st, seat, action, key=None):
    before = dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, seat, action)
    assert dump(st) == before
    if key:
        assert err.value.key == key, err.value.key
    return err.value


def placements_of(st, seat, card):
    return [a["slots"] for a in GAME.legal(st, seat) if a["type"] == "play" and a["card"] == card]


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


# -- turn structure and refusals ---------------------------------------------------------------


def test_luxuries_only_before_the_first_action_and_several_per_turn():
    st = new(money=[30, 10, 10, 10])
    angel = hand(st, A, "angel_investor", "angel_investor")[0]
    do(st, A, type="buy_luxury", luxury="personal_trainer")
    do(st, A, type="buy_luxury", luxury="diamond_phone")
    assert st["money"][A] == 14 and st["lux"][A] == ["personal_trainer", "diamond_phone"]
    play(st, A, angel)
    refused(st, A, {"type": "buy_luxury", "luxury": "entourage"}, "buy_first")
    assert not [a for a in GAME.legal(st, A) if a["type"] == "buy_luxury"]


def test_third_luxury_wins_at_once():
    st = new(money=[30, 10, 10, 10])
    lux(st, A, "personal_trainer", "entourage")
    events = do(st, A, type="buy_luxury", luxury="racehorse")
    assert st["phase"] == "over" and st["winners"] == [A] and GAME.legal(st, B) == []
    assert events[-1]["type"] == "win"
    refused(st, A, {"type": "roll"}, "core.error.game_over")


def test_selling_is_free_and_before_the_roll_only(script):
    st = new()
    donut = ad(st, A, "donut_shop", 1, [1])
    hand(st, A, "angel_investor")
    do(st, A, type="sell", business=donut)
    assert st["money"][A] == 12 and st["turn"]["actions"] == 2
    st = new()
    ad(st, B, "donut_shop", 1, [1])
    refused(st, B, {"type": "sell", "business": st["biz"][B][0]}, "not_your_turn")
    refused(st, A, {"type": "sell", "business": st["biz"][B][0]}, "not_yours")


def test_tax_window_asks_every_business_owner_and_pays_after(script):
    st = new(money=[10, 10, 10, 10])
    ad(st, B, "donut_shop", 1, [1])
    ad(st, D, "tattoo_parlour", 1, [2])
    lux(st, C, "personal_trainer")
    roll(st, script, [0])
    assert st["phase"] == "tax" and sorted(st["tax"]["pending"]) == [B, D]
    assert sorted(GAME.to_act(st)) == [B, D]
    win = GAME.windows(st)[0]
    assert win.kind == "tax" and sorted(win.seats) == [B, D]
    do(st, D, type="tax_decision", sell=[])
    assert st["money"] == [10, 10, 10, 10]  # nobody pays before the window closes
    refused(st, D, {"type": "tax_decision", "sell": []}, "not_asked")
    refused(st, B, {"type": "tax_decision", "sell": ["hotel#1"]}, "not_yours")
    refused(st, B, {"type": "tax_decision", "sell": "x"}, "bad_field")
    refused(st, B, {"type": "roll"}, "not_now")
    do(st, B, type="tax_decision", sell=[])
    assert st["money"] == [10, 9, 9, 9] and st["phase"] == "turn" and st["active"] == B


def test_tax_window_legal_lists_subsets():
    st = new()
    for k, slot in (("donut_shop", 1), ("tattoo_parlour", 2), ("pawn_shop", 3)):
        ad(st, B, k, 1, [slot])
    st["phase"] = "tax"
    st["tax"] = {"kind": "tax", "zeros": 1, "scope": [0, 1, 2, 3], "pending": [B], "answered": []}
    assert len(GAME.legal(st, B)) == 8


def test_turn_timeout_discards_then_rolls(script):
    st = new()
    cards = hand(st, A, "angel_investor", "overtime", "detour")
    script(dice=[9])
    events = GAME.apply(st, SYSTEM, {"type": "timeout", "id": GAME.windows(st)[0].id})
    assert [e["card"] for e in events if e["type"] == "discard"] == ["angel_investor", "overtime"]
    assert st["money"][A] == 12 and cards[2] in st["hands"][A] and st["active"] == B


def test_auction_timeout_passes(script):
    st = new(money=[20, 20, 0, 20])
    lux(st, C, "personal_trainer")
    roll(st, script, [0])
    assert st["auction"]["seat"] == D
    events = GAME.apply(st, SYSTEM, {"type": "timeout", "id": GAME.windows(st)[0].id})
    assert "pass" in types(events) and st["auction"]["seat"] == A


def test_auction_bid_refusals(script):
    st = new(money=[20, 20, 0, 7])
    lux(st, C, "personal_trainer")
    roll(st, script, [0])
    refused(st, D, {"type": "bid", "amount": 5}, "bid_too_low")
    refused(st, D, {"type": "bid", "amount": 8}, "bid_too_high")
    refused(st, A, {"type": "bid", "amount": 6}, "not_your_bid")
    refused(st, D, {"type": "bid", "amount": "6"}, "bad_field")
    legal = GAME.legal(st, D)
    assert legal == [{"type": "pass"}, {"type": "bid", "amount": 6}, {"type": "bid", "amount": 7}]


def test_simultaneous_bankruptcies_run_in_seat_order_from_active(script):
    st = new(n=5, money=[10, 0, 10, 0, 10], active=C)
    lux(st, B, "racehorse")
    lux(st, D, "personal_trainer")
    events = roll(st, script, [0])
    broke = [e["seat"] for e in events if e["type"] == "bankrupt"]
    assert broke == [D, B]
    lots = [e["luxury"] for e in events if e["type"] == "lot"]
    assert lots[0] == "personal_trainer"
    # The personal_trainer from D: bidding starts at D's left (E = 4).
    assert st["auction"]["order"] == [4, A, C]


def test_refusals_leave_the_state_unchanged():
    st = new()
    card = hand(st, A, "angel_investor")
    refused(st, B, {"type": "play", "card": card}, "not_your_turn")
    refused(st, A, {"type": "play", "card": "angel_investor#99"}, "not_in_hand")
    refused(st, A, {"type": "play", "card": 5}, "bad_field")
    refused(st, A, {"type": "discard", "card": None}, "bad_field")
    refused(st, A, {"type": "buy_luxury", "luxury": "castle"}, "not_in_market")
    refused(st, A, {"type": "buy_luxury", "luxury": "space_shuttle"}, "cant_afford")
    refused(st, A, {"type": "roll"}, "actions_left")
    refused(st, A, {"type": "tax_decision", "sell": []}, "not_now")
    refused(st, A, {"type": "bid", "amount": 3}, "not_now")
    refused(st, A, {"type": "dance"}, "core.error.bad_action")
    refused(st, A, {"type": "timeout", "id": "turn:1"}, "core.error.not_allowed")
    refused(st, SYSTEM, {"type": "timeout", "id": "turn:0"}, "core.error.stale_timeout")
    refused(st, SYSTEM, {"type": "roll"}, "core.error.not_allowed")
    refused(st, 9, {"type": "roll"}, "core.error.not_allowed")
    tornado = hand(st, A, "tornado_cleaners")
    refused(st, A, {"type": "play", "card": tornado, "slots": [1, 2]}, "bad_slots")
    refused(st, A, {"type": "play", "card": tornado, "slots": [1, 1]}, "bad_field")
    refused(st, A, {"type": "play", "card": tornado, "slots": "1,4"}, "bad_field")
    refused(st, A, {"type": "play", "card": tornado, "slots": [0, 3]}, "bad_field")


def test_one_sign_per_business():
    st = new(money=[30, 10, 10, 10])
    ad(st, B, "tornado_cleaners", 1, [1, 4])
    copy = "tornado_cleaners#2"  # a second card of one sign, as a data file with copies would have
    st["hands"][A].append(copy)
    assert not [a for a in GAME.legal(st, A) if a.get("card") == copy and a["type"] == "play"]
    refused(st, A, {"type": "play", "card": copy, "slots": [3, 6]}, "sign_in_binder")


def test_eliminated_seat_cannot_act(script):
    st = new(n=3, money=[10, 0, 10])
    lux(st, B, "personal_trainer")
    roll(st, script, [0])
    assert not st["alive"][B] and GAME.legal(st, B) == []
    refused(st, B, {"type": "pass"}, "eliminated")


def test_view_privacy_and_shape():
    st = new()
    mine = hand(st, A, "angel_investor", "hotel")
    hand(st, B, "detour")
    v = GAME.view(st, A)
    assert [c["id"] for c in v["private"]["hand"]] == mine
    assert v["seats"][B]["hand"] == 1 and "private" not in GAME.view(st, None)
    text = json.dumps(GAME.view(st, B))
    assert all(f'"{c}"' not in text for c in mine)
    assert "deck" not in v and v["deck_count"] == len(st["deck"])
    for key in ("title", "phase", "me", "over", "to_act", "seats", "grid", "binder", "ads", "market", "turn"):
        assert key in v


def test_data_file_is_complete_and_checked():
    from engine.filthyrich import data
    assert len(DECK) == 73 and len(set(DECK)) == 73
    assert len(data.SIGNS) == 22 and len(data.LUXURIES) == 12
    # Issue 14: 121 cards in the box = 73 + 12 luxuries + 36 sign pieces, the binder's 4 x 9.
    assert sum(b["cards"] for b in BUSINESSES.values()) == 36 == data.PAGES * data.SLOTS
    assert sum(b["copies"] for b in BUSINESSES.values()) > len(data.SIGNS)  # some trades come twice
    tc = BUSINESSES["tornado_cleaners"]  # the rulebook's own example card
    assert (tc["cost"], tc["marks"], tc["hit"], tc["shape"], tc["status"]) == (
        12, 2, {"key": "pay", "args": [4]}, "pair_v", "confirmed")
    prices = {x: data.LUXURIES[x]["price"] for x in data.LUXURY_ORDER}
    assert data.LUXURY_ORDER[0] == "personal_trainer" and prices["personal_trainer"] == 6
    assert data.LUXURY_ORDER[-1] == "space_shuttle" and prices["space_shuttle"] == 45
    for group in (data.RAW["businesses"], data.RAW["assets"], data.RAW["actions"], data.RAW["luxuries"]):
        assert all(e["status"] in ("confirmed", "house") for e in group)
    assert [len(bd.placements(s)) for s in ("single", "pair_h", "pair_v", "row3", "col3", "l3", "gamma3",
                                            "rev_l3", "square", "tee", "long_l")] == [9, 6, 6, 3, 3, 4, 4, 4, 4, 2, 2]
    assert bd.placements("pair_v")[2] == (3, 6)


# -- windows: who owes an answer, and how long they have (issue 19) -----------------------------


def test_a_turn_keeps_one_window_through_an_audit():
    """One turn is one window id (the house plans one deadline per id): an audit the active
    player causes opens the audited seat's own window, then the same turn window goes on."""
    st = new(money=[10, 3, 10, 10])
    ad(st, B, "donut_shop", 1, [1])
    visit = hand(st, A, "tax_inspector", "angel_investor")[0]
    turn = GAME.windows(st)
    assert [(w.kind, w.seats) for w in turn] == [("turn", (A,))]
    play(st, A, visit, target=B)
    audit = GAME.windows(st)
    assert [(w.kind, w.seats) for w in audit] == [("audit", (B,))] and audit[0].id != turn[0].id
    assert GAME.to_act(st) == [B]
    do(st, B, type="tax_decision", sell=[])
    assert GAME.windows(st) == turn and st["phase"] == "turn"


def test_every_seat_that_owes_an_answer_is_in_the_window(script):
    """Tax day: every business owner (and nobody else); an audit: the audited owner; an
    auction: the bidder prompted, with a new window each time the prompt comes round (a seat
    that passed is asked again, so it is a new obligation)."""
    st = new(money=[20, 20, 0, 20])
    ad(st, A, "donut_shop", 1, [3])
    ad(st, D, "tattoo_parlour", 1, [2])
    lux(st, C, "personal_trainer")
    roll(st, script, [0])
    (tax,) = GAME.windows(st)
    assert tax.kind == "tax" and sorted(tax.seats) == [A, D] == sorted(GAME.to_act(st))
    do(st, A, type="tax_decision", sell=[])
    assert GAME.windows(st)[0].seats == (D,) and GAME.windows(st)[0].id == tax.id
    do(st, D, type="tax_decision", sell=[])
    # C could not pay: the auction of the Personal Trainer starts at C's left.
    first = GAME.windows(st)[0]
    assert first.kind == "auction" and first.seats == (D,)
    do(st, D, type="pass")
    do(st, A, type="bid", amount=6)
    do(st, B, type="pass")
    again = GAME.windows(st)[0]
    assert again.seats == (D,) and again.id != first.id


def test_every_window_follows_the_pace():
    """A slow game gives each window hours (a tax, audit or auction answer decides a player's
    money: the seat-filler must not settle it while the player sleeps); a live one minutes."""
    kinds = {t.kind: t for t in GAME.timers}
    assert set(kinds) == {"turn", "tax", "audit", "auction"}
    for window in ("tax", "audit", "auction"):
        assert kinds[window].slow >= 8 * 3600, window
        assert kinds[window].live <= 5 * 60, window
    assert kinds["turn"].slow >= 24 * 3600

"""Filthy Rich: the turn's structure, refusals that leave the state unchanged, views, the data
file, and the windows of who owes an answer (issue 19)."""

from __future__ import annotations

import json

from engine.core import SYSTEM
from engine.filthyrich import GAME, binder as bd
from engine.filthyrich.data import BUSINESSES, DECK
from tests.support.filthyrich_state import A, B, C, D, new, hand, ad, lux, do, play, types, roll, refused


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

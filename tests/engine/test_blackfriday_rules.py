"""Black Friday rules through the engine contract: set-up at every player count and the
digest's section 10 scenarios 1-15 (the end, scenario 16, and the special cards, 17, are in
test_blackfriday_end.py; turn flow, guards and timeouts in test_blackfriday_turns.py)."""

from __future__ import annotations

import json

import pytest

from engine.blackfriday import GAME
from engine.blackfriday import adjust as adjust_mod
from engine.blackfriday import data
from engine.blackfriday.prices import move, price_of, top_row, wsj_steps
from engine.core import RuleError
from tests.support.blackfriday_state import B, G, O, R, Y, act, cells, new, pass_into_adjustment, prices, set_bag, types


# -- set-up --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_counts(n):
    st = GAME.setup(n, 7)
    market_each = 2 if n == 2 else 4
    assert sum(st["market"]) == 5 * market_each + 20
    assert sum(st["bag"]) == 30  # the digest: the bag holds 30 coloured bags for any N
    assert st["bag_black"] == 0 and st["wsj"] == 9 and st["sell_black"] == [1, 2, 3]
    assert all(sum(p["bags"]) == 5 and p["money"] == 0 and p["units"] == 0 for p in st["players"])
    assert st["out"] == [5 - n if n > 2 else 5] * 5
    assert all(c == [0, 3] for c in st["cells"]) and st["level"] == 0 and st["silver"] == 0
    for c in range(5):
        total = (st["market"][c] + st["bag"][c] + sum(t[c] for t in st["sell"]) + st["out"][c]
                 + sum(p["bags"][c] for p in st["players"]))
        assert total == 25
    cards = [[c["options"] for c in p["cards"]] for p in st["players"]]
    start = st["start"]
    if n == 2:
        assert cards == [[["sell"], ["buy"]]] * 2
        assert st["phase"] == "setup"
    else:
        assert cards[start] == []
        for k in range(2, n + 1):
            assert cards[(start + k - 1) % n] == [list(data.SPECIAL_BY_SEAT[k])]


def test_two_player_setup_moves():
    st = GAME.setup(2, 3)
    first = st["start"]
    assert GAME.to_act(st) == [first]
    act(st, {"type": "setup_bag", "colour": "R"})
    assert st["active"] == 1 - first and st["phase"] == "setup"
    with pytest.raises(RuleError):
        act(st, {"type": "pass", "colour": "R"})
    act(st, {"type": "setup_bag", "colour": "R"})
    assert st["buy"][R] == 2 and st["phase"] == "turn" and st["active"] == first


def test_two_player_setup_last_bag():
    st = GAME.setup(2, 3)
    st["market"][G] = 1
    events = act(st, {"type": "setup_bag", "colour": "G"})
    assert {"type": "price", "colour": "G", "cause": "last_bag", "old": 7, "new": 8} in events


# -- section 10 scenarios ------------------------------------------------------------------


def test_scenario_01_one_black():
    st = new(4)
    set_bag(st, (1, 0, 1, 0, 0), black=1)
    events = pass_into_adjustment(st)
    assert st["silver"] == 1 and data.SILVER[st["silver"]] == 21  # silver starts at $20
    assert prices(st) == [12, 6, 12, 6, 6]
    assert st["cells"][Y] == [1, 3]
    assert st["level"] == 1 and st["wsj"] == 8
    assert st["bag_black"] == 2  # the drawn black back in the bag, plus one for the level
    assert "black_one" in types(events)
    assert {"type": "level", "level": 1, "count": 1} in events


def test_scenario_02_two_blacks():
    st = new(4)
    st["level"] = 3
    cells(st, (3, 3))
    set_bag(st, (2, 1, 0, 0, 0), black=2)
    events = pass_into_adjustment(st, "Y")
    assert st["silver"] == 2
    assert st["wsj"] == 11 and st["bag_black"] == 0
    assert prices(st) == [21, 18, 15, 15, 15]
    assert st["level"] == 3
    wsj = {e["colour"]: e["n"] for e in events if e["type"] == "wsj"}
    assert wsj == {"Y": 0, "B": -1, "R": -2, "G": -2, "O": -2}


def test_scenario_03_floor():
    st = new(4)
    st["level"] = 2
    st["cells"][Y] = [0, 0]
    seat = st["active"]
    st["players"][seat]["bags"][Y] = 2
    before = st["players"][seat]["money"]
    act(st, {"type": "sell", "bags": {"Y": 2}, "lower": "Y", "take": "Y"})
    assert st["players"][seat]["money"] == before + 8
    assert st["cells"][Y] == [0, 0] and prices(st)[Y] == 4
    cell = [0, 1]
    move(cell, *wsj_steps(-2))
    assert cell == [0, 0] and price_of(cell) == 4


@pytest.mark.parametrize("held_r, r_price", [(0, 8), (2, 9)])
def test_scenario_04_last_bag(held_r, r_price):
    st = new(4)
    st["market"] = [0, 0, 1, 1, 0]
    st["buy"] = [0, 0, held_r, 0, 0]
    seat = st["active"]
    st["players"][seat]["money"] = 7
    with pytest.raises(RuleError) as err:
        act(st, {"type": "buy", "bags": {"G": 1}, "extra": "G"})
    assert err.value.key == "bad_extra"
    events = act(st, {"type": "buy", "bags": {"G": 1}, "extra": "R"})
    assert st["players"][seat]["money"] == 0 and st["players"][seat]["bags"][G] >= 1
    assert prices(st)[G] == 8 and prices(st)[R] == r_price
    assert st["buy"][R] == held_r + 1 and st["market"] == [0, 0, 0, 0, 0]
    causes = [(e["colour"], e["cause"]) for e in events if e["type"] == "price"]
    assert ("G", "last_bag") in causes and ("R", "last_bag") in causes
    assert (("R", "third_bag") in causes) == (held_r == 2)


def test_scenario_05_third_bag():
    st = new(4)
    st["buy"] = [1, 2, 0, 0, 0]
    for p in st["players"]:
        p["money"] = 100
    events = act(st, {"type": "buy", "bags": {"B": 1}, "extra": "B"})
    assert {"type": "price", "colour": "B", "cause": "third_bag", "old": 7, "new": 8} in events
    assert st["buy"] == [1, 3, 0, 0, 0]
    set_bag(st, (0, 0, 0, 0, 0))
    events = act(st, {"type": "buy", "bags": {"B": 1}, "extra": "B"})
    assert not [e for e in events if e["type"] == "price" and e["cause"] == "third_bag"]
    assert "adjust" in types(events) and st["buy"] == [0, 0, 0, 0, 0]


def test_scenario_06_no_drop():
    st = new(4)
    st["level"] = 4
    cells(st, (2, 3))
    set_bag(st, (0, 0, 0, 0, 0))
    pass_into_adjustment(st)
    assert st["level"] == 4
    assert GAME.view(st, None)["limits"]["draw"] == 7


def test_scenario_07_skip():
    assert data.LEVELS[1][2] == 5  # level 1 draws the five bags the digest's n = 5 needs
    st = new(4)
    st["level"] = 1
    st["wsj"] = 2
    cells(st, (1, 3))
    set_bag(st, (5, 0, 0, 0, 0))
    events = pass_into_adjustment(st)
    assert st["cells"][Y] == [4, 3] and prices(st)[Y] == 34
    # One level change, one black (issue 14 #5): the skip from 1 to 4 moves one, not three.
    assert st["level"] == 4 and st["wsj"] == 1 and st["bag_black"] == 1
    assert {"type": "level", "level": 4, "count": 1} in events


def test_scenario_07_skip_with_level_one_draw():
    # Level 1 straight to level 3 is one change: one black from the WSJ stock into the bag
    # (the rulebook: "各、レベル変更した際に…1つ"), not two.
    st = new(4)
    st["level"] = 1
    cells(st, (1, 3))
    set_bag(st, (4, 0, 0, 0, 0))  # n = 4 for yellow: up 2, right 1
    events = pass_into_adjustment(st)
    assert st["cells"][Y] == [3, 4] and st["level"] == 3
    assert st["wsj"] == 8 and st["bag_black"] == 1
    assert {"type": "level", "level": 3, "count": 1} in events


def test_scenario_08_price_not_row():
    st = new(4)
    cells(st, (0, 3))
    st["cells"][Y] = [1, 0]
    st["cells"][B] = [0, 6]
    assert prices(st) == [6, 10, 7, 7, 7]
    assert top_row(st["cells"]) == 0
    events = []
    adjust_mod.raise_level(st, events)
    assert st["level"] == 0 and events == [] and st["wsj"] == 9


def test_scenario_09_edges():
    r = [5, 6]
    move(r, *wsj_steps(2))
    assert r == [7, 6] and price_of(r) == 116
    o = [9, 5]
    move(o, *wsj_steps(4))
    assert o == [9, 6] and price_of(o) == 240  # the ceiling (a 2010 report saw $208)
    move(o, *wsj_steps(4))
    assert o == [9, 6]
    st = new(4)
    cells(st, (0, 3))
    st["cells"][R] = [5, 6]
    st["cells"][O] = [9, 5]
    st["level"] = 9
    set_bag(st, (0, 0, 2, 0, 4))
    st["market"][R] = st["market"][O] = 3
    pass_into_adjustment(st, "Y")
    assert st["cells"][R] == [7, 6] and st["cells"][O] == [9, 6]


def test_scenario_10_interest():
    st = new(4)
    seat = st["active"]
    nxt = (seat + 1) % 4
    p = st["players"][nxt]
    p["units"], p["money"] = 3, 2
    set_bag(st, (0, 0, 0, 0, 0))
    events = pass_into_adjustment(st)
    p = st["players"][nxt]
    assert p["money"] == 0 and p["owed"] == 1
    public = [e for e in events if "to" not in e]
    assert {"type": "debt", "seat": nxt} in public
    assert {"type": "interest"} in public
    assert all("paid" not in e and "owed" not in e for e in public)
    assert {"type": "interest_paid", "to": [nxt], "paid": 2, "owed": 1} in events
    assert GAME.view(st, None)["seats"][nxt]["debt"] is True
    assert st["active"] == nxt
    saved = json.loads(json.dumps(st))
    for bad in ({"type": "pass", "colour": "Y"}, {"type": "buy", "bags": {"Y": 1}, "extra": "Y"}):
        with pytest.raises(RuleError) as err:
            act(st, bad)
        assert err.value.key == "owe_interest"
    assert st == saved
    st["level"] = 4  # a limit of 4 units: room for one more
    events = act(st, {"type": "subsidy", "units": 1})
    p = st["players"][nxt]
    assert p["money"] == 19 and p["owed"] == 0
    assert {"type": "debt_paid", "seat": nxt} in events
    # The other way: selling one stock at $12 leaves $11.
    st2 = saved
    st2["cells"][Y] = [1, 3]
    st2["players"][nxt]["bags"][Y] = 1
    act(st2, {"type": "sell", "bags": {"Y": 1}, "lower": "Y", "take": "Y"})
    assert st2["players"][nxt]["money"] == 11 and st2["players"][nxt]["owed"] == 0


def test_interest_unpayable_allows_only_pass():
    st = new(4)
    seat = st["active"]
    p = st["players"][seat]
    p["bags"] = [0] * 5
    p["units"], p["money"], p["owed"] = 1, 0, 3
    kinds = {a["type"] for a in GAME.legal(st, seat)}
    assert kinds == {"pass"}
    act(st, {"type": "pass", "colour": "Y"})
    assert st["players"][seat]["owed"] == 3


def test_scenario_11_purchase_count():
    st = new(4)
    st["silver"] = 10
    st["purchases"] = 7
    set_bag(st, (0, 0, 0, 0, 0))
    events = pass_into_adjustment(st)
    assert st["silver"] == 12 and data.SILVER[12] == 34 and st["purchases"] == 0
    assert {"type": "purchases", "count": 7, "steps": 2} in events


@pytest.mark.parametrize("n, sells_to_trigger", [(4, 5), (5, 6)])
def test_scenario_12_sell_tables(n, sells_to_trigger):
    st = new(n)
    for p in st["players"]:
        p["bags"] = [20] * 5
    order = []
    k = 0
    while len(order) < 4:
        k += 1
        cur = st["sell_cur"]
        table = st["sell"][cur]
        c = next(i for i in range(5) if table[i])
        colour = "YBRGO"[c]
        events = act(st, {"type": "sell", "bags": {colour: 1}, "lower": colour, "take": colour})
        if "adjust" in types(events):
            order.append((cur, k))
            k = 0
            if len(order) == 1:
                assert sum(st["sell"][0]) == 0 and st["sell_black"][0] == 0
                assert st["bag_black"] >= 1
    assert [o[0] for o in order] == [0, 1, 2, 1]
    assert all(o[1] == sells_to_trigger for o in order)
    assert st["sell_cur"] == 1
    # The second time table 2 came round it was refilled: 2 of each colour and 2 blacks.
    assert st["sell_k"] == 4


def test_sell_table_two_refill():
    st = new(4)
    st["sell_k"] = 2
    st["sell_cur"] = 2
    st["sell"][1] = [0] * 5
    st["sell_black"][1] = 0
    st["market"] = [5, 1, 0, 5, 5]
    st["bag"] = [5, 5, 5, 5, 0]
    st["wsj"] = 1
    st["bag_black"] = 3
    st["sell"][2] = [1, 1, 1, 1, 2]
    seat = st["active"]
    st["players"][seat]["bags"][O] = 1
    events = act(st, {"type": "sell", "bags": {"O": 1}, "lower": "O", "take": "O"})
    assert "adjust" in types(events)
    assert st["sell_cur"] == 1
    assert st["sell"][1] == [2, 2, 2, 2, 2]
    assert st["sell_black"][1] == 2  # one from the WSJ stock, one from the bag
    assert st["wsj"] == 0


def test_scenario_13_mixed_sell():
    st = new(4)
    st["level"] = 4
    cells(st, (3, 3), (2, 3), (3, 3), (3, 3), (3, 3))
    seat = st["active"]
    p = st["players"][seat]
    p["bags"] = [2, 1, 0, 0, 0]
    p["money"] = 0
    market = list(st["market"])
    table = list(st["sell"][0])
    act(st, {"type": "sell", "bags": {"Y": 2, "B": 1}, "lower": "B", "take": "Y"})
    assert st["players"][seat]["money"] == 68
    assert prices(st)[Y] == 25 and st["cells"][B] == [2, 2]
    assert st["sell"][0][Y] == table[Y] - 1
    assert st["market"][Y] == market[Y] + 3 and st["market"][B] == market[B] + 1


def test_scenario_14_five_players():
    st = new(5)
    st["buy"] = [1, 1, 1, 1, 0]
    for p in st["players"]:
        p["money"] = 100
    events = act(st, {"type": "buy", "bags": {"O": 1}, "extra": "O"})
    assert "adjust" not in types(events) and sum(st["buy"]) == 5
    events = act(st, {"type": "buy", "bags": {"R": 1}, "extra": "R"})
    assert "adjust" in types(events)


def test_scenario_15_missing_colour():
    st = new(4)
    st["market"][O] = 0
    set_bag(st, (0, 0, 0, 0, 0))
    st["market"][Y] = 5
    events = pass_into_adjustment(st, "Y")
    # O: n = 0 moves left to (0,2), then none in the market moves it up to (1,2) = 10, the
    # highest price, so the level check that follows finds level 1.
    assert st["cells"][O] == [1, 2] and prices(st)[O] == 10
    assert st["level"] == 1
    i_missing = next(i for i, e in enumerate(events) if e["type"] == "price" and e["cause"] == "missing")
    i_level = types(events).index("level")
    assert i_missing < i_level

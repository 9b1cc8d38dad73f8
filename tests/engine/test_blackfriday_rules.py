"""Black Friday: every scenario of the digest's section 10, each special card, set-up at every
player count, timeouts, and refusals that leave the state unchanged."""

from __future__ import annotations

import json

import pytest

from engine.blackfriday import GAME
from engine.blackfriday import adjust as adjust_mod
from engine.blackfriday import data
from engine.blackfriday.prices import move, price_of, top_row, wsj_steps
from engine.core import SYSTEM, RuleError

Y, B, R, G, O = range(5)


def new(n: int = 4, seed: int = 1) -> dict:
    st = GAME.setup(n, seed)
    while st["phase"] == "setup":
        GAME.apply(st, st["active"], GAME.legal(st, st["active"])[0])
    return st


def act(st: dict, action: dict, seat: int | None = None) -> list[dict]:
    return GAME.apply(st, st["active"] if seat is None else seat, action)


def types(events) -> list[str]:
    return [e["type"] for e in events]


def set_bag(st: dict, coloured=(0, 0, 0, 0, 0), black: int = 0) -> None:
    st["bag"] = list(coloured)
    st["bag_black"] = black


def cells(st: dict, *cell) -> None:
    st["cells"] = [list(c) for c in cell] if len(cell) == 5 else [list(cell[0]) for _ in range(5)]


def prices(st: dict) -> list[int]:
    return [price_of(c) for c in st["cells"]]


def pass_into_adjustment(st: dict, colour: str = "O") -> list[dict]:
    """Fill the silver table to one short of its trigger and pass the last bag onto it."""
    full = 6 if st["n"] == 5 else 5
    st["silver_table"] = [1, 1, 1, 1, full - 5] if colour == "O" else [0, 1, 1, 1, full - 3]
    c = "YBRGO".index(colour)
    st["silver_table"][c] = 0
    while sum(st["silver_table"]) < full - 1:
        st["silver_table"][(c + 1) % 5] += 1
    st["market"][c] = max(st["market"][c], 3)
    events = act(st, {"type": "pass", "colour": colour})
    assert "adjust" in types(events)
    return events


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


def test_scenario_16_end():
    # Two blacks: the crash moves the markers first, then silver rises one space per black
    # (the rulebook's order) and stops on 100; the game ends there, before the rest of the
    # adjustment (issue 14 #6, "100に達したら直ちに").
    st = new(4)
    st["silver"] = data.SILVER_LAST - 1
    st["level"] = 6
    set_bag(st, (4, 0, 0, 0, 0), black=2)
    events = pass_into_adjustment(st, "B")
    assert st["silver"] == data.SILVER_LAST and data.SILVER[-1] == 100
    assert st["phase"] == "over" and GAME.outcome(st) is not None
    kinds = types(events)
    assert kinds.count("wsj") == 5 and kinds.index("wsj") < kinds.index("black_crash") < kinds.index("game_end")
    assert "table_cleared" not in kinds and "purchases" not in kinds and "level" not in kinds
    assert st["wsj"] == 11 and len(st["history"]) == 2
    assert GAME.legal(st, 0) == [] and GAME.windows(st) == []


def test_end_by_one_black_before_any_marker_moves():
    # Exactly one black takes silver to 100: the game ends at once, no stock marker moves and
    # the final sale is at the prices as they stood (issue 14 #6; the rulebook moves silver
    # first, then the prices).
    st = new(4)
    st["silver"] = data.SILVER_LAST - 1
    set_bag(st, (1, 0, 1, 0, 0), black=1)
    for p in st["players"]:
        p["bags"] = [1, 0, 0, 0, 0]
    before = prices(st)
    market = list(st["market"])
    events = pass_into_adjustment(st)
    assert st["phase"] == "over" and st["end"] == "silver"
    kinds = types(events)
    assert "wsj" not in kinds and "price" not in kinds and "level" not in kinds
    assert prices(st) == before == [7, 7, 7, 7, 7]
    assert all(f["sold"] == 7 for f in st["final"])
    assert st["level"] == 0 and st["bag_black"] == 1
    # Every bag is still counted: the drawn ones were laid in the market (yellow also gets the
    # four sold in the liquidation).
    assert st["bag"] == [0] * 5
    assert st["market"][Y] == market[Y] + 1 + 4 and st["market"][R] == market[R] + 1


def test_end_by_purchases_skips_the_level_check():
    # Purchases take silver to 100 at the silver step: the level check that follows does not
    # run, so no new level card and no higher subsidy limit reach the liquidation (#7).
    st = new(4)
    st["silver"] = data.SILVER_LAST - 1
    st["purchases"] = data.PURCHASE_DIVISOR
    set_bag(st, (3, 0, 0, 0, 0))
    for p in st["players"]:
        p["bags"] = [0] * 5
    events = pass_into_adjustment(st)
    kinds = types(events)
    assert "wsj" in kinds and kinds.index("purchases") < kinds.index("game_end")
    # The draw raised yellow to a higher row, yet the level stays: the check never ran.
    assert st["cells"][Y][0] >= 1 and "level" not in kinds and st["level"] == 0
    assert all(f["subsidy"] == data.LEVELS[0][0] for f in st["final"])


def test_scenario_16_scoring():
    st = new(4)
    st["level"] = 6
    cells(st, (6, 3))
    a, b = 0, 1
    st["players"][a].update(bags=[2, 0, 0, 0, 0], units=4, money=30, silver=3, gold=1)
    st["players"][b].update(bags=[0] * 5, units=6, money=150, silver=3, gold=1)
    for s in (2, 3):
        st["players"][s].update(bags=[0] * 5, units=6, money=0, silver=0, gold=0)
    events = []
    adjust_mod.finish(st, "silver", events)
    fa, fb = st["final"][a], st["final"][b]
    # A sells 2 Y at (6,3) = $63 ($156), takes 2 units ($196) and buys 1 silver at 100.
    assert (fa["gold"], fa["silver"], fa["money"]) == (1, 4, 96)
    assert (fb["gold"], fb["silver"], fb["money"]) == (1, 4, 50)
    out = GAME.outcome(st)
    assert out.places[a] == 1 and out.places[b] == 2
    assert {"type": "final", "seat": a, "place": 1, "gold": 1, "silver": 4, "money": 96} in events


def test_scenario_17_special_card():
    st = new(4)
    start = st["start"]
    third = (start + 2) % 4
    while st["active"] != third:
        act(st, {"type": "pass", "colour": max("YBRGO", key=lambda c: st["market"]["YBRGO".index(c)])})
    p = st["players"][third]
    p["bags"][Y] = max(p["bags"][Y], 2)
    assert GAME.view(st, None)["seats"][third]["cards"] == [["pass", "sell"]]
    events = act(st, {"type": "sell", "bags": {"Y": 2}, "lower": "Y", "take": "Y"})
    assert {"type": "special", "seat": third, "option": "sell"} in events
    assert GAME.view(st, None)["seats"][third]["cards"] == []
    assert GAME.view(st, None)["seats"][third]["special"] == []


def test_special_options_by_card():
    st = new(4)
    start = st["start"]
    second = (start + 1) % 4
    act(st, {"type": "pass", "colour": "Y"})
    assert st["active"] == second
    p = st["players"][second]
    p["bags"][Y] = 2
    with pytest.raises(RuleError) as err:
        act(st, {"type": "sell", "bags": {"Y": 2}, "lower": "Y", "take": "Y"})
    assert err.value.key == "over_limit"
    # Card 2: the extra pass, a free action that leaves the main action to take.
    events = act(st, {"type": "special_pass", "colour": "R"})
    assert "special_pass" in types(events) and st["active"] == second and not st["acted"]
    assert st["players"][second]["cards"][0]["used"]
    with pytest.raises(RuleError):
        act(st, {"type": "special_pass", "colour": "R"})


def test_two_player_cards_are_separate():
    st = new(2)
    seat = st["active"]
    p = st["players"][seat]
    p["bags"][Y] = 2
    act(st, {"type": "sell", "bags": {"Y": 2}, "lower": "Y", "take": "Y"}, seat)
    assert GAME.view(st, None)["seats"][seat]["cards"] == [["buy"]]


def test_special_pass_can_trigger_before_main_action():
    st = new(4)
    second = (st["start"] + 1) % 4
    act(st, {"type": "pass", "colour": "Y"})
    st["silver_table"] = [1, 1, 1, 1, 0]
    set_bag(st, (0, 0, 0, 0, 0))
    events = act(st, {"type": "special_pass", "colour": "O"})
    assert "adjust" in types(events)
    assert st["active"] == second and not st["acted"]
    assert any(a["type"] == "pass" for a in GAME.legal(st, second))


# -- turn flow, subsidies, money ---------------------------------------------------------------


def test_main_action_keeps_turn_open():
    st = new(4)
    seat = st["active"]
    st["players"][seat]["money"] = 50
    act(st, {"type": "buy", "bags": {"Y": 1}, "extra": "Y", "end_turn": False})
    assert st["active"] == seat and st["acted"]
    assert {a["type"] for a in GAME.legal(st, seat)} <= {"subsidy", "special_pass", "end_turn"}
    with pytest.raises(RuleError) as err:
        act(st, {"type": "pass", "colour": "Y"})
    assert err.value.key == "already_acted"
    act(st, {"type": "subsidy", "units": 1})
    assert st["players"][seat]["money"] == 50 - 7 + 20
    act(st, {"type": "end_turn"})
    assert st["active"] == (seat + 1) % 4
    with pytest.raises(RuleError) as err:
        act(st, {"type": "end_turn"})
    assert err.value.key == "main_first"


def test_buy_with_subsidy_first_and_limits():
    st = new(4)
    seat = st["active"]
    with pytest.raises(RuleError) as err:
        act(st, {"type": "buy", "bags": {"Y": 1}, "extra": "Y"})
    assert err.value.key == "no_money"
    act(st, {"type": "buy", "bags": {"Y": 1}, "extra": "Y", "subsidy": 1})
    p = st["players"][seat]
    assert p["units"] == 1 and p["money"] == 13
    st2 = new(4)
    st2["players"][st2["active"]]["money"] = 100
    with pytest.raises(RuleError) as err:
        act(st2, {"type": "buy", "bags": {"Y": 1, "B": 1}, "extra": "Y"})
    assert err.value.key in ("over_limit",)
    with pytest.raises(RuleError) as err:
        act(st2, {"type": "subsidy", "units": 2})
    assert err.value.key == "subsidy_limit"


def test_silver_to_gold_at_five():
    st = new(4)
    seat = st["active"]
    p = st["players"][seat]
    p["silver"], p["money"] = 4, 20
    events = act(st, {"type": "silver", "qty": 1, "colour": "Y"})
    p = st["players"][seat]
    assert p["silver"] == 0 and p["gold"] == 1 and st["purchases"] == 1
    assert {"type": "gold", "to": [seat], "count": 1, "gold": 1} in events
    assert {"type": "silver", "seat": seat, "count": 1, "price": 20} in events


def test_price_history_kept():
    st = new(4)
    assert st["history"] == [{"prices": [7] * 5, "silver": 20, "level": 0}]
    set_bag(st, (0, 0, 0, 0, 0))
    pass_into_adjustment(st)
    assert st["history"][-1] == {"prices": [6] * 5, "silver": 20, "level": 0}
    assert GAME.view(st, None)["history"] == st["history"]


# -- guards, timeouts, refusals ------------------------------------------------------------------


def test_stall_guard_ends_the_game():
    st = new(3)
    for p in st["players"]:
        p.update(bags=[0] * 5, money=0, units=1)
    st["bag_black"] = 0
    events = []
    for _ in range(3):
        events += act(st, {"type": "pass", "colour": max("YBRGO", key=lambda c: st["market"]["YBRGO".index(c)])})
        if st["phase"] == "over":
            break
    assert st["phase"] == "over" and st["end"] == "stall" and "stall" in types(events)


def test_idle_guard_ends_a_frozen_market():
    st = new(3)
    st["market"] = [0] * 5
    st["bag_black"] = 3
    for _ in range(3):
        act(st, {"type": "pass", "colour": None})
    assert st["phase"] == "over" and st["end"] == "stall"


def test_timeout_passes_with_the_most_common_colour():
    st = new(4)
    seat = st["active"]
    st["market"] = [3, 5, 5, 1, 0]
    (win,) = GAME.windows(st)
    assert win.kind == "turn" and win.seats == (seat,)
    events = GAME.apply(st, SYSTEM, {"type": "timeout", "id": win.id})
    assert {"type": "pass", "seat": seat, "colour": "B"} in events
    assert st["active"] == (seat + 1) % 4
    with pytest.raises(RuleError) as err:
        GAME.apply(st, SYSTEM, {"type": "timeout", "id": win.id})
    assert err.value.key == "core.error.stale_timeout"


def test_timeout_settles_debt_then_sells_dearest():
    st = new(4)
    seat = st["active"]
    p = st["players"][seat]
    st["level"] = 1
    p.update(units=1, money=0, owed=30, bags=[1, 0, 2, 0, 0])
    st["cells"][R] = [1, 3]
    events = GAME.apply(st, SYSTEM, {"type": "timeout", "id": GAME.windows(st)[0].id})
    p = st["players"][seat]
    assert p["units"] == 2
    assert {"type": "sell", "seat": seat, "colour": "R", "count": 1, "price": 12} in events
    assert p["owed"] == 0 and p["money"] == 2
    assert st["active"] == (seat + 1) % 4


def test_timeout_after_main_action_ends_turn():
    st = new(4)
    seat = st["active"]
    act(st, {"type": "pass", "colour": "Y", "end_turn": False})
    GAME.apply(st, SYSTEM, {"type": "timeout", "id": GAME.windows(st)[0].id})
    assert st["active"] == (seat + 1) % 4 and not st["acted"]


def test_timeout_in_two_player_setup():
    st = GAME.setup(2, 5)
    st["market"] = [2, 2, 9, 2, 2]
    GAME.apply(st, SYSTEM, {"type": "timeout", "id": GAME.windows(st)[0].id})
    assert st["buy"][R] == 1


@pytest.mark.parametrize("seat_offset, action", [
    (1, {"type": "pass", "colour": "Y"}),
    (0, {"type": "buy", "bags": {"Y": -1}, "extra": "Y"}),
    (0, {"type": "buy", "bags": {"Q": 1}, "extra": "Y"}),
    (0, {"type": "buy", "bags": {}, "extra": "Y"}),
    (0, {"type": "buy", "bags": {"Y": True}, "extra": "Y"}),
    (0, {"type": "sell", "bags": {"Y": 99}, "lower": "Y", "take": "Y"}),
    (0, {"type": "sell", "bags": {"Y": 1}, "lower": None, "take": "Y"}),
    (0, {"type": "silver", "qty": 0, "colour": "Y"}),
    (0, {"type": "silver", "qty": "1", "colour": "Y"}),
    (0, {"type": "pass", "colour": "purple"}),
    (0, {"type": "pass", "colour": None}),
    (0, {"type": "pass", "colour": "Y", "end_turn": "no"}),
    (0, {"type": "subsidy", "units": 0}),
    (0, {"type": "subsidy", "units": 5}),
    (0, {"type": "special_pass", "colour": "Y"}),
    (0, {"type": "setup_bag", "colour": "Y"}),
    (0, {"type": "end_turn"}),
    (0, {"type": "fly"}),
])
def test_refusals_leave_state_unchanged(seat_offset, action):
    st = new(4)
    st["players"][st["active"]]["bags"][Y] = 1
    # the start player has no special card, so special_pass is refused too
    before = json.dumps(st, sort_keys=True)
    with pytest.raises(RuleError):
        GAME.apply(st, (st["active"] + seat_offset) % 4, action)
    assert json.dumps(st, sort_keys=True) == before


def test_system_and_stale_timeouts_refused():
    st = new(4)
    before = json.dumps(st, sort_keys=True)
    with pytest.raises(RuleError):
        GAME.apply(st, SYSTEM, {"type": "timeout", "id": "turn:999"})
    with pytest.raises(RuleError):
        GAME.apply(st, SYSTEM, {"type": "pass", "colour": "Y"})
    with pytest.raises(RuleError):
        GAME.apply(st, st["active"], {"type": "timeout", "id": GAME.windows(st)[0].id})
    assert json.dumps(st, sort_keys=True) == before


def test_legal_list_stays_small_at_the_top_level():
    st = new(5)
    st["level"] = 9
    seat = st["active"]
    st["players"][seat] = dict(st["players"][seat], bags=[6] * 5, money=5000,
                               cards=[{"options": ["pass", "sell", "silver", "buy"], "used": False}])
    st["players"][seat]["cards"] = [{"options": ["sell"], "used": False}, {"options": ["buy"], "used": False}]
    st["market"] = [8] * 5
    acts = GAME.legal(st, seat)
    assert len(acts) <= 2000
    # Every listed action is accepted.
    import random

    for a in random.Random(1).sample(acts, 40):
        GAME.apply(json.loads(json.dumps(st)), seat, a)
    # Follow-up choices left out of the list are still accepted.
    GAME.apply(json.loads(json.dumps(st)), seat, {"type": "sell", "bags": {"Y": 3, "B": 3}, "lower": "B", "take": "Y"})


def test_view_privacy():
    st = new(4)
    seat = st["active"]
    pub = GAME.view(st, None)
    assert "private" not in pub
    for s in pub["seats"]:
        assert set(s) == {"start", "debt", "cards", "special"}
    mine = GAME.view(st, seat)
    assert set(mine["private"]) >= {"bags", "money", "units", "owed", "silver", "gold", "cards"}
    assert "chance" not in json.dumps(pub)
    assert "bag" in pub and set(pub["bag"]) == {"size", "black"}


# -- the data file -----------------------------------------------------------------------------


def test_data_marks_and_checks(monkeypatch):
    data.check()
    assert data.RAW["price_start"]["status"] == "confirmed"
    assert data.RAW["levels"][0]["status"]["action"] == "confirmed"
    monkeypatch.setattr(data, "WSJ", {n: m for n, m in data.WSJ.items() if abs(n) < 7})
    monkeypatch.setattr(data, "WSJ_MIN", -6)
    monkeypatch.setattr(data, "WSJ_MAX", 6)
    with pytest.raises(ValueError, match="covers"):
        data.check()


def test_data_check_catches_bad_mark(monkeypatch):
    raw = json.loads(json.dumps(data.RAW))
    raw["silver_start"]["status"] = "maybe"
    monkeypatch.setattr(data, "RAW", raw)
    with pytest.raises(ValueError, match="status"):
        data.check()

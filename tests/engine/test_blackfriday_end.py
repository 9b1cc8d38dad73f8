"""Black Friday: the end of the game (the digest's scenario 16 as issue 14 #6-7 read it: the
end at 100 is immediate; the final liquidation) and the special cards (scenario 17)."""

from __future__ import annotations

import pytest

from engine.blackfriday import GAME
from engine.blackfriday import adjust as adjust_mod
from engine.blackfriday import data
from engine.core import RuleError
from tests.support.blackfriday_state import R, Y, act, cells, new, pass_into_adjustment, prices, set_bag, types


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

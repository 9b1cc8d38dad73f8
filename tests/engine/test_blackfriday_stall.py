"""Black Friday's stall guard (issue 26): the rulebook ends the game at silver 100 only, so the
engine ends it earlier only when no sequence of legal moves can move silver again. Below the
top level a stalled-looking table is alive: passes fill the silver table, adjustments move the
prices, a level change puts a WSJ black into the bag, and that black moves silver."""

from __future__ import annotations

import random

import pytest

from engine.blackfriday import GAME, data
from engine.blackfriday.stall import TOP_LEVEL, silver_can_move
from engine.core import SYSTEM
from tests.support.blackfriday_state import Y, act, cells, new, types

COLOURS = "YBRGO"


def _broke(st: dict, money: int = 0) -> None:
    """Nobody holds stock or may borrow more; `money` each."""
    for p in st["players"]:
        p.update(bags=[0] * 5, money=money, units=data.LEVELS[st["level"]][0], owed=0)


def _dead_at_top(n: int = 2) -> dict:
    """Top level, no black in the bag, nobody holds stock or can buy anything: dead."""
    st = new(n)
    st["level"] = TOP_LEVEL
    cells(st, (TOP_LEVEL, 3))
    st["bag_black"] = 0
    st["silver_table"] = [0] * 5
    st["purchases"] = 0
    _broke(st, money=data.price(data.FLOOR_CELL) - 1)
    return st


def _a_pass(st: dict) -> dict:
    """The pass a player would take: a bag of the colour the market holds most of."""
    market = st["market"]
    colour = max(range(5), key=lambda c: market[c]) if any(market) else None
    return {"type": "pass", "colour": None if colour is None else COLOURS[colour]}


def _drive(st: dict) -> dict:
    """A legal move for the active seat that only passes: a pass, or the subsidy a debt forces."""
    legal = GAME.legal(st, st["active"])
    want = _a_pass(st)
    if want in legal:
        return want
    subsidies = [a for a in legal if a["type"] == "subsidy"]
    return max(subsidies, key=lambda a: a["units"]) if subsidies else legal[0]


def test_below_the_top_level_passes_play_on_until_a_black_moves_silver():
    """Fails on the round-of-passes guard: it ended this game after one round."""
    st = new(2)
    st["level"] = 3
    cells(st, (3, 3))
    st["bag_black"] = 0
    assert st["wsj"] > 0
    _broke(st)
    silver = st["silver"]
    events: list[dict] = []
    for _ in range(600):
        events += act(st, _drive(st))
        if st["silver"] > silver or st["phase"] == "over":
            break
    kinds = types(events)
    assert "stall" not in kinds
    assert st["silver"] > silver, "passes alone never moved silver"
    # What moved it: a level change put a WSJ black into the bag, and a draw found it.
    assert any(e["type"] == "level" and e["count"] == 1 for e in events)
    assert any(e["type"] == "silver_price" and e["cause"] == "black" for e in events)


def test_a_dead_game_at_the_top_level_ends_at_the_next_turn():
    st = _dead_at_top()
    assert not silver_can_move(st)
    events = act(st, _a_pass(st))
    assert st["phase"] == "over" and st["end"] == "stall"
    assert types(events).index("stall") < types(events).index("game_end")
    assert GAME.outcome(st) is not None


@pytest.mark.parametrize("why", ["four_dollars", "black_in_bag", "purchases", "holds_stock", "below_top"])
def test_one_way_to_move_silver_keeps_the_game_alive(why):
    st = _dead_at_top()
    if why == "four_dollars":
        # Adjustments will come by passes, and an undrawn colour falls to the $4 floor.
        st["players"][1]["money"] = data.price(data.FLOOR_CELL)
    elif why == "black_in_bag":
        st["bag_black"] = 1
    elif why == "purchases":
        st["purchases"] = data.PURCHASE_DIVISOR
    elif why == "holds_stock":
        st["players"][0]["bags"][Y] = 1
    else:
        st["level"] = TOP_LEVEL - 1
        cells(st, (TOP_LEVEL - 1, 3))
        _broke(st)
    assert silver_can_move(st)
    for _ in range(2 * st["n"]):
        act(st, _drive(st))
        assert st["phase"] != "over" or st["end"] == "silver"


def test_passes_that_cannot_fill_the_silver_table_leave_only_a_stock_the_market_offers():
    """No adjustment can come by passes: silver bought would never be counted, no price can
    fall; a seat that can pay for a stock the market holds keeps the game alive."""
    st = _dead_at_top()
    st["market"] = [1, 1, 0, 0, 0]
    for p in st["players"]:
        p["money"] = data.SILVER[st["silver"]] * 2  # silver, but no stock at $180
    assert not silver_can_move(st)
    st["players"][0]["money"] = data.PRICE[TOP_LEVEL][3]
    assert silver_can_move(st)


def test_an_empty_market_is_alive_while_someone_holds_stock():
    """Fails on the old idle guard, which ended a round of empty-market passes although a
    player could sell (a sale puts bags back in the market)."""
    st = new(3)
    st["market"] = [0] * 5
    holder = (st["active"] + 1) % 3
    for s, p in enumerate(st["players"]):
        p["bags"] = [1, 0, 0, 0, 0] if s == holder else [0] * 5
    for _ in range(3):  # a full round of passes that move nothing
        act(st, {"type": "pass", "colour": None})
    assert st["phase"] == "turn"
    act(st, {"type": "pass", "colour": None})
    assert st["active"] == holder
    assert any(a["type"] == "sell" for a in GAME.legal(st, holder))


def test_an_empty_market_with_no_stock_anywhere_ends():
    st = new(3)
    st["market"] = [0] * 5
    _broke(st, money=500)  # rich, but nothing can reach a table again
    act(st, {"type": "pass", "colour": None})
    assert st["phase"] == "over" and st["end"] == "stall"


def _random_game(seed: int) -> dict:
    rng = random.Random(seed)
    st = GAME.setup(2, seed)
    for _ in range(5000):
        if GAME.outcome(st) is not None:
            return st
        if rng.random() < 0.03:
            GAME.apply(st, SYSTEM, {"type": "timeout", "id": GAME.windows(st)[0].id})
        else:
            GAME.apply(st, st["active"], rng.choice(GAME.legal(st, st["active"])))
    raise AssertionError(f"random game {seed} did not end")


def test_random_two_player_games_stall_only_when_nothing_can_move_silver():
    """The round-of-passes guard ended some of these below level 9 (19 of 200 games ended by it,
    10 of them below level 9); now a stalled end finds the top level or a frozen market, nobody
    with stock to sell, and no black in the bag."""
    ends = []
    for seed in range(60):
        st = _random_game(seed)
        ends.append(st["end"])
        if st["end"] == "stall":
            assert st["bag_black"] == 0
            assert all(f["sold"] == 0 for f in st["final"])
            assert st["level"] == TOP_LEVEL or not any(st["market"])
    assert "silver" in ends

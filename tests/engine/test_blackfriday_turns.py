"""Black Friday: turn flow, subsidies and money, timeouts, refusals that leave the state
unchanged, views, and the data file's checks."""

from __future__ import annotations

import json

import pytest

from engine.blackfriday import GAME
from engine.blackfriday import data
from engine.core import SYSTEM, RuleError
from tests.support.blackfriday_state import R, Y, act, new, pass_into_adjustment, set_bag


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
    assert st["history"][-1] == {"prices": [6] * 5, "from": [7] * 5, "silver": 20, "level": 0}
    assert GAME.view(st, None)["history"] == st["history"]


# -- timeouts, refusals ------------------------------------------------------------------------


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

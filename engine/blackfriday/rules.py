"""Black Friday: the Game. See ../../docs/ENGINE.md for the contract and
/work/shared/rules/blackfriday.md for the rules digest this follows.

Privacy (the product owner's rule, stricter than the digest's section 8): a player's holdings,
money, subsidy units, silver and gold are private. Public: the board (markers, level, silver,
purchase count, market, tables, WSJ stock, the bag's size and black count), each seat's
owed-interest flag and unused special options. Narration may show what was traded at the
public table (colours, counts, price per bag, silver quantity) but never holdings or money.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Chance, Game, Outcome, RuleError, TimerKind, Window

from . import ai as _ai
from .adjust import finish, trigger
from .board import (
    act_limit,
    convert_gold,
    holdings,
    most_in_market,
    must_settle,
    prices,
    receive,
    special_card,
    step,
    stuck_in_debt,
    sub_limit,
    subsidy_room,
    take_subsidy,
    to_table,
    use_special,
)
from .data import (
    BAG_BASE,
    BAG_PER_PLAYER,
    BAGS_PER_COLOUR,
    CIDX,
    COLOURS,
    HOLDINGS_START,
    MARKET_START,
    MARKET_START_2P,
    NC,
    SELL_BLACKS,
    SELL_COLOURED_PER_COLOUR,
    SILVER,
    SILVER_START,
    SPECIAL_2P,
    SPECIAL_BY_SEAT,
    START_CELL,
    START_MONEY,
    START_PLAYER_DRAW,
    SUBSIDY_UNIT,
    TWO_PLAYER_SETUP_MOVES,
    WSJ_STOCK_START,
)
from .legal import extra_choices, legal as _legal_actions, take_choices
from .prices import left, right
from .stall import silver_can_move
from .view import build as build_view

MAIN = ("buy", "sell", "silver", "pass")


def _int(value: Any, key: str, lo: int, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or (hi is not None and value > hi):
        raise RuleError("bad_field", field=key)
    return value


def _colour(value: Any, key: str, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or value not in CIDX:
        raise RuleError("bad_colour", field=key)
    return CIDX[value]


def _bags(value: Any) -> list[int]:
    if not isinstance(value, dict) or not value:
        raise RuleError("bad_field", field="bags")
    vec = [0] * NC
    for key, k in value.items():
        c = _colour(key, "bags")
        vec[c] = _int(k, "bags", 0, 99)
    if sum(vec) < 1:
        raise RuleError("bad_field", field="bags")
    return vec


def _end_turn_flag(action: dict) -> bool:
    value = action.get("end_turn", True)
    if not isinstance(value, bool):
        raise RuleError("bad_field", field="end_turn")
    return value


class BlackFriday(Game):
    title = "blackfriday"
    min_players = 2
    max_players = 5
    options = ()
    timers = (TimerKind("turn", 300, 86400),)

    # -- set-up ---------------------------------------------------------------------------

    def _setup(self, seats: int, seed: int, options: dict[str, Any]) -> dict:
        chance = Chance.new(seed)
        ch = Chance(chance)
        n = seats
        start = ch.randint(0, n - 1)
        market_each = MARKET_START_2P if n == 2 else MARKET_START
        bag_each = BAG_BASE + BAG_PER_PLAYER * n
        sell_each = SELL_COLOURED_PER_COLOUR
        state: dict[str, Any] = {
            "n": n,
            "chance": chance,
            "phase": "setup" if n == 2 else "turn",
            "start": start,
            "active": start,
            "turn": 1,
            "acted": False,
            "setup_left": TWO_PLAYER_SETUP_MOVES * 2 if n == 2 else 0,
            "level": 0,
            "cells": [list(START_CELL) for _ in range(NC)],
            "silver": SILVER_START,
            "purchases": 0,
            "market": [market_each] * NC,
            "bag": [bag_each] * NC,
            "bag_black": 0,
            "buy": [0] * NC,
            "silver_table": [0] * NC,
            "sell": [[sell_each] * NC for _ in range(3)],
            "sell_black": list(SELL_BLACKS),
            "sell_cur": 0,
            "sell_k": 0,
            "wsj": WSJ_STOCK_START,
            "out": [BAGS_PER_COLOUR - market_each - bag_each - 3 * sell_each] * NC,
            "players": [],
            "history": [],
            "adjustments": 0,
            "end": None,
            "final": None,
            "last_draw": None,
        }
        # Each player, clockwise from the start player, draws 5 secret bags; then the start
        # player draws 20 into the market.
        players = [None] * n
        for i in range(n):
            s = (start + i) % n
            players[s] = {"bags": self._draw(state, ch, HOLDINGS_START), "money": START_MONEY, "units": 0,
                          "owed": 0, "silver": 0, "gold": 0, "cards": self._cards(n, i)}
        state["players"] = players
        for c, k in enumerate(self._draw(state, ch, START_PLAYER_DRAW)):
            state["market"][c] += k
        state["history"].append({"prices": prices(state), "silver": SILVER[state["silver"]], "level": 0})
        return state

    @staticmethod
    def _draw(state, ch: Chance, k: int) -> list[int]:
        bag = state["bag"]
        items = [c for c in range(NC) for _ in range(bag[c])]
        got = [0] * NC
        for c in ch.sample(items, k):
            got[c] += 1
            bag[c] -= 1
        return got

    @staticmethod
    def _cards(n: int, position: int) -> list[dict]:
        """Special cards for the player `position` seats after the start player."""
        if n == 2:
            return [{"options": list(opts), "used": False} for opts in SPECIAL_2P]
        k = position + 1
        if k in SPECIAL_BY_SEAT:
            return [{"options": list(SPECIAL_BY_SEAT[k]), "used": False}]
        return []

    # -- actions ----------------------------------------------------------------------------

    def _legal(self, state: dict, seat: int) -> list[dict]:
        return _legal_actions(state, seat)

    def _apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        if state["phase"] == "over":
            raise RuleError("core.error.game_over")
        if not isinstance(seat, int) or not 0 <= seat < state["n"]:
            raise RuleError("core.error.not_allowed")
        kind = action["type"]
        handler = getattr(self, f"_do_{kind}", None)
        if handler is None:
            raise RuleError("core.error.bad_action")
        if seat != state["active"]:
            raise RuleError("not_your_turn")
        if state["phase"] == "setup" and kind != "setup_bag":
            raise RuleError("setup_first")
        if state["phase"] == "turn" and kind == "setup_bag":
            raise RuleError("wrong_phase")
        events: list[dict] = []
        handler(state, seat, action, events)
        return events

    def _main_done(self, state, seat: int, action: dict, events: list) -> None:
        """After a main action: the turn ends unless the action said end_turn: false."""
        if state["phase"] == "over":
            return
        if _end_turn_flag(action):
            self._next_turn(state, events)
        else:
            state["acted"] = True

    def _check_main(self, state, seat: int, kind: str) -> None:
        if state["acted"]:
            raise RuleError("already_acted")
        if kind in ("buy", "silver", "pass") and must_settle(state, seat):
            raise RuleError("owe_interest")
        if kind in ("buy", "silver") and stuck_in_debt(state, seat):
            raise RuleError("owe_interest")

    def _limit(self, state, seat: int, option: str, count: int, events: list) -> None:
        """Check the per-action limit; one over it spends the seat's matching special card."""
        limit = act_limit(state)
        if count <= limit:
            return
        if count == limit + 1 and special_card(state, seat, option) is not None:
            use_special(state, seat, option, events)
            return
        raise RuleError("over_limit", limit=limit)

    def _pre_subsidy(self, state, seat: int, action: dict, events: list) -> None:
        units = _int(action.get("subsidy", 0), "subsidy", 0, 99)
        if units:
            self._subsidy(state, seat, units, events)

    def _subsidy(self, state, seat: int, units: int, events: list) -> None:
        room = subsidy_room(state, seat)
        if units > room:
            raise RuleError("subsidy_limit", room=room, limit=sub_limit(state))
        take_subsidy(state, seat, units, events)

    def _do_subsidy(self, state, seat: int, action: dict, events: list) -> None:
        self._subsidy(state, seat, _int(action.get("units"), "units", 1, 99), events)

    def _do_setup_bag(self, state, seat: int, action: dict, events: list) -> None:
        market = state["market"]
        c = _colour(action.get("colour"), "colour", allow_none=not any(market))
        if c is not None:
            if market[c] <= 0:
                raise RuleError("not_in_market", colour=COLOURS[c])
            events.append({"type": "setup_bag", "seat": seat, "colour": COLOURS[c]})
            to_table(state, c, "buy", events)
        state["setup_left"] -= 1
        state["turn"] += 1
        state["active"] = (seat + 1) % state["n"]
        if state["setup_left"] <= 0:
            state["phase"] = "turn"
            state["active"] = state["start"]
            events.append({"type": "turn", "seat": state["active"]})

    def _do_buy(self, state, seat: int, action: dict, events: list) -> None:
        vec = _bags(action.get("bags"))
        self._pre_subsidy(state, seat, action, events)
        self._check_main(state, seat, "buy")
        market = state["market"]
        for c in range(NC):
            if vec[c] > market[c]:
                raise RuleError("not_in_market", colour=COLOURS[c])
        extras = extra_choices(market, vec)
        extra = _colour(action.get("extra"), "extra", allow_none=extras == [None])
        if extra not in extras:
            raise RuleError("bad_extra")
        cost = prices(state)
        total = sum(vec[c] * cost[c] for c in range(NC))
        p = state["players"][seat]
        if total > p["money"]:
            raise RuleError("no_money", cost=total, money=p["money"])
        self._limit(state, seat, "buy", sum(vec), events)
        p["money"] -= total
        before = list(market)
        for c in range(NC):
            if vec[c]:
                market[c] -= vec[c]
                p["bags"][c] += vec[c]
                events.append({"type": "buy", "seat": seat, "colour": COLOURS[c], "count": vec[c], "price": cost[c]})
        if extra is not None:
            market[extra] -= 1
            state["buy"][extra] += 1
            events.append({"type": "extra", "seat": seat, "colour": COLOURS[extra]})
        for c in range(NC):
            if before[c] > 0 and market[c] == 0:
                step(state, c, right, "last_bag", events)
        if extra is not None and state["buy"][extra] == 3:
            step(state, extra, right, "third_bag", events)
        trigger(state, "buy", seat, events)
        self._main_done(state, seat, action, events)

    def _do_sell(self, state, seat: int, action: dict, events: list) -> None:
        vec = _bags(action.get("bags"))
        self._check_main(state, seat, "sell")
        p = state["players"][seat]
        for c in range(NC):
            if vec[c] > p["bags"][c]:
                raise RuleError("not_held", colour=COLOURS[c])
        sold = [c for c in range(NC) if vec[c]]
        lower = _colour(action.get("lower"), "lower")
        if lower not in sold:
            raise RuleError("bad_lower")
        table = state["sell"][state["sell_cur"]]
        takes = take_choices(table, vec)
        take = _colour(action.get("take"), "take", allow_none=takes == [None])
        if take not in takes:
            raise RuleError("bad_take")
        self._limit(state, seat, "sell", sum(vec), events)
        cost = prices(state)
        total = 0
        for c in sold:
            p["bags"][c] -= vec[c]
            state["market"][c] += vec[c]
            total += vec[c] * cost[c]
            events.append({"type": "sell", "seat": seat, "colour": COLOURS[c], "count": vec[c], "price": cost[c]})
        receive(state, seat, total, events)
        step(state, lower, left, "sale", events)
        if take is not None:
            table[take] -= 1
            state["market"][take] += 1
            events.append({"type": "table_bag", "colour": COLOURS[take], "table": f"sell{state['sell_cur'] + 1}"})
        trigger(state, "sell", seat, events)
        self._main_done(state, seat, action, events)

    def _market_colour(self, state, action: dict) -> int | None:
        """The bag a silver buy or pass moves to the silver table (none if the market is empty)."""
        market = state["market"]
        if not any(market):
            if action.get("colour") is not None:
                raise RuleError("market_empty")
            return None
        c = _colour(action.get("colour"), "colour")
        if market[c] <= 0:
            raise RuleError("not_in_market", colour=COLOURS[c])
        return c

    def _do_silver(self, state, seat: int, action: dict, events: list) -> None:
        qty = _int(action.get("qty"), "qty", 1, 99)
        self._pre_subsidy(state, seat, action, events)
        self._check_main(state, seat, "silver")
        c = self._market_colour(state, action)
        p = state["players"][seat]
        price = SILVER[state["silver"]]
        if qty * price > p["money"]:
            raise RuleError("no_money", cost=qty * price, money=p["money"])
        self._limit(state, seat, "silver", qty, events)
        p["money"] -= qty * price
        p["silver"] += qty
        state["purchases"] += qty
        events.append({"type": "silver", "seat": seat, "count": qty, "price": price})
        convert_gold(state, seat, events)
        if c is not None:
            events.append({"type": "silver_bag", "seat": seat, "colour": COLOURS[c]})
            to_table(state, c, "silver_table", events)
        trigger(state, "silver_table", seat, events)
        self._main_done(state, seat, action, events)

    def _do_pass(self, state, seat: int, action: dict, events: list) -> None:
        self._check_main(state, seat, "pass")
        c = self._market_colour(state, action)
        _end_turn_flag(action)
        if c is None:
            events.append({"type": "pass_empty", "seat": seat})
        else:
            events.append({"type": "pass", "seat": seat, "colour": COLOURS[c]})
            to_table(state, c, "silver_table", events)
            trigger(state, "silver_table", seat, events)
        self._main_done(state, seat, action, events)

    def _do_special_pass(self, state, seat: int, action: dict, events: list) -> None:
        if special_card(state, seat, "pass") is None:
            raise RuleError("no_special")
        if must_settle(state, seat):
            raise RuleError("owe_interest")
        if not any(state["market"]):
            raise RuleError("market_empty")
        c = _colour(action.get("colour"), "colour")
        if state["market"][c] <= 0:
            raise RuleError("not_in_market", colour=COLOURS[c])
        use_special(state, seat, "pass", events)
        events.append({"type": "special_pass", "seat": seat, "colour": COLOURS[c]})
        to_table(state, c, "silver_table", events)
        trigger(state, "silver_table", seat, events)

    def _do_end_turn(self, state, seat: int, action: dict, events: list) -> None:
        if not state["acted"]:
            raise RuleError("main_first")
        self._next_turn(state, events)

    # -- turns, the stall guard, timeouts ----------------------------------------------------

    def _next_turn(self, state, events: list) -> None:
        state["acted"] = False
        state["active"] = (state["active"] + 1) % state["n"]
        state["turn"] += 1
        seat = state["active"]
        events.append({"type": "turn", "seat": seat})
        # The stall guard (issue 26): the game ends before silver reaches 100 only when no
        # sequence of legal moves can move silver again (see stall.py for which states).
        if not silver_can_move(state):
            events.append({"type": "stall"})
            finish(state, "stall", events)

    def _timeout(self, state: dict, window_id: str) -> list[dict]:
        """A turn deadline (digest section 8): settle owed interest with subsidies, then if
        still owed sell one bag of the dearest held colour; otherwise pass with a bag of the
        colour the market holds most of. The special card is never used."""
        seat = state["active"]
        events: list[dict] = [{"type": "timeout", "seat": seat}]
        if state["phase"] == "setup":
            c = most_in_market(state)
            self._do_setup_bag(state, seat, {"colour": None if c is None else COLOURS[c]}, events)
            return events
        if state["acted"]:
            self._next_turn(state, events)
            return events
        p = state["players"][seat]
        if p["owed"] > 0:
            units = min(subsidy_room(state, seat), -(-p["owed"] // SUBSIDY_UNIT))
            if units:
                take_subsidy(state, seat, units, events)
        if p["owed"] > 0 and holdings(state, seat):
            cost = prices(state)
            c = max((c for c in range(NC) if p["bags"][c]), key=lambda c: (cost[c], -c))
            table = state["sell"][state["sell_cur"]]
            take = c if table[c] else next((t for t in range(NC) if table[t]), None)
            self._do_sell(state, seat, {"type": "sell", "bags": {COLOURS[c]: 1}, "lower": COLOURS[c],
                                        "take": None if take is None else COLOURS[take]}, events)
        else:
            c = most_in_market(state)
            self._do_pass(state, seat, {"type": "pass", "colour": None if c is None else COLOURS[c]}, events)
        return events

    def windows(self, state: dict) -> list[Window]:
        if state["phase"] == "over":
            return []
        return [Window(f"turn:{state['turn']}", "turn", (state["active"],))]

    def to_act(self, state: dict) -> list[int]:
        return [] if state["phase"] == "over" else [state["active"]]

    def outcome(self, state: dict) -> Outcome | None:
        if state["phase"] != "over":
            return None
        final = state["final"]
        return Outcome(
            places=[f["place"] for f in final],
            scores=[{"gold": f["gold"], "silver": f["silver"], "money": f["money"]} for f in final],
            summary_key="result",
        )

    # -- views --------------------------------------------------------------------------------

    def _view(self, state: dict, seat: int | None) -> dict:
        return build_view(state, seat, self.title, self.to_act(state))

    def secrets(self, state: dict) -> dict[str, list[str]]:
        """Black Friday's secrets are numbers (holdings, money, units, silver, gold), which the
        harness's token check cannot see; tests/engine/test_blackfriday_random.py checks them
        with planted sentinel values instead. No string token is secret."""
        out = {str(s): [] for s in range(state["n"])}
        out["hidden"] = []
        return out

    def ai_action(self, view: dict, legal: list[dict], rng: random.Random, level: str = "strong") -> dict:
        return _ai.choose(view, legal, rng, level)


GAME = BlackFriday()

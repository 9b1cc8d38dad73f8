"""Filthy Rich: the Game. See ../../docs/ENGINE.md for the contract and
../shared/rules/filthyrich.md for the rules digest this follows.

Phases: "turn" (the active player buys, sells, repays, plays or discards, then rolls), "tax"
(the sell-or-keep window of every business owner after a roll with zeros), "audit" (the same
for one audited seat), "auction" (one bidder's bid-or-pass prompt), "over".

Privacy: hands are private (seen by their owner only); the draw pile's order and the
generator are nobody's. Money, the binder and everything in front of the players is public.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from engine.core import Chance, Game, OptionSpec, Outcome, RuleError, TimerKind, Window

from . import ai as _ai
from . import orders as _orders
from . import binder as bd
from . import plays, resolve
from .data import (
    ACTIONS_PER_TURN,
    ASSETS,
    DECK,
    DISCARD_GAIN,
    HAND_SIZE,
    LUXURIES,
    LUXURY_ORDER,
    PLAYERS_MAX,
    PLAYERS_MIN,
    SIGNS,
    START_MONEY,
    START_PAGE,
    kind,
)
from .table import assets_with, bank_pays, ev, marks, pays_bank, tax_due

TITLE = "filthyrich"
TURN_TYPES = ("buy_luxury", "sell", "repay", "play", "discard", "roll")
#: Largest answer set enumerated in full for the tax window (2^6 subsets); above it `legal`
#: lists keep / each single / sell all, and `apply` still accepts any subset.
SUBSETS_UP_TO = 6
#: Bids listed in `legal`: every amount up to this far above the minimum, then all-in.
BID_SPAN = 60


def _int(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("bad_field", field=field)
    return value


def _str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise RuleError("bad_field", field=field)
    return value


def _grid(st: dict[str, Any], page: int) -> list[dict[str, Any] | None]:
    """The open page as seen from above: for each slot, the top card's page, sign, owner, kind."""
    grid = []
    for t in bd.view(st["binder"], page):
        if t is None:
            grid.append(None)
        else:
            ad = st["ads"][t[1]]
            grid.append({"page": t[0], "sign": t[1], "owner": ad["owner"], "kind": kind(ad["card"])})
    return grid


def _public_seat(st: dict[str, Any], s: int) -> dict[str, Any]:
    """What everyone sees of a seat: all of it but the cards in its hand, which are counted."""
    return {
        "money": st["money"][s],
        "alive": st["alive"][s],
        "hand": len(st["hands"][s]),
        "businesses": list(st["biz"][s]),
        "assets": [{"id": a["id"], "kind": kind(a["id"]), "row": a["row"]} for a in st["assets"][s]],
        "luxuries": list(st["lux"][s]),
        "marks": marks(st, s),
        "tax_per_zero": tax_due(st, s, 1),
        "interest": resolve.interest_due(st, s),
    }


class _Hooks:
    """What plays.py needs from resolve.py, passed in to keep the modules acyclic."""

    audit = staticmethod(resolve.audit)
    luxury_won = staticmethod(resolve.luxury_won)


class FilthyRich(Game):
    title = TITLE
    min_players = PLAYERS_MIN
    max_players = PLAYERS_MAX
    options = (
        # Safety valve for fuzzers and very long games: after that round the game is decided
        # like a simultaneous bankruptcy (digest section 5). None = off.
        OptionSpec("round_limit", "int", None, lo=1, hi=200),
    )
    # Window lengths (seconds) for a live table and for a slow game played over days. Live:
    # a turn is a few minutes of thought; a sell-or-keep or a bid is one quick decision, and the
    # whole table waits on it. Slow: a turn waits a day. The tax, audit and auction windows
    # also decide a player's money (a sale, a bankruptcy, a luxury), so they must span a night
    # and a working day (12 h) rather than be settled by the seat-filler while the player
    # sleeps; they stay shorter than a turn because every other player waits on them.
    timers = (
        TimerKind("turn", 300, 24 * 3600),
        TimerKind("tax", 120, 12 * 3600),
        TimerKind("audit", 120, 12 * 3600),
        TimerKind("auction", 90, 12 * 3600),
    )
    order_specs = _orders.SPECS

    def _order_answer(self, state, seat, order):
        return _orders.answer(state, seat, order)


    # -- setup ------------------------------------------------------------------------------

    def _setup(self, seats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
        chance = Chance.new(seed)
        ch = Chance(chance)
        deck = list(DECK)
        ch.shuffle(deck)
        hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(seats)]
        start = ch.randint(0, seats - 1)
        return {
            "n": seats,
            "options": dict(options),
            "chance": chance,
            "deck": deck,
            "discard": [],
            "hands": hands,
            "money": [START_MONEY] * seats,
            "alive": [True] * seats,
            "out": [],
            "biz": [[] for _ in range(seats)],
            "assets": [[] for _ in range(seats)],
            "lux": [[] for _ in range(seats)],
            "market": list(LUXURY_ORDER),
            "removed": [],
            "lots": [],
            "binder": bd.empty(),
            "ads": {},
            "page": START_PAGE,
            "active": start,
            "start": start,
            "round": 1,
            "turn_no": 1,
            "phase": "turn",
            "win": 1,
            "turn_win": 1,
            "turn": resolve.new_turn_flags(ACTIONS_PER_TURN),
            "tax": None,
            "auction": None,
            "resume": None,
            "roll": None,
            "research": None,
            "winners": None,
            "end": None,
            "bank": {"in": 0, "out": 0},
        }

    # -- legal ------------------------------------------------------------------------------

    def _legal(self, st: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if not isinstance(seat, int) or not 0 <= seat < st["n"] or not st["alive"][seat]:
            return []
        ph = st["phase"]
        if ph == "turn":
            return self._turn_legal(st, seat) if seat == st["active"] else []
        if ph in ("tax", "audit"):
            if seat not in st["tax"]["pending"]:
                return []
            mine = list(st["biz"][seat])
            if len(mine) <= SUBSETS_UP_TO:
                sets = [list(c) for r in range(len(mine) + 1) for c in combinations(mine, r)]
            else:
                sets = [[]] + [[c] for c in mine] + [mine]
            return [{"type": "tax_decision", "sell": s} for s in sets]
        if ph == "auction":
            a = st["auction"]
            if seat != a["seat"]:
                return []
            money = st["money"][seat]
            top = min(money, a["min"] + BID_SPAN)
            bids = list(range(a["min"], top + 1))
            if money > top:
                bids.append(money)
            return [{"type": "pass"}] + [{"type": "bid", "amount": b} for b in bids]
        return []

    def _turn_legal(self, st: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        t = st["turn"]
        money = st["money"][seat]
        out: list[dict[str, Any]] = []
        if not t["acted"]:
            out += [{"type": "buy_luxury", "luxury": x} for x in st["market"] if LUXURIES[x]["price"] <= money]
        out += [{"type": "sell", "business": c} for c in st["biz"][seat]]
        out += [{"type": "repay", "asset": a["id"]} for a in assets_with(st, seat, "loan")
                if ASSETS[kind(a["id"])]["params"]["repay"] <= money]
        hand = st["hands"][seat]
        if t["actions"] > 0 and hand:
            for c in dict.fromkeys(hand):
                out += plays.options(st, seat, c)
            out += [{"type": "discard", "card": c} for c in dict.fromkeys(hand)]
        else:
            out.append({"type": "roll"})
        return out

    # -- apply ------------------------------------------------------------------------------

    def _apply(self, st: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < st["n"]:
            raise RuleError("core.error.not_allowed")
        if not st["alive"][seat]:
            raise RuleError("eliminated")
        kind_ = action["type"]
        events: list[dict[str, Any]] = []
        if kind_ in TURN_TYPES:
            if st["phase"] != "turn":
                raise RuleError("not_now")
            if seat != st["active"]:
                raise RuleError("not_your_turn")
            getattr(self, f"_do_{kind_}")(st, seat, action, events)
        elif kind_ == "tax_decision":
            self._do_tax_decision(st, seat, action, events)
        elif kind_ in ("bid", "pass"):
            if st["phase"] != "auction":
                raise RuleError("not_now")
            if seat != st["auction"]["seat"]:
                raise RuleError("not_your_bid")
            if kind_ == "pass":
                resolve.pass_bid(st, seat, events)
            else:
                amount = _int(action.get("amount"), "amount")
                a = st["auction"]
                if amount < a["min"]:
                    raise RuleError("bid_too_low", min=a["min"])
                if amount > st["money"][seat]:
                    raise RuleError("bid_too_high", money=st["money"][seat])
                resolve.bid(st, seat, amount, events)
        else:
            raise RuleError("core.error.bad_action")
        return events

    def _do_buy_luxury(self, st, seat, action, events) -> None:
        x = _str(action.get("luxury"), "luxury")
        if st["turn"]["acted"]:
            raise RuleError("buy_first")
        if x not in st["market"]:
            raise RuleError("not_in_market")
        price = LUXURIES[x]["price"]
        if price > st["money"][seat]:
            raise RuleError("cant_afford", need=price, money=st["money"][seat])
        e = ev("buy", seat=seat, luxury=x, price=price)
        pays_bank(st, seat, price, e)
        st["market"].remove(x)
        st["lux"][seat].append(x)
        events.append(e)
        resolve.luxury_won(st, seat, events)

    def _do_sell(self, st, seat, action, events) -> None:
        card = _str(action.get("business"), "business")
        if card not in st["biz"][seat]:
            raise RuleError("not_yours")
        resolve.sell(st, seat, card, events)

    def _do_repay(self, st, seat, action, events) -> None:
        card = _str(action.get("asset"), "asset")
        entry = next((a for a in assets_with(st, seat, "loan") if a["id"] == card), None)
        if entry is None:
            raise RuleError("not_a_loan")
        amount = ASSETS[kind(card)]["params"]["repay"]
        if amount > st["money"][seat]:
            raise RuleError("cant_afford", need=amount, money=st["money"][seat])
        e = ev("repay", seat=seat, card=kind(card), amount=amount)
        pays_bank(st, seat, amount, e)
        st["assets"][seat].remove(entry)
        st["discard"].append(card)
        events.append(e)

    def _use_action(self, st, seat) -> None:
        t = st["turn"]
        if t["actions"] <= 0:
            raise RuleError("no_actions")
        t["actions"] -= 1
        t["acted"] = True

    def _do_play(self, st, seat, action, events) -> None:
        if st["turn"]["actions"] <= 0:
            raise RuleError("no_actions")
        act = plays.check(st, seat, action)
        self._use_action(st, seat)
        plays.play(st, seat, act, events, _Hooks)

    def _do_discard(self, st, seat, action, events) -> None:
        card = _str(action.get("card"), "card")
        if card not in st["hands"][seat]:
            raise RuleError("not_in_hand")
        self._use_action(st, seat)
        self._discard(st, seat, card, events)

    def _discard(self, st, seat, card, events) -> None:
        st["hands"][seat].remove(card)
        st["discard"].append(card)
        e = ev("discard", seat=seat, card=kind(card), amount=DISCARD_GAIN)
        bank_pays(st, seat, DISCARD_GAIN, e)
        events.append(e)

    def _do_roll(self, st, seat, action, events) -> None:
        if st["turn"]["actions"] > 0 and st["hands"][seat]:
            raise RuleError("actions_left", count=st["turn"]["actions"])
        resolve.roll(st, events)

    def _do_tax_decision(self, st, seat, action, events) -> None:
        if st["phase"] not in ("tax", "audit"):
            raise RuleError("not_now")
        if seat not in st["tax"]["pending"]:
            raise RuleError("not_asked")
        sells = action.get("sell")
        if not isinstance(sells, list) or not all(isinstance(c, str) for c in sells) or len(set(sells)) != len(sells):
            raise RuleError("bad_field", field="sell")
        for c in sells:
            if c not in st["biz"][seat]:
                raise RuleError("not_yours")
        resolve.answer_tax(st, seat, sells, events)

    # -- timeouts ---------------------------------------------------------------------------

    def _timeout(self, st: dict[str, Any], window_id: str) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        ph = st["phase"]
        if ph == "turn":
            # No purchase, no sale; each remaining action discards the first card for $1.
            seat = st["active"]
            events.append(ev("timeout", kind="turn", seats=[seat]))
            while st["turn"]["actions"] > 0 and st["hands"][seat]:
                st["turn"]["actions"] -= 1
                st["turn"]["acted"] = True
                self._discard(st, seat, st["hands"][seat][0], events)
            resolve.roll(st, events)
        elif ph in ("tax", "audit"):
            tx = st["tax"]
            events.append(ev("timeout", kind=ph, seats=list(tx["pending"])))
            tx["answered"] += tx["pending"]
            tx["pending"] = []
            resolve.pay_taxes(st, events)
        elif ph == "auction":
            seat = st["auction"]["seat"]
            events.append(ev("timeout", kind="auction", seats=[seat]))
            resolve.pass_bid(st, seat, events)
        return events

    # -- windows, to_act, outcome -----------------------------------------------------------

    def windows(self, st: dict[str, Any]) -> list[Window]:
        ph = st["phase"]
        if ph == "turn":
            # One id for the whole turn, also when it resumes after an audit it caused: the
            # house plans one deadline per window id, and a turn has one deadline.
            return [Window(f"turn:{st['turn_win']}", "turn", (st["active"],))]
        if ph in ("tax", "audit"):
            return [Window(f"{ph}:{st['win']}", ph, tuple(st["tax"]["pending"]))]
        if ph == "auction":
            return [Window(f"auction:{st['win']}", "auction", (st["auction"]["seat"],))]
        return []

    def to_act(self, st: dict[str, Any]) -> list[int]:
        ws = self.windows(st)
        return list(ws[0].seats) if ws else []

    def outcome(self, st: dict[str, Any]) -> Outcome | None:
        if st["phase"] != "over":
            return None
        winners = set(st["winners"] or [])
        n = st["n"]

        def standing(s: int) -> tuple:
            lux = st["lux"][s]
            if s in winners:
                return (3, 0, 0, 0)
            if st["alive"][s]:
                return (2, len(lux), sum(LUXURIES[x]["price"] for x in lux), st["money"][s])
            return (1, st["out"].index(s) if s in st["out"] else -1, 0, 0)

        keys = [standing(s) for s in range(n)]
        places = [1 + sum(1 for o in range(n) if keys[o] > keys[s]) for s in range(n)]
        # The luxuries' printed total is the tie-break after their number (rules digest 4.3), so
        # the results show it: without it "1 luxury, $21" above "1 luxury, $24" reads wrong.
        scores = [{"money": st["money"][s], "luxuries": len(st["lux"][s]),
                   "value": sum(LUXURIES[x]["price"] for x in st["lux"][s])} for s in range(n)]
        return Outcome(places, scores, "result")

    # -- views ------------------------------------------------------------------------------

    def _view(self, st: dict[str, Any], seat: int | None) -> dict[str, Any]:
        n = st["n"]
        page = st["page"]
        grid = _grid(st, page)
        seats = [_public_seat(st, s) for s in range(n)]
        view: dict[str, Any] = {
            "title": TITLE,
            "phase": st["phase"],
            "me": seat,
            "over": st["phase"] == "over",
            "to_act": self.to_act(st),
            "window": (self.windows(st) or [None])[0] and self.windows(st)[0].id,
            "players": n,
            "active": st["active"],
            "page": page,
            "round": st["round"],
            "round_limit": st["options"].get("round_limit"),
            "turn_no": st["turn_no"],
            "binder": [list(p) for p in st["binder"]],
            "ads": {sign: {"card": ad["card"], "kind": kind(ad["card"]), "owner": ad["owner"], "page": ad["page"],
                           "slots": list(ad["slots"])} for sign, ad in st["ads"].items()},
            "grid": grid,
            "sign_pile": [s for s in SIGNS if s not in st["ads"]],
            "market": list(st["market"]),
            "removed": list(st["removed"]),
            "lots": [dict(x) for x in st["lots"]],
            "deck_count": len(st["deck"]),
            "discard": list(st["discard"]),
            "seats": seats,
            "turn": {
                "actions": st["turn"]["actions"],
                "may_buy": not st["turn"]["acted"],
                "dice": resolve.dice_count(st),
                "blitz": st["turn"]["blitz"],
                "price_war": list(st["turn"]["price_war"]),
                "greased": st["turn"]["greased"],
                "rolled": st["turn"]["rolled"],
            },
            "roll": st["roll"],
            "research": st["research"],
            "tax": None,
            "auction": None,
            "winners": st["winners"],
            "end": st["end"],
        }
        if st["tax"] is not None:
            tx = st["tax"]
            greased = st["active"] if (tx["kind"] == "tax" and st["turn"]["greased"]) else None
            view["tax"] = {
                "kind": tx["kind"],
                "zeros": tx["zeros"],
                "scope": list(tx["scope"]),
                "pending": list(tx["pending"]),
                "answered": list(tx["answered"]),
                "due": {str(s): tax_due(st, s, tx["zeros"], greased=(s == greased)) for s in tx["scope"]},
            }
        if st["auction"] is not None:
            a = st["auction"]
            view["auction"] = {"luxury": a["lux"], "from": a["from"], "order": list(a["order"]), "seat": a["seat"],
                               "min": a["min"], "high": a["high"], "high_seat": a["high_seat"]}
        if st["phase"] == "over":
            view["places"] = self.outcome(st).places
        if seat is not None and 0 <= seat < n:
            view["private"] = {"hand": [{"id": c, "kind": kind(c)} for c in st["hands"][seat]]}
        return view

    # -- AI and secrets ---------------------------------------------------------------------

    def ai_action(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
                  level: str = "strong") -> dict[str, Any]:
        return _ai.choose(view, legal, rng, level)

    def secrets(self, st: dict[str, Any]) -> dict[str, list[str]]:
        out = {str(s): list(st["hands"][s]) for s in range(st["n"])}
        out["hidden"] = list(st["deck"])
        return out


GAME = FilthyRich()

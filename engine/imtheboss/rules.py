"""I'm the Boss!: the Game. See ../../docs/ENGINE.md for the contract and
../shared/rules/imtheboss.md for the rules digest this follows (section numbers below).

Shape of a game: phase `marker` (the start player's right neighbour places the marker), then
turns: `turn_start` (deal here or roll), `moved` (deal here or draw), `discard` (above the hand
limit after a draw), and `deal` (the negotiation, where every seat may act at any time with no
window open). Travel, boss cards and recruit triples open a reaction *window* in which every
other seat must answer pass or stop; `close` opens the last call. The deal deadline, like every
deadline, is a window the bot times out.

Privacy: hands and exact money are private (others see a money bracket); the draw order and
the chance box are hidden. Card ids never leave the owner's view: the table shows clans and
kinds, and narration names kinds, never ids.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Chance, Game, OptionSpec, Outcome, RuleError, TimerKind, Window

from . import ai as _ai
from . import orders as _orders
from .close import CloseMixin
from .data import (
    CIDX,
    CLANS,
    DEAL_CARDS,
    DECK,
    HAND_INITIAL,
    HAND_LIMIT,
    HAND_LIMIT_LATE,
    LATE_FROM_CARD,
    NO_DEAL_AT,
    NSPACES,
    PLACARDS_PER_PLAYER,
    RECRUIT_SET,
    SHORT_REMOVED,
    card_sort_key,
    kind,
)
from .deal import DealMixin
from .fields import TURN_PHASES, ask_amount, clan_field, int_field, money_bracket  # noqa: F401
from .reaction import ReactionMixin
from .turn import TurnMixin
from .view import ViewMixin


class ImTheBoss(TurnMixin, DealMixin, ReactionMixin, CloseMixin, ViewMixin, Game):
    title = "imtheboss"
    min_players = 2
    max_players = 6
    options = (
        OptionSpec("two_player", "bool", True, players=(2,)),
        OptionSpec("less_cutthroat", "bool", False, players=(3, 4, 5, 6)),
        OptionSpec("turn_order_kept", "bool", False),
        OptionSpec("must_deal_at_10", "bool", False),
        OptionSpec("pay_active_only", "bool", False),
        OptionSpec("draw_by_placards", "bool", False),
        OptionSpec("no_deal_at_3", "bool", False),
        OptionSpec("hand_limit_10_late", "bool", False),
        OptionSpec("short_game", "bool", False),
    )
    timers = (
        TimerKind("marker", 600, 86400),
        TimerKind("turn", 600, 86400),
        TimerKind("discard", 600, 86400),
        TimerKind("reaction", 120, 8 * 3600),
        TimerKind("last_call", 120, 8 * 3600),
        TimerKind("deal", 1800, 48 * 3600),
        # Answering the boss (an offer or a pass, issue 19): half the deal's time, so the answers
        # are in while the boss still has time to decide.
        TimerKind("offers", 900, 24 * 3600),
    )
    order_specs = _orders.SPECS

    def _order_answer(self, state, seat, order):
        return _orders.answer(state, seat, order)

    def order_scope(self, state, scope):
        return _orders.scope(state, scope)

    # == set-up ====================================================================================

    def _setup(self, seats: int, seed: int, options: dict[str, Any]) -> dict:
        n = seats
        if n == 2 and not options.get("two_player", True):
            # 7.1 is the rulebook's way to play with two; there is no other.
            raise RuleError("core.error.bad_option", option="two_player")
        opts = dict(options)
        if n != 2:
            opts["two_player"] = False
        else:
            opts["less_cutthroat"] = False
        chance = Chance.new(seed)
        ch = Chance(chance)
        # 3. placards at random; the rest are spares (4-5 players)
        order = list(CLANS)
        ch.shuffle(order)
        placards: list[int | None] = [None] * len(CLANS)
        each = PLACARDS_PER_PLAYER[n]
        for s in range(n):
            for c in order[s * each:(s + 1) * each]:
                placards[CIDX[c]] = s
        deck = list(DECK)
        ch.shuffle(deck)
        hands = []
        for _ in range(n):
            hands.append(sorted(deck[:HAND_INITIAL], key=card_sort_key))
            deck = deck[HAND_INITIAL:]
        stack = [no for no in sorted(DEAL_CARDS) if not (opts["short_game"] and no in SHORT_REMOVED)]
        start = ch.randint(0, n - 1)
        state: dict[str, Any] = {
            "n": n,
            "opts": opts,
            "shared": bool(opts["two_player"] or opts["less_cutthroat"]),
            "chance": chance,
            "phase": "marker",
            "start": start,
            "marker_seat": (start - 1) % n,
            "active": start,
            "marker": None,
            "covered": [None] * NSPACES,
            "stack": stack,
            "placards": placards,
            "hands": hands,
            "draw": deck,
            "discard": [],
            "money": [0] * n,
            "bank_paid": 0,
            "resigned": [False] * n,
            "deal": None,
            "window": None,
            "timer": None,
            "wid": 0,
            "must_deal": False,
            "cut": None,
            "deals": 0,
            "history": [],
            "last_roll": None,
            "over": False,
            "end_reason": None,
        }
        state["timer"] = {"id": self._new_id(state, "marker"), "kind": "marker"}
        return state

    @staticmethod
    def _new_id(state: dict, kind_: str) -> str:
        state["wid"] += 1
        return f"{kind_}:{state['wid']}"

    # == helpers ===================================================================================

    @staticmethod
    def _live(state: dict) -> list[int]:
        return [s for s in range(state["n"]) if not state["resigned"][s]]

    @staticmethod
    def _left(state: dict, seat: int) -> int:
        n = state["n"]
        for i in range(1, n + 1):
            s = (seat + i) % n
            if not state["resigned"][s]:
                return s
        return seat

    @staticmethod
    def hand_limit(state: dict) -> int:
        if state["opts"]["hand_limit_10_late"] and state["stack"] and state["stack"][0] >= LATE_FROM_CARD:
            return HAND_LIMIT_LATE
        return HAND_LIMIT

    @staticmethod
    def _has(state: dict, seat: int, k: str) -> str | None:
        for card in state["hands"][seat]:
            if kind(card) == k:
                return card
        return None

    @staticmethod
    def _count(state: dict, seat: int, k: str) -> int:
        return sum(1 for card in state["hands"][seat] if kind(card) == k)

    @staticmethod
    def _take(state: dict, seat: int, card: str) -> None:
        state["hands"][seat].remove(card)

    @staticmethod
    def _give(state: dict, seat: int, cards: list[str]) -> None:
        hand = state["hands"][seat]
        hand.extend(cards)
        hand.sort(key=card_sort_key)

    def _draw_cards(self, state: dict, count: int, ev: list) -> list[str]:
        """9.1: an empty draw pile is refilled from the discard pile, reshuffled."""
        got = []
        for _ in range(count):
            if not state["draw"]:
                if not state["discard"]:
                    break
                pile = state["discard"]
                state["discard"] = []
                Chance(state["chance"]).shuffle(pile)
                state["draw"] = pile
                ev.append({"type": "reshuffled", "count": len(pile)})
            got.append(state["draw"].pop(0))
        return got

    @staticmethod
    def _recruit_targets(state: dict, seat: int) -> list[str]:
        """5.5: a spare placard if any exists, else another (still playing) player's placard."""
        spares = [c for c in CLANS if state["placards"][CIDX[c]] is None]
        if spares:
            return spares
        return [c for c in CLANS if state["placards"][CIDX[c]] not in (None, seat)]

    # == legal =====================================================================================

    def _legal(self, state: dict, seat: int) -> list[dict]:
        if state["over"] or state["resigned"][seat]:
            return []
        phase = state["phase"]
        win = state["window"]
        if win is not None and win["kind"] == "reaction":
            if seat not in win["owing"]:
                return []
            out = [{"type": "pass"}]
            if self._has(state, seat, "stop"):
                out.append({"type": "stop"})
            return out
        if phase == "marker":
            if seat != state["marker_seat"]:
                return []
            return [{"type": "marker", "space": s} for s in range(NSPACES) if state["covered"][s] is None]
        if phase in ("turn_start", "moved"):
            if seat != state["active"]:
                return []
            out = []
            if self._may_deal(state, seat):
                out.append({"type": "deal_here"})
            if phase == "turn_start":
                out.append({"type": "roll"})
            elif not state["must_deal"]:
                out.append({"type": "draw"})
            return out
        if phase == "discard":
            if seat != state["active"]:
                return []
            out = []
            seen = set()
            for card in state["hands"][seat]:
                k = kind(card)
                if k not in seen:
                    seen.add(k)
                    out.append({"type": "discard", "cards": [card]})
            if self._count(state, seat, "recruit") >= RECRUIT_SET:
                out += [{"type": "recruit", "clan": c} for c in self._recruit_targets(state, seat)]
            return out
        if phase == "deal":
            return self._legal_deal(state, seat)
        return []

    def _may_deal(self, state: dict, seat: int) -> bool:
        if not state["stack"]:
            return False
        if state["opts"]["no_deal_at_3"] and len(state["hands"][seat]) <= NO_DEAL_AT:
            return False
        return True




    # == apply =====================================================================================

    def _apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        if state["over"]:
            raise RuleError("core.error.game_over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["n"]:
            raise RuleError("core.error.not_allowed")
        t = action["type"]
        handler = getattr(self, f"_do_{t}", None)
        if handler is None:
            raise RuleError("core.error.bad_action")
        if state["resigned"][seat]:
            raise RuleError("resigned")
        win = state["window"]
        if win is not None and win["kind"] == "reaction" and t not in ("pass", "stop", "resign"):
            raise RuleError("window_open")
        ev: list[dict] = []
        handler(state, seat, action, ev)
        return ev

    # -- marker and turn ---------------------------------------------------------------------------













    # -- starting a deal ---------------------------------------------------------------------------



    # -- the negotiation ---------------------------------------------------------------------------















    # -- influence cards that open a reaction window ----------------------------------------------










    # -- closing and failing -----------------------------------------------------------------------











    # -- resign (9.11) ---------------------------------------------------------------------------


    # == timeouts ==================================================================================



    def windows(self, state: dict) -> list[Window]:
        if state["over"]:
            return []
        out = []
        win = state["window"]
        if win is not None:
            out.append(Window(win["id"], win["kind"], tuple(win["owing"])))
        deal = state["deal"]
        if state["phase"] == "deal":
            if not deal["expired"]:
                # While a reaction window is open nobody offers or accepts (to_act): the deal
                # and its offers wait on it, and their clocks stand still.
                held = win is not None
                out.append(Window(deal["dl"], "deal", (deal["boss"],), held=held))
                # Everyone asked owes the boss an offer or a pass (issue 19), in a window of its
                # own with a shorter deadline than the deal's: at it, the late answer "pass".
                if deal.get("asked"):  # (they live in the deal: when it ends, they end)
                    out.append(Window(f"offers:{deal['dl']}", "offers", tuple(deal["asked"]), within=deal["dl"],
                                      held=held))
        elif win is None and state["timer"] is not None:
            t = state["timer"]
            seat = state["marker_seat"] if state["phase"] == "marker" else state["active"]
            out.append(Window(t["id"], t["kind"], (seat,)))
        return out

    def to_act(self, state: dict) -> list[int]:
        if state["over"]:
            return []
        win = state["window"]
        if win is not None:
            return sorted(win["owing"])
        if state["phase"] == "marker":
            return [state["marker_seat"]]
        if state["phase"] == "deal":
            deal = state["deal"]
            return sorted({deal["boss"], *deal.get("asked", ())})
        return [state["active"]]

    def outcome(self, state: dict) -> Outcome | None:
        if not state["over"]:
            return None
        money = state["money"]
        places: list[int | None] = []
        for s in range(state["n"]):
            if state["resigned"][s]:
                places.append(None)
            else:
                better = sum(1 for o in range(state["n"]) if not state["resigned"][o] and money[o] > money[s])
                places.append(better + 1)
        return Outcome(places, [{"money": m} for m in money], "result")

    # == views =====================================================================================




    def secrets(self, state: dict) -> dict[str, list[str]]:
        out = {str(s): list(state["hands"][s]) for s in range(state["n"])}
        out["hidden"] = list(state["draw"])
        return out

    # == the seat-filler ===========================================================================

    def ai_action(self, view: dict, legal: list[dict], rng: random.Random, level: str = "strong") -> dict | None:
        return _ai.choose(view, legal, rng, level)


GAME = ImTheBoss()

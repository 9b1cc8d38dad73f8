"""I'm the Boss!: the Game. See ../../docs/ENGINE.md for the contract and
/work/shared/rules/imtheboss.md for the rules digest this follows (section numbers below).

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
from .data import (
    CIDX,
    CLANS,
    DEAL_CARDS,
    DECK,
    DIE_SIDES,
    DRAW,
    DRAW_BY_PLACARDS,
    HAND_INITIAL,
    HAND_LIMIT,
    HAND_LIMIT_LATE,
    INVESTORS,
    KINDS,
    LATE_FROM_CARD,
    MONEY_BRACKET,
    MUST_DEAL_AT,
    NO_DEAL_AT,
    NSPACES,
    PLACARDS_PER_PLAYER,
    RECRUIT_SET,
    SHORT_REMOVED,
    SPACE_CLANS,
    SPACES,
    card_sort_key,
    kind,
)
from .table import (
    met as _met,
    accepted_srcs,
    card_src,
    covered,
    find_source,
    is_committed,
    parse_src,
    placard_src,
    publicly_impossible,
    requirements_met,
    share,
    shared_plan,
    slots,
    sources,
)

TURN_PHASES = ("turn_start", "moved", "discard")


# -- field checks (the bot forwards what players type) ------------------------------------------

def _int(value: Any, key: str, lo: int, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or (hi is not None and value > hi):
        raise RuleError("bad_field", field=key)
    return value


def _clan(value: Any, key: str = "clan") -> str:
    if not isinstance(value, str) or value not in CIDX:
        raise RuleError("bad_field", field=key)
    return value


def money_bracket(m: int) -> list[int]:
    """What others see of a player's money: $0, or a bracket [1, 9], [10, 19], [20, 29] ..."""
    if m <= 0:
        return [0, 0]
    lo = (m // MONEY_BRACKET) * MONEY_BRACKET
    return [max(lo, 1), lo + MONEY_BRACKET - 1]


def ask_amount(ask: dict, value: int) -> int:
    return ask["usd"] if "usd" in ask else ask["div"] * value


class ImTheBoss(Game):
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
    )

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

    def _legal_deal(self, state: dict, seat: int) -> list[dict]:
        deal = state["deal"]
        win = state["window"]
        boss = deal["boss"]
        srcs = sources(state)  # computed once: legal() runs for every seat at every step
        acc = accepted_srcs(deal)
        cov = {s["clan"] for s in srcs if is_committed(state, s, acc)}
        out: list[dict] = []
        last_call = win is not None and win["kind"] == "last_call"
        if last_call:
            if seat == boss:
                return [{"type": "cancel_close"}]
            if seat in win["owing"]:
                out.append({"type": "pass"})
        out += self._card_plays(state, seat, srcs, cov)
        if last_call:
            return out
        if not state["shared"] and seat != boss:
            offers = {o["src"]: o for o in deal["offers"]}
            P, D = deal["P"], deal["div"]
            for s in srcs:
                if s["owner"] != seat:
                    continue
                o = offers.get(s["src"])
                if o is not None and o["state"] != "pending":
                    continue
                src = s["src"]
                out += [{"type": "offer", "src": src, "ask": {"usd": u}} for u in range(P + 1)]
                out += [{"type": "offer", "src": src, "ask": {"div": k}} for k in range(D + 1)]
            for o in deal["offers"]:
                if o["seat"] == seat and o["state"] in ("pending", "inherited"):
                    out.append({"type": "withdraw", "offer": o["id"]})
        if seat == boss:
            total = self._accepted_total(deal)
            for o in deal["offers"]:
                if o["state"] == "pending" and o["clan"] not in cov and total + ask_amount(o["ask"], deal["value"]) <= deal["P"]:
                    out.append({"type": "accept", "offer": o["id"]})
                if o["state"] in ("pending", "inherited"):
                    out.append({"type": "decline", "offer": o["id"]})
            met = _met(deal["space"], cov)
            if met:
                out.append({"type": "close"})
            if not (state["shared"] and met):
                out.append({"type": "fail"})
        return out

    def _card_plays(self, state: dict, seat: int, srcs: list[dict], cov: set[str]) -> list[dict]:
        """Clan cards, travels, recruit triples and boss cards this seat may play in the deal."""
        deal = state["deal"]
        boss = deal["boss"]
        out: list[dict] = []
        hand = state["hands"][seat]
        if not hand:
            return out
        counts: dict[str, int] = {}
        for c in hand:
            k = c[:c.rindex("-")]
            counts[k] = counts.get(k, 0) + 1
        mine = {t["clan"] for t in deal["table"] if t["owner"] == seat}
        for c in SPACE_CLANS[deal["space"]]:
            if f"clan-{c}" in counts and c not in mine and not (seat == boss and c in cov):
                out.append({"type": "play_clan", "clan": c})
        shared = state["shared"]
        for s in srcs:
            if s["owner"] == seat and not shared:
                continue
            for colour in (s["clan"], "grey"):
                if f"travel-{colour}" in counts:
                    out.append({"type": "travel", "color": colour, "src": s["src"]})
        if counts.get("recruit", 0) >= RECRUIT_SET:
            out += [{"type": "recruit", "clan": c} for c in self._recruit_targets(state, seat)]
        if seat != boss and "boss" in counts:
            out.append({"type": "boss"})
        return out

    @staticmethod
    def _accepted_total(deal: dict) -> int:
        return sum(ask_amount(o["ask"], deal["value"]) for o in deal["offers"] if o["state"] != "pending")

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

    def _do_marker(self, state, seat, action, ev) -> None:
        if state["phase"] != "marker":
            raise RuleError("wrong_phase")
        if seat != state["marker_seat"]:
            raise RuleError("not_your_turn")
        space = _int(action.get("space"), "space", 0, NSPACES - 1)
        self._place_marker(state, seat, space, ev)

    def _place_marker(self, state, seat, space, ev) -> None:
        state["marker"] = space
        ev.append({"type": "marker_placed", "seat": seat, "space": space})
        self._start_turn(state, state["start"], ev)

    def _start_turn(self, state: dict, seat: int, ev: list) -> None:
        state["phase"] = "turn_start"
        state["active"] = seat
        state["deal"] = None
        state["window"] = None
        state["must_deal"] = bool(state["opts"]["must_deal_at_10"] and len(state["hands"][seat]) >= MUST_DEAL_AT)
        state["timer"] = {"id": self._new_id(state, "turn"), "kind": "turn"}
        ev.append({"type": "turn", "seat": seat})
        if state["must_deal"]:
            ev.append({"type": "must_deal", "seat": seat})

    def _check_turn(self, state, seat, phases) -> None:
        if state["phase"] not in phases:
            raise RuleError("wrong_phase")
        if seat != state["active"]:
            raise RuleError("not_your_turn")

    def _do_roll(self, state, seat, action, ev) -> None:
        self._check_turn(state, seat, ("turn_start",))
        self._roll(state, seat, ev)

    def _roll(self, state, seat, ev) -> None:
        r = Chance(state["chance"]).die(DIE_SIDES)
        pos = state["marker"]
        for _ in range(r):
            pos = self._next_uncovered(state, pos)
        state["marker"] = pos
        state["last_roll"] = {"seat": seat, "roll": r}
        state["phase"] = "moved"
        state["timer"] = {"id": self._new_id(state, "turn"), "kind": "turn"}
        ev.append({"type": "rolled", "seat": seat, "roll": r, "space": pos})

    @staticmethod
    def _next_uncovered(state: dict, pos: int) -> int:
        for i in range(1, NSPACES + 1):
            p = (pos + i) % NSPACES
            if state["covered"][p] is None:
                return p
        return pos

    def _do_draw(self, state, seat, action, ev) -> None:
        self._check_turn(state, seat, ("moved",))
        if state["must_deal"]:
            raise RuleError("must_deal")
        self._draw(state, seat, ev)

    def _draw(self, state, seat, ev) -> None:
        count = DRAW
        if state["opts"]["draw_by_placards"]:
            held = sum(1 for o in state["placards"] if o == seat)
            count = DRAW_BY_PLACARDS[min(held, len(DRAW_BY_PLACARDS) - 1)]
        got = self._draw_cards(state, count, ev)
        self._give(state, seat, got)
        ev.append({"type": "drew", "seat": seat, "count": len(got)})
        ev.append({"type": "drew_cards", "to": [seat], "cards": sorted((kind(c) for c in got), key=KINDS.index)})
        self._after_draw(state, seat, ev)

    def _after_draw(self, state, seat, ev) -> None:
        excess = len(state["hands"][seat]) - self.hand_limit(state)
        if excess > 0:
            state["phase"] = "discard"
            state["timer"] = {"id": self._new_id(state, "discard"), "kind": "discard"}
            ev.append({"type": "over_limit", "seat": seat, "count": excess, "limit": self.hand_limit(state)})
        else:
            self._start_turn(state, self._left(state, seat), ev)

    def _do_discard(self, state, seat, action, ev) -> None:
        self._check_turn(state, seat, ("discard",))
        cards = action.get("cards")
        excess = len(state["hands"][seat]) - self.hand_limit(state)
        if not isinstance(cards, list) or not cards or len(cards) > excess:
            raise RuleError("discard_count", count=excess)
        if len(set(c if isinstance(c, str) else repr(c) for c in cards)) != len(cards):
            raise RuleError("bad_field", field="cards")
        for c in cards:
            if not isinstance(c, str) or c not in state["hands"][seat]:
                raise RuleError("not_in_hand")
        self._discard_from_hand(state, seat, cards, ev)

    def _discard_from_hand(self, state, seat, cards, ev) -> None:
        for c in cards:
            self._take(state, seat, c)
            state["discard"].append(c)
        ev.append({"type": "discarded", "seat": seat, "count": len(cards),
                   "cards": sorted((kind(c) for c in cards), key=KINDS.index)})
        if len(state["hands"][seat]) <= self.hand_limit(state):
            self._start_turn(state, self._left(state, seat), ev)

    # -- starting a deal ---------------------------------------------------------------------------

    def _do_deal_here(self, state, seat, action, ev) -> None:
        self._check_turn(state, seat, ("turn_start", "moved"))
        if not state["stack"]:
            raise RuleError("no_deal_cards")
        if state["opts"]["no_deal_at_3"] and len(state["hands"][seat]) <= NO_DEAL_AT:
            raise RuleError("few_cards", count=NO_DEAL_AT)
        self._start_deal(state, seat, ev)

    def _start_deal(self, state, seat, ev) -> None:
        space = state["marker"]
        no = state["stack"][0]
        value = DEAL_CARDS[no]["value"]
        div = SPACES[space]["div"]
        state["phase"] = "deal"
        state["timer"] = None
        state["window"] = None
        state["deal"] = {
            "space": space,
            "starter": seat,
            "boss": seat,
            "card": no,
            "value": value,
            "div": div,
            "P": div * value,
            "table": [],
            "away": {},
            "offers": [],
            "seq": 0,
            "declined": [],
            "played": [],
            "dl": self._new_id(state, "deal"),
            "expired": False,
        }
        ev.append({"type": "deal_started", "seat": seat, "space": space, "card": no, "value": value,
                   "div": div, "proceeds": div * value})
        self._settle(state, ev)

    # -- the negotiation ---------------------------------------------------------------------------

    def _in_deal(self, state) -> dict:
        if state["phase"] != "deal":
            raise RuleError("wrong_phase")
        return state["deal"]

    def _no_last_call(self, state) -> None:
        win = state["window"]
        if win is not None and win["kind"] == "last_call":
            raise RuleError("last_call_open")

    def _card_play_start(self, state, seat) -> dict:
        """Cards may be played with no window open, or in a last call by a non-boss, which
        voids the call (6). Returns the deal."""
        deal = self._in_deal(state)
        win = state["window"]
        if win is not None and win["kind"] == "last_call" and seat == deal["boss"]:
            raise RuleError("boss_in_last_call")
        return deal

    def _void_last_call(self, state, seat, ev) -> None:
        win = state["window"]
        if win is not None and win["kind"] == "last_call":
            state["window"] = None
            ev.append({"type": "last_call_void", "seat": seat})

    def _mark_played(self, deal, seat) -> None:
        if seat not in deal["played"]:
            deal["played"].append(seat)

    def _do_play_clan(self, state, seat, action, ev) -> None:
        deal = self._card_play_start(state, seat)
        clan = _clan(action.get("clan"))
        if clan not in SPACE_CLANS[deal["space"]]:
            raise RuleError("clan_not_on_space", clan=clan)
        card = self._has(state, seat, f"clan-{clan}")
        if card is None:
            raise RuleError("no_card", card=f"clan-{clan}")
        if any(t["owner"] == seat and t["clan"] == clan for t in deal["table"]):
            raise RuleError("clan_already_played", clan=clan)
        if seat == deal["boss"] and clan in covered(state):
            raise RuleError("clan_covered", clan=clan)
        self._void_last_call(state, seat, ev)
        self._take(state, seat, card)
        deal["table"].append({"clan": clan, "owner": seat, "card": card})
        self._mark_played(deal, seat)
        ev.append({"type": "clan_played", "seat": seat, "clan": clan})
        self._settle(state, ev)

    def _parse_ask(self, deal, value) -> dict:
        if not isinstance(value, dict) or len(value) != 1:
            raise RuleError("bad_ask")
        (key, amount), = value.items()
        if key == "usd":
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                raise RuleError("bad_ask")
            if amount > deal["P"]:
                raise RuleError("ask_too_high", ask=amount, proceeds=deal["P"])
            return {"usd": amount}
        if key == "div":
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                raise RuleError("bad_ask")
            if amount > deal["div"]:
                raise RuleError("ask_too_high", ask=amount * deal["value"], proceeds=deal["P"])
            return {"div": amount}
        raise RuleError("bad_ask")

    def _do_offer(self, state, seat, action, ev) -> None:
        deal = self._in_deal(state)
        self._no_last_call(state)
        if state["shared"]:
            raise RuleError("no_offers_shared")
        if seat == deal["boss"]:
            raise RuleError("boss_cannot_offer")
        src = action.get("src")
        if parse_src(src) is None:
            raise RuleError("bad_field", field="src")
        source = find_source(state, src)
        if source is None:
            raise RuleError("not_a_source")
        if source["owner"] != seat:
            raise RuleError("not_your_source")
        ask = self._parse_ask(deal, action.get("ask"))
        for o in deal["offers"]:
            if o["src"] == src:
                if o["state"] != "pending":
                    raise RuleError("offer_locked")
                deal["offers"].remove(o)
                break
        deal["seq"] += 1
        offer = {"id": deal["seq"], "src": src, "clan": source["clan"], "kind": source["kind"], "seat": seat,
                 "ask": ask, "state": "pending"}
        deal["offers"].append(offer)
        ev.append(self._offer_event("offered", offer, deal))

    @staticmethod
    def _offer_event(type_: str, offer: dict, deal: dict, **extra) -> dict:
        ask = offer["ask"]
        e = {"type": type_ + ("_div" if "div" in ask else "_usd"), "seat": offer["seat"], "clan": offer["clan"],
             "src": offer["kind"], "usd": ask_amount(ask, deal["value"]), "offer": offer["id"]}
        if "div" in ask:
            e["div"] = ask["div"]
        e.update(extra)
        return e

    def _find_offer(self, deal, action) -> dict:
        oid = action.get("offer")
        if not isinstance(oid, int) or isinstance(oid, bool):
            raise RuleError("bad_field", field="offer")
        for o in deal["offers"]:
            if o["id"] == oid:
                return o
        raise RuleError("no_such_offer")

    def _do_withdraw(self, state, seat, action, ev) -> None:
        deal = self._in_deal(state)
        self._no_last_call(state)
        o = self._find_offer(deal, action)
        if o["seat"] != seat:
            raise RuleError("not_your_offer")
        if o["state"] == "accepted":
            raise RuleError("offer_locked")
        deal["offers"].remove(o)
        ev.append({"type": "withdrawn", "seat": seat, "clan": o["clan"], "src": o["kind"]})

    def _do_accept(self, state, seat, action, ev) -> None:
        deal = self._in_deal(state)
        self._no_last_call(state)
        if seat != deal["boss"]:
            raise RuleError("not_boss")
        o = self._find_offer(deal, action)
        if o["state"] != "pending":
            raise RuleError("not_pending")
        if o["clan"] in covered(state):
            raise RuleError("clan_covered", clan=o["clan"])
        total = self._accepted_total(deal)
        amount = ask_amount(o["ask"], deal["value"])
        if total + amount > deal["P"]:
            raise RuleError("over_proceeds", ask=amount, total=total, proceeds=deal["P"])
        o["state"] = "accepted"
        ev.append(self._offer_event("accepted", o, deal, by=seat))

    def _do_decline(self, state, seat, action, ev) -> None:
        deal = self._in_deal(state)
        self._no_last_call(state)
        if seat != deal["boss"]:
            raise RuleError("not_boss")
        o = self._find_offer(deal, action)
        if o["state"] == "accepted":
            raise RuleError("offer_locked")
        deal["offers"].remove(o)
        deal["declined"].append({"seat": o["seat"], "src": o["src"], "clan": o["clan"], "ask": o["ask"],
                                 "usd": ask_amount(o["ask"], deal["value"])})
        ev.append(self._offer_event("declined", o, deal, by=seat))
        self._settle(state, ev)

    def _void_offers(self, deal, src, ev) -> None:
        gone = [o for o in deal["offers"] if o["src"] == src]
        for o in gone:
            deal["offers"].remove(o)
            ev.append({"type": "offer_void", "seat": o["seat"], "clan": o["clan"], "src": o["kind"]})

    # -- influence cards that open a reaction window ----------------------------------------------

    def _open_reaction(self, state, seat, card: str, cards: list[str], target: str | None, ev, ctx: str,
                       target_owner: int | None = None, color: str | None = None) -> None:
        for c in cards:
            self._take(state, seat, c)
        owing = [s for s in self._live(state) if s != seat]
        state["window"] = {
            "id": self._new_id(state, "reaction"),
            "kind": "reaction",
            "by": seat,
            "card": card,
            "cards": cards,
            "target": target,
            "target_owner": target_owner,
            "color": color,
            "owing": owing,
            "passed": [],
            "ctx": ctx,
        }
        if ctx == "discard":
            state["timer"] = None
        if not owing:
            self._resolve_reaction(state, ev)

    def _do_travel(self, state, seat, action, ev) -> None:
        deal = self._card_play_start(state, seat)
        src = action.get("src")
        if parse_src(src) is None:
            raise RuleError("bad_field", field="src")
        color = action.get("color")
        if color != "grey":
            color = _clan(color, "color")
        source = find_source(state, src)
        if source is None:
            raise RuleError("not_a_source")
        if source["owner"] == seat and not state["shared"]:
            raise RuleError("travel_own")
        if color != "grey" and color != source["clan"]:
            raise RuleError("travel_colour", clan=source["clan"])
        card = self._has(state, seat, f"travel-{color}")
        if card is None:
            raise RuleError("no_card", card=f"travel-{color}")
        self._void_last_call(state, seat, ev)
        self._mark_played(deal, seat)
        ev.append({"type": "travel_played", "seat": seat, "clan": source["clan"], "src": source["kind"],
                   "to_seat": source["owner"], "card": f"travel-{color}"})
        self._open_reaction(state, seat, "travel", [card], src, ev, "deal", source["owner"], color)

    def _do_boss(self, state, seat, action, ev) -> None:
        deal = self._card_play_start(state, seat)
        if seat == deal["boss"]:
            raise RuleError("already_boss")
        card = self._has(state, seat, "boss")
        if card is None:
            raise RuleError("no_card", card="boss")
        self._void_last_call(state, seat, ev)
        self._mark_played(deal, seat)
        ev.append({"type": "boss_played", "seat": seat, "from_seat": deal["boss"]})
        self._open_reaction(state, seat, "boss", [card], None, ev, "deal", deal["boss"])

    def _do_recruit(self, state, seat, action, ev) -> None:
        phase = state["phase"]
        if phase == "discard":
            self._check_turn(state, seat, ("discard",))
            ctx = "discard"
        else:
            self._card_play_start(state, seat)
            ctx = "deal"
        clan = _clan(action.get("clan"))
        owner = state["placards"][CIDX[clan]]
        if owner == seat:
            raise RuleError("recruit_own")
        if clan not in self._recruit_targets(state, seat):
            raise RuleError("recruit_spare_first")
        cards = [c for c in state["hands"][seat] if kind(c) == "recruit"][:RECRUIT_SET]
        if len(cards) < RECRUIT_SET:
            raise RuleError("recruit_need_three", count=RECRUIT_SET)
        if ctx == "deal":
            self._void_last_call(state, seat, ev)
            self._mark_played(state["deal"], seat)
        if owner is None:
            ev.append({"type": "recruit_played_spare", "seat": seat, "clan": clan})
        else:
            ev.append({"type": "recruit_played", "seat": seat, "clan": clan, "from_seat": owner})
        self._open_reaction(state, seat, "recruit", cards, clan, ev, ctx, owner)

    def _do_pass(self, state, seat, action, ev) -> None:
        win = state["window"]
        if win is None:
            raise RuleError("no_window")
        if seat not in win["owing"]:
            raise RuleError("not_owing")
        win["owing"].remove(seat)
        win["passed"].append(seat)
        ev.append({"type": "passed", "seat": seat, "window": win["kind"]})
        if not win["owing"]:
            if win["kind"] == "reaction":
                self._resolve_reaction(state, ev)
            else:
                self._close_deal(state, ev)

    def _do_stop(self, state, seat, action, ev) -> None:
        win = state["window"]
        if win is None or win["kind"] != "reaction":
            raise RuleError("no_window")
        if seat not in win["owing"]:
            raise RuleError("not_owing")
        card = self._has(state, seat, "stop")
        if card is None:
            raise RuleError("no_card", card="stop")
        self._take(state, seat, card)
        state["discard"].extend(win["cards"])
        state["discard"].append(card)
        state["window"] = None
        ev.append({"type": "stopped", "seat": seat, "by": win["by"], "card": win["card"]})
        if win["ctx"] == "deal":
            self._mark_played(state["deal"], seat)
        self._after_reaction(state, win, ev)

    def _resolve_reaction(self, state, ev) -> None:
        """Nobody stopped the card: it acts (5.4-5.6)."""
        win = state["window"]
        state["window"] = None
        card = win["card"]
        if card == "travel":
            deal = state["deal"]
            source = find_source(state, win["target"]) if deal is not None else None
            if source is None:  # the target vanished (a seat resigned): the travel fizzles
                state["discard"].extend(win["cards"])
            elif source["kind"] == "placard":
                deal["away"][source["clan"]] = win["cards"][0]
                self._void_offers(deal, source["src"], ev)
                ev.append({"type": "travelled", "seat": win["by"], "clan": source["clan"], "src": "placard",
                           "to_seat": source["owner"]})
            else:
                entry = next(t for t in deal["table"]
                             if t["clan"] == source["clan"] and t["owner"] == source["owner"])
                deal["table"].remove(entry)
                state["discard"].append(entry["card"])
                state["discard"].extend(win["cards"])
                self._void_offers(deal, source["src"], ev)
                ev.append({"type": "travelled", "seat": win["by"], "clan": source["clan"], "src": "card",
                           "to_seat": source["owner"]})
        elif card == "boss":
            state["discard"].extend(win["cards"])
            self._change_boss(state, win["by"], ev)
        elif card == "recruit":
            state["discard"].extend(win["cards"])
            clan = win["target"]
            old = state["placards"][CIDX[clan]]
            state["placards"][CIDX[clan]] = win["by"]
            if state["deal"] is not None:
                self._void_offers(state["deal"], placard_src(clan), ev)
            if old is None:
                ev.append({"type": "recruited_spare", "seat": win["by"], "clan": clan})
            else:
                ev.append({"type": "recruited", "seat": win["by"], "clan": clan, "from_seat": old})
        self._after_reaction(state, win, ev)

    def _after_reaction(self, state, win, ev) -> None:
        if state["over"]:
            return
        if win["ctx"] == "discard":
            seat = state["active"]
            if len(state["hands"][seat]) > self.hand_limit(state):
                state["timer"] = {"id": self._new_id(state, "discard"), "kind": "discard"}
            else:
                self._start_turn(state, self._left(state, seat), ev)
            return
        if state["deal"] is not None:
            self._settle(state, ev)

    def _change_boss(self, state, seat, ev) -> None:
        """5.6: the player becomes boss; table cards and travels stay; the new boss's own
        offers are void (their sources now count by themselves); accepted offers are
        inherited; the deal deadline starts again."""
        deal = state["deal"]
        old = deal["boss"]
        deal["boss"] = seat
        for o in list(deal["offers"]):
            if o["seat"] == seat:
                deal["offers"].remove(o)
                ev.append({"type": "offer_void", "seat": seat, "clan": o["clan"], "src": o["kind"]})
            elif o["state"] == "accepted":
                o["state"] = "inherited"
        deal["dl"] = self._new_id(state, "deal")
        deal["expired"] = False
        ev.append({"type": "boss_changed", "seat": seat, "from_seat": old})

    # -- closing and failing -----------------------------------------------------------------------

    def _do_close(self, state, seat, action, ev) -> None:
        deal = self._in_deal(state)
        if state["window"] is not None:
            raise RuleError("last_call_open")
        if seat != deal["boss"]:
            raise RuleError("not_boss")
        if not requirements_met(state):
            raise RuleError("requirements_not_met")
        use = action.get("use")
        if use is not None:
            if not state["shared"]:
                raise RuleError("bad_field", field="use")
            try:
                shared_plan(state, use)
            except ValueError:
                raise RuleError("bad_use") from None
        self._open_last_call(state, ev, use)

    def _open_last_call(self, state, ev, use=None) -> None:
        deal = state["deal"]
        owing = [s for s in self._live(state) if s != deal["boss"]]
        state["window"] = {"id": self._new_id(state, "last_call"), "kind": "last_call", "by": deal["boss"],
                           "owing": owing, "passed": [], "use": use, "ctx": "deal"}
        ev.append({"type": "last_call", "seat": deal["boss"]})
        if not owing:
            self._close_deal(state, ev)

    def _do_cancel_close(self, state, seat, action, ev) -> None:
        deal = self._in_deal(state)
        win = state["window"]
        if win is None or win["kind"] != "last_call":
            raise RuleError("no_window")
        if seat != deal["boss"]:
            raise RuleError("not_boss")
        state["window"] = None
        ev.append({"type": "close_cancelled", "seat": seat})
        self._settle(state, ev)

    def _do_fail(self, state, seat, action, ev) -> None:
        deal = self._in_deal(state)
        if state["window"] is not None:
            raise RuleError("last_call_open")
        if seat != deal["boss"]:
            raise RuleError("not_boss")
        if state["shared"] and requirements_met(state):
            raise RuleError("must_close")
        self._fail_deal(state, ev, "boss")

    def _settle(self, state, ev) -> None:
        """After any change with no window open: a passed deadline takes effect, and a
        publicly impossible deal fails (9.6)."""
        if state["phase"] != "deal" or state["window"] is not None:
            return
        deal = state["deal"]
        if deal["expired"]:
            if requirements_met(state) and (not state["shared"] or self._shared_ok(state)):
                ev.append({"type": "deadline_close", "seat": deal["boss"]})
                self._open_last_call(state, ev)
            else:
                self._fail_deal(state, ev, "deadline")
            return
        if publicly_impossible(state):
            self._fail_deal(state, ev, "impossible")

    @staticmethod
    def _shared_ok(state) -> bool:
        try:
            shared_plan(state)
        except ValueError:
            return False
        return True

    def _fail_deal(self, state, ev, reason: str) -> None:
        """5.9: clan cards on the table go back to hands; other played cards are discarded;
        offers lapse; no card is placed and the marker stays."""
        deal = state["deal"]
        win = state["window"]
        if win is not None and win["kind"] == "reaction":
            state["discard"].extend(win["cards"])
        state["window"] = None
        returned = []
        for t in deal["table"]:
            if state["resigned"][t["owner"]]:
                state["discard"].append(t["card"])
            else:
                self._give(state, t["owner"], [t["card"]])
                returned.append(t["owner"])
        state["discard"].extend(deal["away"].values())
        ev.append({"type": "deal_failed", "seat": deal["boss"], "space": deal["space"], "reason": reason})
        if returned:
            ev.append({"type": "clans_returned", "seats": sorted(set(returned)), "count": len(returned)})
        self._after_deal(state, ev)

    def _close_deal(self, state, ev) -> None:
        """5.8: pay, clean the table, place the deal card, move the marker, maybe end."""
        deal = state["deal"]
        win = state["window"]
        state["window"] = None
        boss, P, v, space = deal["boss"], deal["P"], deal["value"], deal["space"]
        payments: list[tuple[int, int]] = []
        if state["shared"]:
            try:
                own_used, foreign = shared_plan(state, win.get("use") if win else None)
            except ValueError:
                own_used, foreign = shared_plan(state)
            amt = share(space, P)
            payments = [(s["owner"], amt) for s in foreign]
            used = set(own_used) | {s["src"] for s in foreign if s["kind"] == "card"}
        else:
            acc = [o for o in deal["offers"] if o["state"] != "pending"]
            payments = [(o["seat"], ask_amount(o["ask"], v)) for o in acc]
            other_cover = {s["clan"] for s in sources(state) if s["owner"] == boss and s["kind"] == "placard"}
            other_cover |= {o["clan"] for o in acc}
            used = {o["src"] for o in acc if o["kind"] == "card"}
            used |= {card_src(t["clan"], boss) for t in deal["table"]
                     if t["owner"] == boss and t["clan"] not in other_cover}
        returned = []
        for t in deal["table"]:
            if card_src(t["clan"], t["owner"]) in used or state["resigned"][t["owner"]]:
                state["discard"].append(t["card"])
            else:
                self._give(state, t["owner"], [t["card"]])
                returned.append(t["owner"])
        state["discard"].extend(deal["away"].values())
        state["money"][boss] += P
        state["bank_paid"] += P
        ev.append({"type": "deal_closed", "seat": boss, "space": space, "card": deal["card"], "proceeds": P})
        paid_to = []
        kept = P
        for payee, amount in payments:
            if state["opts"]["pay_active_only"] and payee not in deal["played"]:
                ev.append({"type": "unpaid", "seat": boss, "to_seat": payee, "usd": amount})
                continue
            state["money"][boss] -= amount
            state["money"][payee] += amount
            kept -= amount
            paid_to.append(payee)
            ev.append({"type": "paid", "seat": boss, "to_seat": payee, "usd": amount})
        ev.append({"type": "kept", "seat": boss, "usd": kept})
        if returned:
            ev.append({"type": "clans_returned", "seats": sorted(set(returned)), "count": len(returned)})
        no = state["stack"].pop(0)
        state["covered"][space] = no
        state["deals"] += 1
        state["history"].append({"space": space, "card": no, "boss": boss, "proceeds": P,
                                 "partners": sorted(set(paid_to))})
        state["marker"] = self._next_uncovered(state, space)
        ev.append({"type": "card_placed", "space": space, "card": no, "marker": state["marker"]})
        card = DEAL_CARDS[no]
        if card["end"] or not state["stack"]:
            self._end(state, ev, "last_deal")
            return
        if card["back"]:
            r = Chance(state["chance"]).die(DIE_SIDES)
            state["last_roll"] = {"seat": boss, "roll": r}
            ends = r in card["back"]
            faces = card["back"]
            ev.append({"type": "die_end" if ends else "die_safe", "seat": boss, "roll": r, "card": no,
                       "faces": f"{faces[0]}-{faces[-1]}" if len(faces) > 1 else str(faces[0])})
            if ends:
                self._end(state, ev, "die")
                return
        self._after_deal(state, ev)

    def _after_deal(self, state, ev) -> None:
        deal = state["deal"]
        state["deal"] = None
        state["window"] = None
        base = deal["starter"] if state["opts"]["turn_order_kept"] else deal["boss"]
        self._start_turn(state, self._left(state, base), ev)

    def _end(self, state, ev, reason: str) -> None:
        state["over"] = True
        state["phase"] = "over"
        state["deal"] = None
        state["window"] = None
        state["timer"] = None
        state["end_reason"] = reason
        out = self.outcome(state)
        winners = [s for s, p in enumerate(out.places) if p == 1]
        ev.append({"type": "game_over", "reason": reason, "winner": winners})

    # -- resign (9.11) ---------------------------------------------------------------------------

    def _do_resign(self, state, seat, action, ev) -> None:
        if state["resigned"][seat]:
            raise RuleError("resigned")
        state["resigned"][seat] = True
        ev.append({"type": "resigned", "seat": seat})
        for i, owner in enumerate(state["placards"]):
            if owner == seat:
                state["placards"][i] = None
        state["discard"].extend(state["hands"][seat])
        state["hands"][seat] = []
        if len(self._live(state)) < 2:
            deal = state["deal"]
            win = state["window"]
            if deal is not None:
                self._fail_deal(state, [], "resigned")
            elif win is not None and win["kind"] == "reaction":
                state["discard"].extend(win["cards"])
            self._end(state, ev, "resigned")
            return
        phase = state["phase"]
        win = state["window"]
        if phase == "deal":
            deal = state["deal"]
            if deal["boss"] == seat or (win is not None and win.get("by") == seat and win["kind"] == "reaction"):
                if deal["boss"] == seat:
                    self._fail_deal(state, ev, "resigned")
                    return
                # the card's player left: the card is cancelled
                state["discard"].extend(win["cards"])
                state["window"] = None
                win = None
            for t in [t for t in deal["table"] if t["owner"] == seat]:
                deal["table"].remove(t)
                state["discard"].append(t["card"])
            for o in [o for o in deal["offers"] if o["seat"] == seat]:
                deal["offers"].remove(o)
            if win is not None and seat in win["owing"]:
                win["owing"].remove(seat)
                if not win["owing"]:
                    if win["kind"] == "reaction":
                        self._resolve_reaction(state, ev)
                    else:
                        self._close_deal(state, ev)
                    return
            self._settle(state, ev)
            return
        if win is not None:  # a recruit window in someone's discard phase
            if win["by"] == seat:
                state["discard"].extend(win["cards"])
                state["window"] = None
            elif seat in win["owing"]:
                win["owing"].remove(seat)
                if not win["owing"]:
                    self._resolve_reaction(state, ev)
                    return
        if phase == "marker" and seat == state["marker_seat"]:
            space = Chance(state["chance"]).randint(0, NSPACES - 1)
            state["marker"] = space
            ev.append({"type": "marker_placed", "seat": seat, "space": space})
            start = state["start"] if not state["resigned"][state["start"]] else self._left(state, state["start"])
            self._start_turn(state, start, ev)
        elif phase == "marker" and seat == state["start"]:
            state["start"] = self._left(state, seat)
        elif phase in TURN_PHASES and seat == state["active"]:
            self._start_turn(state, self._left(state, seat), ev)

    # == timeouts ==================================================================================

    def _timeout(self, state: dict, window_id: str) -> list[dict]:
        ev: list[dict] = []
        win = state["window"]
        if win is not None and win["id"] == window_id:
            if win["kind"] == "reaction":
                self._resolve_reaction(state, ev)
            else:
                self._close_deal(state, ev)
            return ev
        deal = state["deal"]
        if deal is not None and deal["dl"] == window_id:
            deal["expired"] = True
            self._settle(state, ev)
            return ev
        phase = state["phase"]
        ch = Chance(state["chance"])
        if phase == "marker":
            free = [s for s in range(NSPACES) if state["covered"][s] is None]
            self._place_marker(state, state["marker_seat"], ch.choice(free), ev)
        elif phase == "turn_start":
            seat = state["active"]
            self._roll(state, seat, ev)
            self._default_moved(state, seat, ev)
        elif phase == "moved":
            self._default_moved(state, state["active"], ev)
        elif phase == "discard":
            seat = state["active"]
            excess = len(state["hands"][seat]) - self.hand_limit(state)
            picks = ch.sample(state["hands"][seat], excess)
            self._discard_from_hand(state, seat, picks, ev)
        return ev

    def _default_moved(self, state, seat, ev) -> None:
        if state["must_deal"] and self._may_deal(state, seat):
            self._start_deal(state, seat, ev)
        else:
            self._draw(state, seat, ev)

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
                out.append(Window(deal["dl"], "deal", (deal["boss"],)))
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
            return [state["deal"]["boss"]]
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

    def _view(self, state: dict, seat: int | None) -> dict:
        over = state["over"]
        n = state["n"]
        seats = []
        for s in range(n):
            entry = {
                "seat": s,
                "hand": len(state["hands"][s]),
                "placards": [c for c in CLANS if state["placards"][CIDX[c]] == s],
                "money_est": money_bracket(state["money"][s]),
                "resigned": state["resigned"][s],
            }
            if over:
                entry["money"] = state["money"][s]
            seats.append(entry)
        top = state["stack"][0] if state["stack"] else None
        discard_kinds: dict[str, int] = {}
        for c in state["discard"]:
            k = kind(c)
            discard_kinds[k] = discard_kinds.get(k, 0) + 1
        view: dict[str, Any] = {
            "title": self.title,
            "phase": state["phase"],
            "me": seat,
            "over": over,
            "to_act": self.to_act(state),
            "n": n,
            "options": {k: v for k, v in state["opts"].items()},
            "shared": state["shared"],
            "start": state["start"],
            "marker_seat": state["marker_seat"],
            "active": state["active"],
            "marker": state["marker"],
            "covered": list(state["covered"]),
            "stack": list(state["stack"]),
            "top": ({"no": top, "value": DEAL_CARDS[top]["value"], "back": list(DEAL_CARDS[top]["back"]),
                     "end": DEAL_CARDS[top]["end"]} if top is not None else None),
            "deals": state["deals"],
            "draw_pile": len(state["draw"]),
            "discard_pile": len(state["discard"]),
            "discard_kinds": discard_kinds,
            "spares": [c for c in CLANS if state["placards"][CIDX[c]] is None],
            "hand_limit": self.hand_limit(state),
            "must_deal": state["must_deal"],
            "last_roll": state["last_roll"],
            "history": [dict(h) for h in state["history"]],
            "seats": seats,
            "deal": self._deal_view(state) if state["deal"] is not None else None,
            "window": self._window_view(state),
            "timer": dict(state["timer"]) if state["timer"] else None,
            "end_reason": state["end_reason"],
        }
        if over:
            out = self.outcome(state)
            view["results"] = {"places": out.places, "money": list(state["money"])}
        if seat is not None and 0 <= seat < n:
            hand = list(state["hands"][seat])
            kinds: dict[str, int] = {}
            for c in hand:
                kinds[kind(c)] = kinds.get(kind(c), 0) + 1
            view["private"] = {"hand": hand, "kinds": kinds, "money": state["money"][seat]}
        return view

    def _deal_view(self, state: dict) -> dict:
        deal = state["deal"]
        acc = accepted_srcs(deal)
        srcs = []
        for s in sources(state):
            srcs.append({**s, "committed": is_committed(state, s, acc), "auto": s["owner"] == deal["boss"]})
        away = []
        for clan, tc in deal["away"].items():
            away.append({"clan": clan, "owner": state["placards"][CIDX[clan]], "card": kind(tc)})
        cov = covered(state)
        total = self._accepted_total(deal)
        sp = SPACES[deal["space"]]
        return {
            "space": deal["space"],
            "starter": deal["starter"],
            "boss": deal["boss"],
            "card": deal["card"],
            "value": deal["value"],
            "div": deal["div"],
            "proceeds": deal["P"],
            "investors": INVESTORS[deal["space"]],
            "req": list(sp["req"]),
            "pools": [{"clans": list(p), "k": k} for p, k in sp["pools"]],
            "slots": slots(state),
            "sources": srcs,
            "table": [{"clan": t["clan"], "owner": t["owner"]} for t in deal["table"]],
            "away": sorted(away, key=lambda a: CIDX[a["clan"]]),
            "offers": [{"id": o["id"], "src": o["src"], "clan": o["clan"], "kind": o["kind"], "seat": o["seat"],
                        "ask": dict(o["ask"]), "usd": ask_amount(o["ask"], deal["value"]), "state": o["state"]}
                       for o in deal["offers"]],
            "declined": [dict(d, ask=dict(d["ask"])) for d in deal["declined"][-12:]],
            "covered": [c for c in CLANS if c in cov],
            "met": requirements_met(state),
            "accepted_total": total,
            "room": deal["P"] - total,
            "played": sorted(deal["played"]),
            "share": share(deal["space"], deal["P"]) if state["shared"] else None,
            "deadline": None if deal["expired"] else deal["dl"],
        }

    @staticmethod
    def _window_view(state: dict) -> dict | None:
        win = state["window"]
        if win is None:
            return None
        out = {"id": win["id"], "kind": win["kind"], "by": win["by"], "owing": sorted(win["owing"]),
               "passed": sorted(win["passed"])}
        if win["kind"] == "reaction":
            out.update({"card": win["card"], "target": win["target"], "target_owner": win["target_owner"],
                        "color": win["color"], "ctx": win["ctx"]})
        return out

    def secrets(self, state: dict) -> dict[str, list[str]]:
        out = {str(s): list(state["hands"][s]) for s in range(state["n"])}
        out["hidden"] = list(state["draw"])
        return out

    # == the seat-filler ===========================================================================

    def ai_action(self, view: dict, legal: list[dict], rng: random.Random) -> dict | None:
        return _ai.choose(view, legal, rng)


GAME = ImTheBoss()

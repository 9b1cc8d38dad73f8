"""Starting a deal and the negotiation (digest 5.3): clan cards, offers, withdrawals, accepts and
declines, and what each seat may do in a deal."""

from __future__ import annotations

from engine.core import RuleError

from .data import (
    DEAL_CARDS,
    NO_DEAL_AT,
    RECRUIT_SET,
    SPACE_CLANS,
    SPACES,
)
from .fields import ask_amount, clan_field
from .table import (
    accepted_srcs,
    boss_blocked,
    covered,
    find_source,
    is_committed,
    parse_src,
    sources,
)
from .table import (
    met as _met,
)


def accept_refusal(deal: dict, offer: dict, cov: set[str], total: int) -> RuleError | None:
    """Why the boss may not accept this pending offer, or None: one order for the rules, the
    legal moves and the boss's panel, so the reason shown is the one the rules would give (an
    offer for a clan already in the deal is refused for that, whatever its price; issue 28)."""
    if offer["clan"] in cov:
        return RuleError("clan_covered", clan=offer["clan"])
    amount = ask_amount(offer["ask"], deal["value"])
    if total + amount > deal["P"]:
        return RuleError("over_proceeds", ask=amount, total=total, proceeds=deal["P"])
    return None


class DealMixin:
    """Mixed into ImTheBoss (rules.py); the methods use its helpers through self."""

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
        elif win is None and seat in deal.get("asked", ()):
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
                if o["state"] == "pending" and accept_refusal(deal, o, cov, total) is None:
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
        blocked: set[str] = set()
        if seat == boss:  # `cov` is the base game's answer, already computed
            blocked = boss_blocked(state, srcs) if state["shared"] else cov
        for c in SPACE_CLANS[deal["space"]]:
            if f"clan-{c}" in counts and c not in mine and c not in blocked:
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
            # Who owes an answer (an offer, or a pass) in this deal: every other player, since
            # anyone may hold a clan card for the space and the window must not tell who does
            # (issue 19). None under the 2-player rules, which have no offers.
            "asked": [] if state["shared"] else [s for s in self._live(state) if s != seat],
            "expired": False,
        }
        ev.append({"type": "deal_started", "seat": seat, "space": space, "card": no, "value": value,
                   "div": div, "proceeds": div * value})
        self._settle(state, ev)

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
        clan = clan_field(action.get("clan"))
        if clan not in SPACE_CLANS[deal["space"]]:
            raise RuleError("clan_not_on_space", clan=clan)
        card = self._has(state, seat, f"clan-{clan}")
        if card is None:
            raise RuleError("no_card", card=f"clan-{clan}")
        if any(t["owner"] == seat and t["clan"] == clan for t in deal["table"]):
            raise RuleError("clan_already_played", clan=clan)
        if seat == deal["boss"] and clan in boss_blocked(state):
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
        self._answered(deal, seat)
        # `tell`: news for the boss, whose decision waits on the offers (the bot calls them).
        ev.append(self._offer_event("offered", offer, deal, tell=[deal["boss"]]))

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
        refusal = accept_refusal(deal, o, covered(state), self._accepted_total(deal))
        if refusal is not None:
            raise refusal
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
        self._ask_again(state, deal, o["seat"])
        self._settle(state, ev)

    @staticmethod
    def _answered(deal, seat) -> None:
        """`seat` offered or passed: it owes nothing more in this deal (issue 19)."""
        asked = deal.get("asked")
        if asked and seat in asked:
            asked.remove(seat)

    def _ask_again(self, state, deal, seat) -> None:
        """A new reason to answer (its offer declined; the boss changed hands): `seat` owes an
        offer or a pass again, and the house tells it."""
        asked = deal.setdefault("asked", [])
        if not state["shared"] and seat != deal["boss"] and not state["resigned"][seat] and seat not in asked:
            asked.append(seat)
            asked.sort()

    def _void_offers(self, deal, src, ev) -> None:
        gone = [o for o in deal["offers"] if o["src"] == src]
        for o in gone:
            deal["offers"].remove(o)
            ev.append({"type": "offer_void", "seat": o["seat"], "clan": o["clan"], "src": o["kind"]})

"""The end of a deal (digest 5.8-5.9): the close and its last call, failure, payment, the deal card
and the die; the end of the game, and resigning (9.11)."""

from __future__ import annotations

from engine.core import Chance, RuleError

from .data import (
    DEAL_CARDS,
    DIE_SIDES,
    NSPACES,
)
from .fields import TURN_PHASES, ask_amount
from .table import (
    card_src,
    own_cards_needed,
    publicly_impossible,
    requirements_met,
    share,
    shared_plan,
    sources,
)


class CloseMixin:
    """Mixed into ImTheBoss (rules.py); the methods use its helpers through self."""

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
            # Accepted offers took part (they are paid, 9.5); the boss's own clan cards took
            # part only where nothing else covers what the space needs (issue 14 #2).
            other_cover = {s["clan"] for s in sources(state) if s["owner"] == boss and s["kind"] == "placard"}
            other_cover |= {o["clan"] for o in acc}
            used = {o["src"] for o in acc if o["kind"] == "card"}
            own = {t["clan"]: card_src(t["clan"], boss) for t in deal["table"] if t["owner"] == boss}
            used |= set(own_cards_needed(space, other_cover, own))
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
        limit_before = self.hand_limit(state)
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
        self._after_deal(state, ev, cut=self.hand_limit(state) < limit_before)

    def _after_deal(self, state, ev, cut: bool = False) -> None:
        """The next turn; first, when the deal just brought the late hand limit into force,
        everyone above it cuts (issue 14 #3)."""
        deal = state["deal"]
        state["deal"] = None
        state["window"] = None
        base = deal["starter"] if state["opts"]["turn_order_kept"] else deal["boss"]
        nxt = self._left(state, base)
        if cut:
            if self._start_cut(state, nxt, ev):
                return
        self._start_turn(state, nxt, ev)

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
            self._answered(deal, seat)
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
        elif phase == "discard" and seat == state["active"]:
            self._end_discard(state, seat, ev)
        elif phase in TURN_PHASES and seat == state["active"]:
            self._start_turn(state, self._left(state, seat), ev)

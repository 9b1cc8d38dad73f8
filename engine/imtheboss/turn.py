"""The turn outside deals: the marker, rolling, drawing, the hand limit's discard (digest 4), and
the timeouts of every window (digest 6)."""

from __future__ import annotations

from engine.core import Chance, RuleError

from .data import (
    DIE_SIDES,
    DRAW,
    DRAW_BY_PLACARDS,
    KINDS,
    MUST_DEAL_AT,
    NSPACES,
    kind,
)
from .fields import int_field


class TurnMixin:
    """Mixed into ImTheBoss (rules.py); the methods use its helpers through self."""

    def _do_marker(self, state, seat, action, ev) -> None:
        if state["phase"] != "marker":
            raise RuleError("wrong_phase")
        if seat != state["marker_seat"]:
            raise RuleError("not_your_turn")
        space = int_field(action.get("space"), "space", 0, NSPACES - 1)
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
        # The turn keeps its one deadline through the roll (issue 19): rolling is half a turn,
        # not a new obligation, so an absent player's turn costs one deadline, not two.
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
        if len(state["hands"][seat]) > self.hand_limit(state):
            self._begin_discard(state, seat, ev)
        else:
            self._start_turn(state, self._left(state, seat), ev)

    def _begin_discard(self, state, seat, ev) -> None:
        """Phase `discard` for `seat`: above the hand limit, it discards the excess (it may play
        recruit triples first)."""
        excess = len(state["hands"][seat]) - self.hand_limit(state)
        state["phase"] = "discard"
        state["active"] = seat
        state["timer"] = {"id": self._new_id(state, "discard"), "kind": "discard"}
        ev.append({"type": "over_limit", "seat": seat, "count": excess, "limit": self.hand_limit(state)})

    def _start_cut(self, state, nxt: int, ev) -> bool:
        """Variant 7.8 comes into force (issue 14 #3, JA 5 with 3): everyone above the new limit
        cuts at once, one after the other from `nxt` clockwise, with the usual choice; then
        `nxt` plays. False when nobody is above the limit."""
        n = state["n"]
        order = [(nxt + i) % n for i in range(n)]
        over = [s for s in order if not state["resigned"][s] and len(state["hands"][s]) > self.hand_limit(state)]
        if not over:
            return False
        state["cut"] = {"queue": over[1:], "next": nxt}
        self._begin_discard(state, over[0], ev)
        return True

    def _end_discard(self, state, seat, ev) -> None:
        """`seat` is within the limit: the next seat of a cut discards, else the turn moves on."""
        cut = state.get("cut")
        if not cut:
            self._start_turn(state, self._left(state, seat), ev)
            return
        while cut["queue"]:
            s = cut["queue"].pop(0)
            if not state["resigned"][s] and len(state["hands"][s]) > self.hand_limit(state):
                self._begin_discard(state, s, ev)
                return
        state["cut"] = None
        nxt = cut["next"]
        self._start_turn(state, nxt if not state["resigned"][nxt] else self._left(state, nxt), ev)

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
            self._end_discard(state, seat, ev)

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
        if deal is not None and window_id == f"offers:{deal['dl']}":
            # the time to answer the boss is up: whoever has not answered passes (issue 19)
            for seat in deal.get("asked", ()):
                ev.append({"type": "deal_passed", "seat": seat, "space": deal["space"]})
            deal["asked"] = []
            return ev
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

"""Influence cards that open a reaction window (digest 5.4-5.7, 6): travel, boss cards and recruit
triples, answered by pass or stop."""

from __future__ import annotations

from engine.core import RuleError

from .data import (
    CIDX,
    RECRUIT_SET,
    kind,
)
from .fields import clan_field
from .table import (
    find_source,
    parse_src,
    placard_src,
)


class ReactionMixin:
    """Mixed into ImTheBoss (rules.py); the methods use its helpers through self."""

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
            color = clan_field(color, "color")
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
        clan = clan_field(action.get("clan"))
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
            deal = state["deal"]
            if state["phase"] != "deal" or seat not in deal.get("asked", ()):
                raise RuleError("no_window")
            # no offer from this seat in this deal (issue 19): its obligation ends
            self._answered(deal, seat)
            ev.append({"type": "deal_passed", "seat": seat, "space": deal["space"]})
            return
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
                self._end_discard(state, seat, ev)
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
        self._answered(deal, seat)
        self._ask_again(state, deal, old)
        deal["dl"] = self._new_id(state, "deal")
        deal["expired"] = False
        ev.append({"type": "boss_changed", "seat": seat, "from_seat": old})

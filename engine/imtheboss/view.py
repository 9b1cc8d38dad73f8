"""What each seat sees (digest 9.13): public table, offers and asks, money brackets; a seat's own
hand and money."""

from __future__ import annotations

from typing import Any

from .data import (
    CIDX,
    CLANS,
    DEAL_CARDS,
    INVESTORS,
    SPACES,
    kind,
)
from .deal import accept_refusal
from .fields import ask_amount, money_bracket
from .table import (
    accepted_srcs,
    covered,
    is_committed,
    requirements_met,
    share,
    slots,
    sources,
)


class ViewMixin:
    """Mixed into ImTheBoss (rules.py); the methods use its helpers through self."""

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
                        "ask": dict(o["ask"]), "usd": ask_amount(o["ask"], deal["value"]), "state": o["state"],
                        "refused": _refused(deal, o, cov, total)}
                       for o in deal["offers"]],
            "declined": [dict(d, ask=dict(d["ask"])) for d in deal["declined"][-12:]],
            "covered": [c for c in CLANS if c in cov],
            "met": requirements_met(state),
            "accepted_total": total,
            "room": deal["P"] - total,
            "played": sorted(deal["played"]),
            "asked": sorted(deal.get("asked", ())),
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


def _refused(deal: dict, offer: dict, cov: set[str], total: int) -> dict | None:
    """Why the boss could not accept this pending offer now (the rules' own reason: its catalogue
    key and values), so the panel never guesses one; None when it could, or it is not pending."""
    if offer["state"] != "pending":
        return None
    refusal = accept_refusal(deal, offer, cov, total)
    return None if refusal is None else {"key": refusal.key, "params": dict(refusal.params)}

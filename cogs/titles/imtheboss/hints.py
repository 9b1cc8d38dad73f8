"""I'm the Boss! for a learner (cogs/titles/learn.py): why this moment, from the seat's view."""

from __future__ import annotations

from typing import Any

from cogs.titles.contract import PanelContext
from cogs.titles.learn import rule

#: Sections of imtheboss.rules.md: 1 placards and cards, 2 your turn, 3 the negotiation,
#: 4 pass or stop, 5 closing a deal.
RULES = (
    rule("marker", 2, "marker"),
    rule("turn", 2, "deal_here", "roll", "draw"),
    rule("clan", 1, "play_clan"),
    rule("offer", 3, "offer", "withdraw"),
    rule("answer", 3, "accept", "decline"),
    rule("cards", 1, "travel", "boss", "recruit"),
    rule("stop", 4, "stop"),
    rule("close", 5, "close", "cancel_close", "fail"),
    rule("discard", 2, "discard"),
)


def open_clans(deal: dict[str, Any]) -> list[str]:
    """The clans the deal still needs (those of its places not yet filled), in its order."""
    out: list[str] = []
    for slot in deal.get("slots") or []:
        if len(slot.get("filled") or []) < int(slot.get("k") or 0):
            out += [c for c in slot.get("clans") or [] if c not in out and c not in (slot.get("filled") or [])]
    return out


def why(pc: PanelContext) -> str | None:
    view, types = pc.view, {a["type"] for a in pc.legal}
    window = view.get("window") or {}
    deal = view.get("deal") or {}
    kinds = (view.get("private") or {}).get("kinds") or {}
    if "marker" in types:
        return pc.tk("learn.why.marker")
    if "discard" in types:
        return pc.tk("learn.why.discard")
    if window.get("kind") == "reaction":
        return pc.tk("learn.why.react_stop" if "stop" in types else "learn.why.react",
                     card=window.get("card") or "travel")
    if "close" in types:
        return pc.tk("learn.why.close")
    if "accept" in types:
        return pc.tk("learn.why.answer", count=len(pc.legal_of("accept")))
    if window.get("kind") == "last_call":
        return pc.tk("learn.why.last_call")
    if "deal_here" in types:
        return pc.tk("learn.why.turn" if "roll" in types else "learn.why.rolled")
    needed = open_clans(deal)
    held = sum(int(kinds.get(f"clan-{c}", 0)) for c in needed)
    if "play_clan" in types and deal.get("boss") == view.get("me") and held:
        return pc.tk("learn.why.boss_cards", count=held)
    if "offer" in types and needed:
        return pc.tk("learn.why.offer", clans=needed)
    if "play_clan" in types and held:
        return pc.tk("learn.why.lay_clan", count=held)
    return None

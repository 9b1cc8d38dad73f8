"""Filthy Rich for a learner (cogs/titles/learn.py): why this moment, from the seat's view."""

from __future__ import annotations

from cogs.titles.contract import PanelContext
from cogs.titles.learn import rule

#: Sections of filthyrich.rules.md: 1 the binder, 2 your turn, 3 taxes, 4 bankruptcy and auctions.
RULES = (
    rule("luxury", 2, "buy_luxury"),
    rule("play", 1, "play"),
    rule("discard", 2, "discard"),
    rule("roll", 2, "roll"),
    rule("sell", 2, "sell", "repay"),
    rule("tax", 3, "tax_decision"),
    rule("auction", 4, "bid"),
)


def why(pc: PanelContext) -> str | None:
    types = {a["type"] for a in pc.legal}
    turn = pc.view.get("turn") or {}
    if "tax_decision" in types:
        return pc.tk("learn.why.tax")
    if "bid" in types:
        return pc.tk("learn.why.auction")
    if "play" in types or "discard" in types:
        key = "learn.why.luxury" if "buy_luxury" in types else "learn.why.actions"
        return pc.tk(key, count=int(turn.get("actions") or 0))
    if "roll" in types:
        return pc.tk("learn.why.roll")
    return None

"""Black Friday for a learner (cogs/titles/learn.py): why this moment, from the seat's view."""

from __future__ import annotations

from cogs.titles.contract import PanelContext
from cogs.titles.learn import rule

#: Sections of blackfriday.rules.md: 2 your turn, 3 buying and selling,
#: 7 special cards.
RULES = (
    rule("turn", 2, "buy", "sell", "silver", "pass"),
    rule("silver", 3, "silver"),
    rule("subsidy", 2, "subsidy"),
    rule("special", 7, "special_pass", "special"),
)


def why(pc: PanelContext) -> str | None:
    types = {a["type"] for a in pc.legal}
    private = pc.view.get("private") or {}
    money = int(private.get("money") or 0)
    if private.get("must_settle") or int(private.get("owed") or 0) > 0:
        return pc.tk("learn.why.owed", owed=int(private.get("owed") or 0))
    if "silver" in types:
        price = int((pc.view.get("silver") or {}).get("price") or 0)
        return pc.tk("learn.why.silver", money=money, price=price, silver=int(private.get("silver") or 0))
    if "buy" in types:
        return pc.tk("learn.why.buy", money=money)
    if "subsidy" in types and money == 0:
        return pc.tk("learn.why.subsidy")
    if "sell" in types:
        return pc.tk("learn.why.sell", count=sum(int(n) for n in (private.get("bags") or {}).values()))
    return None

"""E-Wars for a learner (cogs/titles/learn.py): why this moment, from the seat's view."""

from __future__ import annotations

from cogs.titles.contract import PanelContext
from cogs.titles.learn import rule

#: Sections of ewars.rules.md: 1 dice time, 2 dispatch, 3 the contract, 4 acquisition.
RULES = (
    rule("bell", 1, "ring_bell"),
    rule("dice", 1, "roll", "claim"),
    rule("dispatch", 2, "dispatch", "confirm"),
    rule("contract", 3, "dispatch"),
    rule("acquire", 4, "confirm"),
)


def why(pc: PanelContext) -> str | None:
    types = {a["type"] for a in pc.legal}
    phase = pc.view.get("phase")
    if phase == "await_start" and "ring_bell" in types:
        return pc.tk("learn.why.start")
    if "claim" in types:
        cards = [str(a.get("pos")) for a in pc.legal_of("claim")]
        return pc.tk("learn.why.claim", count=len(cards), cards=", ".join(cards))
    if "roll" in types:
        return pc.tk("learn.why.roll")
    if "confirm" in types:
        return pc.tk("learn.why.confirm")
    if "dispatch" in types:
        return pc.tk("learn.why.dispatch", count=len({a.get("pos") for a in pc.legal_of("dispatch")}))
    if types == {"ring_bell"}:
        return pc.tk("learn.why.ring")
    return None

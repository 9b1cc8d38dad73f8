"""I'm the Boss!'s standing orders (engine/orders.py): a player who looks in once a day can pass
on every Stop and last call in advance, except in their own deal, where a Stop may save it."""

from __future__ import annotations

from typing import Any

from engine.core import OrderSpec

#: "Pass on every Stop and last call unless it is my deal", for the game or for this deal.
PASS_REACTIONS = OrderSpec("pass_reactions", scopes=("game", "deal"))
SPECS = (PASS_REACTIONS,)


def scope(state: dict[str, Any], name: str) -> str | None:
    """An order "for this deal" is bound to the deal on the table (none: not now)."""
    if name == "game":
        return "game"
    deal = state.get("deal")
    return deal["dl"] if name == "deal" and deal else None


def answer(state: dict[str, Any], seat: int, order: dict[str, Any]) -> dict[str, Any] | None:
    if order.get("key") != PASS_REACTIONS.key:
        return None
    win = state.get("window")
    if win is None or win["kind"] not in ("reaction", "last_call") or seat not in win["owing"]:
        return None
    deal = state.get("deal")
    if deal is not None and deal["boss"] == seat:
        return None  # their own deal: they decide themselves
    return {"type": "pass"}

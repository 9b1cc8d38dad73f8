"""Filthy Rich's standing orders (engine/orders.py): keep every business at tax time while the
tax is small, and a top bid for luxury auctions (bid the least raise up to it, then pass)."""

from __future__ import annotations

from typing import Any

from engine.core import OrderSpec

from .table import tax_due

KEEP_AT_TAX = OrderSpec("keep_at_tax", amount=True)
TOP_BID = OrderSpec("top_bid", amount=True)
SPECS = (KEEP_AT_TAX, TOP_BID)


def owed(st: dict[str, Any], seat: int) -> int:
    """What the seat pays in the tax step (or audit) now open, if it keeps everything."""
    tx = st["tax"]
    greased = tx["kind"] == "tax" and st["turn"]["greased"] and seat == st["active"]
    return tax_due(st, seat, tx["zeros"], greased=greased)


def answer(st: dict[str, Any], seat: int, order: dict[str, Any]) -> dict[str, Any] | None:
    amount = int(order.get("amount", 0))
    if order.get("key") == KEEP_AT_TAX.key and st["phase"] in ("tax", "audit") and seat in st["tax"]["pending"]:
        # "while I owe less than $X": at $X or more they decide themselves
        return {"type": "tax_decision", "sell": []} if owed(st, seat) < amount else None
    if order.get("key") == TOP_BID.key and st["phase"] == "auction" and st["auction"]["seat"] == seat:
        least = st["auction"]["min"]
        return {"type": "bid", "amount": least} if least <= min(amount, st["money"][seat]) else {"type": "pass"}
    return None

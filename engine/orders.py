"""Standing orders: answers a player gives before a window opens ("pass on every Stop", "my top
bid is $12"), so a slow game need not wait a day for a decision they already made. A title
declares the orders it offers (`Game.order_specs`) and what each answers (`Game._order_answer`);
the base class checks them and picks the answer (`Game.standing_answer`). The bot keeps a seat's
orders privately and plays their answer as that seat's move as soon as a window asks for it: a
standing order counts as an answer, so a window closes once every seat has answered.

An order is a small JSON value:

    {"key": "pass_reactions", "scope": "game"}                  until the game ends
    {"key": "pass_reactions", "scope": "deal", "until": "dl7"}  until what it is bound to ends
    {"key": "top_bid", "scope": "game", "amount": 12}           an order with an amount

Everyone may set every order the title offers, whatever their hand: an answer made by an order
tells nobody more than the same answer made by a click.
"""

from __future__ import annotations

from typing import Any

from .core import OrderSpec, RuleError

#: The largest amount an order takes (no title's money comes near it).
MAX_AMOUNT = 1_000_000
#: Orders a seat may hold at once in one game.
MAX_ORDERS = 8


def checked(specs: tuple[OrderSpec, ...], order: Any, bound: str | None) -> dict[str, Any]:
    """`order` as stored, or RuleError: a known key, one of its scopes, a whole amount in range
    when it takes one. `bound`: what its scope is bound to now (None: that scope cannot be
    chosen now, such as "this deal" with no deal on the table)."""
    if not isinstance(order, dict):
        raise RuleError("core.order.bad")
    spec = next((s for s in specs if s.key == order.get("key")), None)
    scope = order.get("scope", "game")
    if spec is None or scope not in spec.scopes:
        raise RuleError("core.order.bad")
    out: dict[str, Any] = {"key": spec.key, "scope": scope}
    if scope != "game":
        if bound is None:
            raise RuleError("core.order.no_scope")
        out["until"] = bound
    if spec.amount:
        amount = order.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= MAX_AMOUNT:
            raise RuleError("core.order.bad_amount", hi=MAX_AMOUNT)
        out["amount"] = amount
    return out


def replaced(orders: list[dict[str, Any]], order: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's orders with `order` set: one order per key (a new one replaces the old)."""
    kept = [o for o in orders if o.get("key") != order["key"]]
    if len(kept) >= MAX_ORDERS:
        raise RuleError("core.order.too_many", n=MAX_ORDERS)
    return kept + [order]

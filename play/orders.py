"""Standing orders on the bot's side (the rules are the title's: engine/orders.py). A seat's
orders are private: they live in the game's clock (`clock["orders"][seat]`), which no table,
panel or export shows anyone else, and are written, like the banks, with the game's timers.
Whenever a window asks a seat something its orders answer, the plan holds an "order" row due at
once; the timer loop plays that answer as the seat's own move (no person clicked: nothing to
take back). The orders of a seat that changes hands are dropped: the new player never set them."""

from __future__ import annotations

from typing import Any

from engine.core import Game
from engine.orders import checked, replaced
from store import GameRow


def orders_of(game: GameRow, seat: int) -> list[dict[str, Any]]:
    """The seat's standing orders (those whose deal ended included: `Game.live_orders`)."""
    return list(((game.clock or {}).get("orders") or {}).get(str(seat)) or [])


def with_orders(game: GameRow, seat: int, orders: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's clock with the seat's orders replaced."""
    clock = dict(game.clock or {})
    every = dict(clock.get("orders") or {})
    if orders:
        every[str(seat)] = orders
    else:
        every.pop(str(seat), None)
    clock["orders"] = every
    return clock


def set_order(game_rules: Game, game: GameRow, seat: int, order: dict[str, Any]) -> dict[str, Any]:
    """The game's clock with `order` set for the seat (RuleError when the title refuses it)."""
    bound = game_rules.order_scope(game.state or {}, str(order.get("scope", "game")))
    kept = game_rules.live_orders(game.state or {}, orders_of(game, seat))
    return with_orders(game, seat, replaced(kept, checked(game_rules.order_specs, order, bound)))


def cancel_order(game_rules: Game, game: GameRow, seat: int, key: str | None) -> dict[str, Any]:
    """The game's clock without the seat's order `key` (None: without any)."""
    kept = [o for o in game_rules.live_orders(game.state or {}, orders_of(game, seat))
            if key is not None and o.get("key") != key]
    return with_orders(game, seat, kept)


def answers(game_rules: Game, game: GameRow, state: dict[str, Any], seats: set[int]) -> list[int]:
    """The seats among `seats` whose standing orders answer something now."""
    out = []
    for seat in sorted(seats):
        mine = orders_of(game, seat)
        if mine and game_rules.standing_answer(state, seat, mine) is not None:
            out.append(seat)
    return out


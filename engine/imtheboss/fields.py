"""Small shared pieces of the rules: checks of the fields the bot forwards from what players
type, the money bracket others see, and an ask's amount in $M."""

from __future__ import annotations

from typing import Any

from engine.core import RuleError

from .data import CIDX, MONEY_BRACKET

TURN_PHASES = ("turn_start", "moved", "discard")


def int_field(value: Any, key: str, lo: int, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or (hi is not None and value > hi):
        raise RuleError("bad_field", field=key)
    return value


def clan_field(value: Any, key: str = "clan") -> str:
    if not isinstance(value, str) or value not in CIDX:
        raise RuleError("bad_field", field=key)
    return value


def money_bracket(m: int) -> list[int]:
    """What others see of a player's money: $0, or a bracket [1, 9], [10, 19], [20, 29] ..."""
    if m <= 0:
        return [0, 0]
    lo = (m // MONEY_BRACKET) * MONEY_BRACKET
    return [max(lo, 1), lo + MONEY_BRACKET - 1]


def ask_amount(ask: dict, value: int) -> int:
    return ask["usd"] if "usd" in ask else ask["div"] * value

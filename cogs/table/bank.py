"""What is left of a seat's time bank, in words, wherever the bot shows it: the call in the
channel, the deadline line of the hand's panel, the table's seat list and the digest.

One place decides the three cases, so no message says something the others contradict: the
game has no bank at all (the host set none: nothing is said of one), the bank is used up, or
what is left, in its two largest units ("2 days, 23 hr": a reminder read hours later needs no
seconds)."""

from __future__ import annotations

from typing import Any

from locales import Translator
from locales.format import duration
from play import timing
from store import GameRow

#: Under a minute left counts as used up (the deadline acts within it).
USED_UP = 60


def _left(game: GameRow, seat: int, conf: dict[str, Any]) -> float | None:
    """Seconds left in the seat's bank; None when the game gives no bank."""
    return timing.bank_left(game, seat, conf) if timing.has_bank(conf) else None


def _amount(left: float, t: Translator) -> str:
    return duration(int(left), t.lang, most=2)


def call_sentence(game: GameRow, seat: int, conf: dict[str, Any], t: Translator) -> str:
    """The call's sentence after the deadline ("Then your time bank: 3 days."), or ""."""
    left = _left(game, seat, conf)
    if left is None:
        return ""
    return t("core.ping.bank", left=_amount(left, t)) if left >= USED_UP else t("core.ping.bank_empty")


def panel_line(game: GameRow, seat: int, conf: dict[str, Any], deadline: float, t: Translator) -> str:
    """The hand panel's line: the seat's deadline and its bank after it."""
    when, left = f"<t:{int(deadline)}:R>", _left(game, seat, conf)
    if left is None:
        return t("core.panel.time_no_bank", when=when)
    if left < USED_UP:
        return t("core.panel.time_bank_used", when=when)
    return t("core.panel.time", when=when, left=_amount(left, t))


def tag(game: GameRow, seat: int, conf: dict[str, Any], t: Translator) -> str:
    """A seat's tag in the table's seat list and the digest ("⏳ 2 days, 23 hr"), or ""."""
    left = _left(game, seat, conf)
    if left is None:
        return ""
    return t("core.table.bank", left=_amount(left, t)) if left >= USED_UP else t("core.table.bank_used")

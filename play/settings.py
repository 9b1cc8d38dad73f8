"""Game settings: the pace, what happens at a deadline, reminders and per-window deadline
lengths. A game's settings start from the server's defaults, which start from the house's.

    pace         "live" | "slow": which of a window kind's default lengths applies
    on_deadline  "ai" (the seat-filler acts for late seats) | "skip" (the title's timeout rule)
                 | "remind" (no deadline action: only reminders)
    reminder     seconds between reminders to seats that owe a move (0: none)
    deadlines    {kind: seconds} overrides of the title's lengths (0: no deadline)
    ai_delay     seconds an AI seat "thinks" before it moves (keeps the table readable)
    undo         seconds during which a player may take back a move that revealed nothing
                 (0: never; see undo.py)
    away         "stretch" (a player's clock stops while they are away, up to `away_days` in any
                 30 days) | "filler" (the seat-filler plays for a player away): see away.py
    bank         seconds of each player's time bank in this game (None: the pace's), drawn on once
                 a window's allowance is used up; the seat-filler acts only when it is empty
    min_look     the least time a window stays open for a person, counted on their own clock
                 (None: the pace's: a day when slow), so everyone gets a chance to look
    away_days    the most days a player's clock may stand still for an absence, in any 30 days
    ai_level     the seat-filler's strength (engine.core.AI_LEVELS): "strong" or "friendly", for
                 every move it makes in this game, for an AI seat or for a person out of time
    learn        a guided first game (`/game learn`, issue 28): the learner's panel explains
                 each move and each rule as it comes up (cogs/titles/learn.py)
(timing.py counts all of these on each person's own clock, which stops in their quiet hours.)
"""

from __future__ import annotations

from typing import Any

from engine.core import AI_LEVELS, DEFAULT_AI_LEVEL, Game
from store import GameRow

HOUSE: dict[str, Any] = {
    "pace": "slow",
    "on_deadline": "ai",
    "reminder": 4 * 3600,
    "deadlines": {},
    "ai_delay": 2,
    "undo": 120,
    "away": "stretch",
    "bank": None,
    "min_look": None,
    "away_days": 7,
    "ai_level": DEFAULT_AI_LEVEL,
    "learn": False,
}
#: Each pace's time bank per player and game, and its least time to look, in seconds.
PACE_BANK = {"live": 5 * 60, "slow": 3 * 24 * 3600}
PACE_MIN_LOOK = {"live": 0, "slow": 24 * 3600}
PACES = ("live", "slow")
ON_DEADLINE = ("ai", "skip", "remind")
#: The seat-filler's strengths as offered: the default (the strongest) first.
LEVELS = (DEFAULT_AI_LEVEL, *(level for level in AI_LEVELS if level != DEFAULT_AI_LEVEL))
#: What happens while a player is away (see away.py).
AWAY = ("stretch", "filler")
#: Choices offered in the settings panel, in seconds.
REMINDER_CHOICES = (0, 15 * 60, 3600, 4 * 3600, 12 * 3600, 24 * 3600)
UNDO_CHOICES = (0, 60, 120, 300, 600)
BANK_CHOICES = (0, 5 * 60, 3600, 12 * 3600, 24 * 3600, 3 * 24 * 3600, 7 * 24 * 3600)
MIN_LOOK_CHOICES = (0, 8 * 3600, 12 * 3600, 24 * 3600, 48 * 3600)
AWAY_DAYS_CHOICES = (0, 3, 7, 14)
DEADLINE_CHOICES = (0, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 8 * 3600, 24 * 3600, 48 * 3600, 72 * 3600)


def merged(*layers: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {**HOUSE, "deadlines": dict(HOUSE["deadlines"])}
    for layer in layers:
        for key, value in (layer or {}).items():
            if key == "deadlines" and isinstance(value, dict):
                out["deadlines"].update(value)
            elif key in HOUSE or key == "lang":
                out[key] = value
    return out


def bank_of(settings: dict[str, Any]) -> int:
    """Seconds of each player's time bank under these settings."""
    given = settings.get("bank")
    return int(given) if given is not None else PACE_BANK.get(settings.get("pace", "slow"), PACE_BANK["slow"])


def min_look_of(settings: dict[str, Any]) -> int:
    """The least time, on a person's own clock, that a window stays open for them."""
    given = settings.get("min_look")
    return int(given) if given is not None else PACE_MIN_LOOK.get(settings.get("pace", "slow"), 0)


def deadline_for(game: Game, settings: dict[str, Any], kind: str) -> int:
    """Seconds for a window of `kind` under these settings (0: no deadline)."""
    override = (settings.get("deadlines") or {}).get(kind)
    if override is not None:
        return int(override)
    try:
        timer = game.timer(kind)
    except KeyError:
        return 0
    return timer.live if settings.get("pace") == "live" else timer.slow


#: Reminders per window, at most (a player asleep for a day is not pinged six times).
MAX_REMINDERS = 2


def reminder_due(every: int, n: int, t: float, deadline: float | None, length: int) -> float | None:
    """When the `n`-th reminder (0 first) of a window is due, or None when it gets no more.
    With a deadline, none comes before half of it has passed, the second not before three
    quarters, and none after the deadline itself; `every` (the reminder setting) is the least
    gap between them. Without a deadline, one every `every` seconds."""
    if every <= 0 or n >= MAX_REMINDERS:
        return None
    if deadline is None or length <= 0:
        return t + every
    start = deadline - length
    due = max(start + length * (0.5 if n == 0 else 0.75), t + (every if n else 0), start + every * (n + 1))
    return due if due < deadline else None


def validate(key: str, value: Any) -> bool:
    if key == "pace":
        return value in PACES
    if key == "on_deadline":
        return value in ON_DEADLINE
    if key == "away":
        return value in AWAY
    if key == "ai_level":
        return value in AI_LEVELS
    if key == "reminder":
        return isinstance(value, int) and 0 <= value <= 7 * 24 * 3600
    if key == "undo":
        return isinstance(value, int) and not isinstance(value, bool) and value in UNDO_CHOICES
    choices = {"bank": BANK_CHOICES, "min_look": MIN_LOOK_CHOICES, "away_days": AWAY_DAYS_CHOICES}.get(key)
    if choices is not None:
        return isinstance(value, int) and not isinstance(value, bool) and value in choices
    return False


def paused(game: GameRow | None) -> dict[str, Any] | None:
    """Why a game is paused (its channel is out of the bot's reach: pause.py), or None."""
    return (game.settings or {}).get("paused") if game is not None else None

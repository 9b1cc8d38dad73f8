"""What became of an action (`Result`), and the names of its outcomes (`Kind`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from engine.core import RuleError
from store import GameRow, Timer


class Kind(enum.StrEnum):
    """How an action ended."""

    APPLIED = "applied"  # committed
    REFUSED = "refused"  # the rules said no (`Result.error` says why)
    STALE = "stale"      # drawn for an earlier moment: the game moved on
    LOST = "lost"        # another process moved the game first (judged again, then STALE)
    PAUSED = "paused"    # the game's channel is out of the bot's reach: nothing moves
    OVER = "over"        # the game is not running
    MISSING = "missing"  # no such game


@dataclass
class Result:
    kind: Kind
    game: GameRow | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    error: RuleError | None = None
    #: For an applied move: the snapshot, the timers and the players' clocks before it (what
    #: taking it back needs).
    before: dict[str, Any] | None = None
    timers: list[Timer] = field(default_factory=list)
    clock_before: dict[str, Any] = field(default_factory=dict)
    #: The move handed the game to the seat-filler, which moves at once (an `ai` timer): nobody
    #: could take the move back in time, so it is never offered back (issue 30).
    filler_next: bool = False

    @property
    def applied(self) -> bool:
        return self.kind is Kind.APPLIED


def error_key(title: str, err: RuleError) -> str:
    """The catalogue key of a rule's refusal."""
    return err.key if err.key.startswith("core.") else f"{title}.error.{err.key}"


def outcome_json(outcome: Any) -> dict[str, Any]:
    return {"places": list(outcome.places), "scores": list(outcome.scores), "summary_key": outcome.summary_key}

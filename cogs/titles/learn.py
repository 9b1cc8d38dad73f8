"""The guided first game (`/game learn`, issue 28): what the learner's panel adds to a title's
panel. One line of why for the moment (from the seat's own view and legal moves: the title's
`hints.py`, `why(pc)`), and a note for each rule that comes up now and that the learner has not
yet played, with the section of the rules page that explains it (`RULES`).

A rule "comes up" when one of its moves is legal for the learner; it is "learnt" once the
learner has made one of those moves (read from the game's log), so the note shows the first
time the rule matters and keeps showing until it has been used once, across restarts, with
nothing kept beside the game. Titles without a hints module get the house's plain lines.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

from .contract import PanelContext

#: Rule notes on one panel, at most: the learner reads one thing at a time.
MAX_NOTES = 2


@dataclass(frozen=True)
class Rule:
    """A rule a title teaches: its note is `<title>.learn.rule.<key>`, explained in the rules
    page's `section`-th `## ` section (0 the first), and it comes up with any of `moves`."""

    key: str
    section: int
    moves: frozenset[str]


def rule(key: str, section: int, *moves: str) -> Rule:
    return Rule(key, section, frozenset(moves))


@dataclass
class Lesson:
    """The why-line, and the rule notes as (text, rules section)."""

    why: str
    notes: list[tuple[str, int]] = field(default_factory=list)


@cache
def hints_of(title: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"cogs.titles.{title}.hints")
    except ModuleNotFoundError as exc:
        if exc.name != f"cogs.titles.{title}.hints":
            raise
        return None


def played_types(log: list[dict[str, Any]], seat: int) -> set[str]:
    """The kinds of move `seat` has made in the game (its log entries)."""
    return {str((entry.get("action") or {}).get("type")) for entry in log if entry.get("seat") == seat}


def lesson(pc: PanelContext, played: set[str]) -> Lesson:
    """What the learner's panel says now."""
    hints = hints_of(pc.title)
    why = hints.why(pc) if hints is not None and pc.legal else None
    if why is None:
        why = pc.t("core.learn.why_move" if pc.legal else "core.learn.why_wait")
    up = {a.get("type") for a in pc.legal}
    rules: tuple[Rule, ...] = getattr(hints, "RULES", ()) if hints is not None else ()
    notes = [(pc.tk(f"learn.rule.{r.key}"), r.section) for r in rules if r.moves & up and not r.moves & played]
    return Lesson(why, notes[:MAX_NOTES])

"""What waits to be told about a game: moves' events, seats to ping or remind, house notes, and
whether the table should be posted again at the bottom. Changes that arrive while an update is
being sent accumulate here and go out together in the next one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Pending:
    events: list[dict[str, Any]] = field(default_factory=list)
    ping: set[int] = field(default_factory=set)
    remind: set[int] = field(default_factory=set)
    #: The kind of window each reminded seat is reminded of (a seat may owe several at once).
    reminded_of: dict[int, str] = field(default_factory=dict)
    #: Seats whose decision waits on answers that came in (an offer for the boss): called too.
    news: set[int] = field(default_factory=set)
    notes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    overdue: bool = False
    repost: bool = False

    def said(self) -> None:
        """The narration went out (or cannot): a retry of the rest must not say it again."""
        self.events, self.ping, self.remind, self.news, self.notes, self.overdue = [], set(), set(), set(), [], False
        self.reminded_of = {}

    def merge(self, later: "Pending") -> None:
        self.events.extend(later.events)
        self.ping |= later.ping
        self.remind |= later.remind
        self.reminded_of.update(later.reminded_of)
        self.news |= later.news
        self.notes.extend(later.notes)
        self.overdue = self.overdue or later.overdue
        self.repost = self.repost or later.repost

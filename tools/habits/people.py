"""People and their habits: when each looks at the game, and how they open their panel.

Times are epoch seconds of SimCord's virtual clock, read in UTC (the time zone the sleepers
live in: it is also what they set in `/game prefs` when the bot offers quiet hours).

    minutes   answers within minutes (2-12) of being called (a mention in the channel), asleep
              23:00-07:00: a call in the night is answered after 07:00. Opens the panel with
              the call's My hand button (the table's when no call carries one).
    daily     looks once a day at about 20:00 (+/- 20 min, drawn each day), whatever was said;
              runs `/game mine`, then opens My hand on the table.
    dm        plays only from the DM panel (`/game prefs dm_panel:True`); answers a new DM
              within one to two hours when awake.
    away      like minutes (with the table's My hand), but goes away for two days in the middle
              of the game (`/game away until:2d`): nothing in between, then looks once back.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

HOUR = 3600.0
DAY = 86400.0
MINUTE = 60.0
SLEEP_FROM, SLEEP_TO = 23, 7
HABITS = ("minutes", "daily", "dm", "away")
#: The habits that sleep 23:00-07:00 (and set quiet hours when the bot offers them).
SLEEPERS = ("minutes", "dm", "away")
#: How each habit opens its panel.
OPENS = {"minutes": "call", "daily": "mine", "dm": "dm", "away": "table"}
AWAY_FOR = 2 * DAY


def asleep(t: float) -> bool:
    hour = (t % DAY) / HOUR
    return hour >= SLEEP_FROM or hour < SLEEP_TO


def wake_after(t: float) -> float:
    """The next 07:00 at or after `t` (t itself if awake)."""
    if not asleep(t):
        return t
    day = t - t % DAY
    wake = day + SLEEP_TO * HOUR
    return wake if wake >= t else wake + DAY


#: A look due closer than this is due now: Sim.advance lets no time run for a gap of a
#: millisecond or less, so waiting for such a look would spin the game loop at one instant for
#: ever (it did: the short game of tests/unit/test_habits_tool.py never ended).
TICK = 0.001


@dataclass
class Person:
    name: str
    habit: str
    member: Any
    seed: int
    seat: int = -1
    #: When the person last looked (everything said up to then is seen).
    looked: float = 0.0
    #: When the person will look next (None: waits for a call).
    planned: float | None = None
    #: The call that planned that look (None: a habit's own time, or coming back).
    called_at: float | None = None
    away_from: float | None = None
    away_until: float | None = None
    rng: random.Random = field(default_factory=random.Random)
    #: Times of the person's own clicks, selects and forms (for "reminded while acting").
    clicks: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(f"{self.seed}/{self.name}/{self.habit}")

    @property
    def user_id(self) -> int:
        return self.member.id

    @property
    def opens(self) -> str:
        return OPENS[self.habit]

    def away_now(self, t: float) -> bool:
        return self.away_from is not None and self.away_from <= t < (self.away_until or 0)

    # -- when they look ---------------------------------------------------------------------

    def _minutes(self, t: float) -> float:
        due = t + self.rng.uniform(2, 12) * MINUTE
        return due if not asleep(due) else wake_after(due) + self.rng.uniform(0, 30) * MINUTE

    def _hours(self, t: float) -> float:
        due = t + self.rng.uniform(60, 120) * MINUTE
        return due if not asleep(due) else wake_after(due) + self.rng.uniform(30, 120) * MINUTE

    def daily_slot(self, after: float) -> float:
        """The first 20:00 +/- 20 min look strictly after `after` (drawn per day, reproducibly)."""
        day = after - after % DAY
        while True:
            slot = day + 20 * HOUR + random.Random(f"{self.seed}/{self.name}/{int(day)}").uniform(-20, 20) * MINUTE
            if slot > after:
                return slot
            day += DAY

    def called(self, at: float, via_dm: bool) -> None:
        """The bot called the person at `at` (a ping in the channel, or a new DM)."""
        if self.habit == "daily" or self.planned is not None:
            return
        if self.habit == "dm" and not via_dm:
            return
        if self.habit != "dm" and via_dm:
            return
        if self.away_now(at):
            return  # seen on return
        self.called_at = at
        self.planned = self._hours(at) if self.habit == "dm" else self._minutes(at)

    def next_look(self) -> float | None:
        if self.habit == "daily" and self.planned is None:
            self.planned = self.daily_slot(self.looked)
        return self.planned

    def done_looking(self, t: float) -> None:
        # A look made up to a TICK before its planned time counts as made at that time (and the
        # end of that look does not move it back): else the daily slot after it would be that
        # same slot, for ever.
        on_time = self.planned is not None and t < self.planned <= t + TICK
        self.looked = max(self.looked, self.planned if on_time else t)
        self.planned = None
        self.called_at = None

    def go_away(self, t: float) -> None:
        self.away_from, self.away_until = t, t + AWAY_FOR
        self.planned = self._minutes(self.away_until)
        self.called_at = None


def spread(count: int, filler: bool) -> list[str]:
    """The habits of a table of `count` seats: one of each, the rest "minutes"; with a
    seat-filler seat ("ai") in place of the last "minutes" seat (of the last habit when the table
    has no room for both)."""
    habits = ["minutes", "daily", "dm", "away"] + ["minutes"] * max(0, count - 4)
    habits = habits[:count]
    if filler:
        habits[-1] = "ai"
    return habits

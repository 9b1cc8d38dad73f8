"""A person's own clock: it runs only while they could be playing. It stops in their quiet hours
(`/game prefs quiet:23:00-07:00 timezone:Europe/Madrid`) and while they are away (within the
limit their game allows). Allowances, the minimum time to look and the time bank are counted on
it (timing.py), so a deadline never falls inside someone's quiet hours and nobody is reminded
there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DAY = 86400
_RANGE = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*[-–~〜]\s*(\d{1,2})(?::(\d{2}))?\s*$")


def parse_quiet(text: str) -> tuple[int, int] | None:
    """"23:00-07:00" (or "23-7") as minutes after midnight (start, end); None if unreadable or
    empty (start == end)."""
    m = _RANGE.match(text or "")
    if not m:
        return None
    h1, m1, h2, m2 = (int(x or 0) for x in m.groups())
    if h1 > 24 or h2 > 24 or m1 > 59 or m2 > 59:
        return None
    start, end = (h1 * 60 + m1) % (24 * 60), (h2 * 60 + m2) % (24 * 60)
    return None if start == end else (start, end)


def zone(name: str | None) -> ZoneInfo | None:
    """The IANA time zone `name` ("Europe/Madrid", "UTC"), or None if unknown."""
    try:
        return ZoneInfo((name or "UTC").strip())
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


@dataclass(frozen=True)
class Quiet:
    """When a person's clock stops: daily quiet hours in their time zone (`daily`: minutes after
    local midnight, start and end; None for none), and absences (`gaps`: wall-clock spans)."""

    daily: tuple[int, int] | None = None
    tz: str = "UTC"
    gaps: tuple[tuple[float, float], ...] = field(default_factory=tuple)

    @property
    def never(self) -> bool:
        return self.daily is None and not self.gaps

    def _stops(self, t0: float, t1: float) -> list[tuple[float, float]]:
        """The spans in [t0, t1) when the clock stands still, merged and in order."""
        spans = [(max(a, t0), min(b, t1)) for a, b in self.gaps if b > t0 and a < t1]
        if self.daily is not None:
            tz = zone(self.tz) or ZoneInfo("UTC")
            start, end = self.daily
            day = datetime.fromtimestamp(t0, tz).date() - timedelta(days=1)
            while True:
                # Local wall-clock times (a DST change shifts them, as it shifts people).
                midnight = datetime(day.year, day.month, day.day, tzinfo=tz)
                a_t = (midnight + timedelta(minutes=start)).timestamp()
                b_t = (midnight + timedelta(days=1 if end <= start else 0, minutes=end)).timestamp()
                if a_t >= t1:
                    break
                if b_t > t0:
                    spans.append((max(a_t, t0), min(b_t, t1)))
                day += timedelta(days=1)
        spans.sort()
        merged: list[tuple[float, float]] = []
        for a, b in spans:
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            elif b > a:
                merged.append((a, b))
        return merged

    def quiet_at(self, t: float) -> bool:
        return any(a <= t < b for a, b in self._stops(t, t + 1))

    def running(self, t0: float, t1: float) -> float:
        """Seconds the person's clock ran between t0 and t1."""
        if t1 <= t0:
            return 0.0
        return (t1 - t0) - sum(b - a for a, b in self._stops(t0, t1))

    def after(self, t0: float, seconds: float) -> float:
        """The wall-clock instant at which `seconds` of the person's clock have run since t0
        (always an instant when their clock runs: never inside quiet hours or an absence)."""
        if seconds <= 0:
            return self.awake_from(t0)
        if self.never:
            return t0 + seconds
        t, left = t0, float(seconds)
        while True:
            horizon = t + left + 2 * DAY
            for a, b in self._stops(t, horizon):
                if a - t >= left:
                    return t + left
                left -= max(0.0, a - t)
                t = b
            if self._stops(t, t + left) == []:
                return t + left

    def awake_from(self, t: float) -> float:
        """`t`, or the end of the quiet span it falls in."""
        for a, b in self._stops(t, t + 2 * DAY + 1):
            if a <= t < b:
                t = b
            elif a > t:
                break
        return t

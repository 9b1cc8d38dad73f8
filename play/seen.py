"""Who sits in a game and what their clocks are: each seat's person's quiet hours (people.py) and
who of them is away now (away.py), as the plan asks on every move, kept per game.

Asking People and Away afresh cost 20-25 us of a move's ~0.27 ms of the event loop's work
(issue 23, seventh round): a dict of the seats' people, two coroutines, a clock call and the
look-ups, for an answer that changes only when a seat changes hands, when the people's rows are
read again or changed (their epochs), when their copies grow old (the TTL of each), or when an
absence ends. The kept answer is keyed on exactly those, and served only while all of them hold.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from store import GameRow, Seat

from .away import Away
from .people import People
from .quiet import Quiet

#: Games kept at most (one small entry each): past it the memory starts again, as after a restart.
MOST = 4096


@dataclass
class _Kept:
    seats: list[Seat]  # the row's own list, held: a new list (a seat changed hands) is a new key
    people: int  # People.epoch when asked
    away: int  # Away.epoch when asked
    expires: float  # monotonic: when the first copy it came from grows old
    ends: float  # wall clock: when the first absence in it ends
    daily: dict[int, Quiet]
    gone: dict[int, float]


class Seen:
    def __init__(self, people: People, away: Away) -> None:
        self.people = people
        self.away = away
        self._kept: dict[int, _Kept] = {}

    async def of(self, game: GameRow, t: float) -> tuple[dict[int, Quiet], dict[int, float]]:
        """The seats' people's quiet hours {seat: Quiet} and absences now {seat: until}, as
        `Planner.daily` and `Away.of` give them at `t`. Both dicts are shared: read them only."""
        kept = self._kept.get(game.id)
        if kept is not None and kept.seats is game.seats and kept.people == self.people.epoch \
                and kept.away == self.away.epoch and t < kept.ends and time.monotonic() < kept.expires:
            return kept.daily, kept.gone
        # The epochs as they were before asking: a change made while we wait makes the answer
        # kept below miss next time, never serve an old one.
        people, away = self.people.epoch, self.away.epoch
        held = {s.user_id: s.seat for s in game.seats if s.human and s.user_id is not None}
        daily: dict[int, Quiet] = {}
        gone: dict[int, float] = {}
        if held:
            users = list(held)
            daily = {held[u]: q for u, q in (await self.people.quiet(users)).items()}
            gone = {held[u]: until for u, until in (await self.away.until(users, at=t)).items()}
        expires = min(self.people.fresh_until(list(held)), self.away.fresh_until())
        if len(self._kept) >= MOST:
            self._kept.clear()
        self._kept[game.id] = _Kept(game.seats, people, away, expires, min(gone.values(), default=math.inf),
                                    daily, gone)
        return daily, gone

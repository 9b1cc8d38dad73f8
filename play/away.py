"""Away mode (issue 19): a player says they are away until some moment (`/game away`, or the table's
⚙️ menu), for every game they play. While they are away, each game does what its host chose (the
`away` setting):

    stretch  (default) their clock stops while they are away (timing.py), so the deadlines of
             windows they owe wait for them; each game grants at most `away_days` days of
             absence in any 30 (a game setting), however the absences are typed and chained,
             so nobody can hold a game up for ever;
    filler   the seat-filler plays their seat at once, as it plays a seat whose player left.

Pings still go to them; the turn message and the table say they are away. The away time is kept
per user in the store (it outlives restarts). The house asks on every move, so it keeps every
away time in memory (a few rows), read again from the store once a minute. Setting it (which
re-plans every game of the player) is the house's (`House.set_away`).
"""

from __future__ import annotations

import logging
import math
import re
import time
from datetime import datetime, timezone

from store import GameRow, Store

from . import settings as settings_mod
from .ports import Clock

log = logging.getLogger(__name__)

#: The furthest ahead a player may say they are away.
LONGEST = 90 * 24 * 3600
#: Seconds the away times read from the store are trusted (another process may change them;
#: this one updates its copy at once when its own players change theirs).
TTL = 60.0
#: Choices offered in the ⚙️ menu, in seconds.
MENU_CHOICES = (8 * 3600, 24 * 3600, 3 * 24 * 3600, 7 * 24 * 3600)

_UNITS = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60,
          "週": 7 * 86400, "週間": 7 * 86400, "日": 86400, "時間": 3600, "分": 60,
          "sem": 7 * 86400, "dia": 86400, "día": 86400, "dias": 86400, "días": 86400}
_PART = re.compile(r"(\d+)\s*(週間|時間|週|日|分|días|dias|día|dia|sem|[wdhm])", re.I)
_BACK = {"back", "off", "none", "0", "戻った", "戻る", "解除", "volví", "volvi", "vuelta", "ya"}


def parse(text: str, at: float) -> float | None | str:
    """What a player typed for `/game away`: "back" (they are back), the epoch second they are
    away until (a duration such as "3d", "1d12h", "90m", or a UTC date "2026-12-24" or
    "2026-12-24 18:00"), or None if it is neither (or not in the future, or too far)."""
    text = (text or "").strip().lower()
    if text in _BACK:
        return "back"
    parts = _PART.findall(text)
    if parts and not _PART.sub("", text).strip():
        until = at + sum(int(n) * _UNITS[u.lower()] for n, u in parts)
    else:
        until = None
        for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
            try:
                until = datetime.strptime(text, fmt).replace(tzinfo=timezone.utc).timestamp()
                break
            except ValueError:
                continue
    if until is None or not at < until <= at + LONGEST:
        return None
    return until


def mode(game: GameRow) -> str:
    return str(settings_mod.merged(game.settings).get("away", "stretch"))


class Away:
    """Who is away now, as the store says (read again once a minute; changes this process makes
    are kept at once)."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._away: dict[int, float] = {}
        self._read: float | None = None  # when (monotonic) the store was last read
        #: Counts every change of the kept away times (a read or a change), so that an answer
        #: built from them (seen.py) knows when it may be out of date.
        self.epoch = 0

    async def until(self, user_ids: list[int], at: float | None = None) -> dict[int, float]:
        """{user: until} of the users away now (`at`: the caller's now, when it has one)."""
        if at is None:
            at = self.clock()
        if self._read is None or time.monotonic() - self._read >= TTL:
            self._away = await self.store.away(at)
            self._read = time.monotonic()
            self.epoch += 1
        return {u: self._away[u] for u in user_ids if self._away.get(u, 0.0) > at}

    def fresh_until(self) -> float:
        """The monotonic instant the kept away times grow old (they are read again after it)."""
        return self._read + TTL if self._read is not None else -math.inf

    async def of(self, game: GameRow) -> dict[int, float]:
        """{seat: until} of the game's seats whose present player is away now."""
        held = {s.user_id: s.seat for s in game.seats if s.human and s.user_id is not None}
        if not held:
            return {}
        return {held[u]: until for u, until in (await self.until(list(held))).items()}

    async def filler_plays(self, game: GameRow, seat: int) -> bool:
        """Whether the seat-filler plays `seat` now: nobody holds it, or its player is away and
        the host chose that the seat-filler plays for players away."""
        if seat >= len(game.seats):
            return False
        if game.seats[seat].ai_plays:
            return True
        return mode(game) == "filler" and seat in await self.of(game)

    async def keep(self, user_id: int, until: float | None) -> None:
        """The player is away until `until` (None: back): written, and known here at once."""
        await self.store.set_away(user_id, until)
        self.epoch += 1
        if until is None:
            self._away.pop(user_id, None)
        else:
            self._away[user_id] = until

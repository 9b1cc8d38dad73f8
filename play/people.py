"""People's quiet hours and time zones (`/game prefs`), as the runtime asks for them on every
move, and their language (what they read in Discord, learnt from every interaction: what is
addressed to one person follows it, issue 30): kept in memory (a few rows), read again from the
store once a minute; a change this process makes is known at once."""

from __future__ import annotations

import math
import time

from store import Store

from .quiet import Quiet, parse_quiet, zone

#: Seconds a user's quiet hours read from the store are trusted (another process may change them).
TTL = 60.0


class People:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[int, tuple[float, Quiet]] = {}
        self._langs: dict[int, tuple[float, str | None]] = {}
        #: Counts every change of the kept quiet hours (a read or a change), so that an answer
        #: built from them (seen.py) knows when it may be out of date.
        self.epoch = 0

    async def quiet(self, user_ids: list[int]) -> dict[int, Quiet]:
        """Each user's daily quiet hours (no absences: those are per game, timing.py)."""
        now = time.monotonic()
        stale = [u for u in user_ids if u not in self._known or now - self._known[u][0] >= TTL]
        if stale:
            rows = await self.store.quiet(stale)
            self.epoch += 1
            for user in stale:
                text, tz = rows.get(user, (None, None))
                self._known[user] = (now, Quiet(parse_quiet(text or ""), tz if zone(tz) is not None else "UTC"))
        return {u: self._known[u][1] for u in user_ids}

    async def set(self, user_id: int, quiet: str | None, tz: str | None) -> None:
        """Keep the user's quiet hours ("23:00-07:00", or None for none) and time zone (None:
        unchanged). The caller checked both (`parse_quiet`, `zone`)."""
        await self.store.set_quiet(user_id, quiet, tz)
        self._known.pop(user_id, None)
        self.epoch += 1

    def fresh_until(self, user_ids: list[int]) -> float:
        """The monotonic instant the first of these users' kept quiet hours grows old (they
        are read again after it); -inf for a user not kept."""
        return min((self._known[u][0] + TTL if u in self._known else -math.inf for u in user_ids), default=math.inf)

    async def lang(self, user_id: int) -> str | None:
        """The user's language, or None if they were never seen."""
        now = time.monotonic()
        known = self._langs.get(user_id)
        if known is None or now - known[0] >= TTL:
            known = self._langs[user_id] = (now, (await self.store.langs([user_id])).get(user_id))
        return known[1]

    async def saw(self, user_id: int, lang: str) -> None:
        """The user interacted in `lang`: kept when it is news (one write per change)."""
        known = self._langs.get(user_id)
        if known is not None and known[1] == lang and time.monotonic() - known[0] < TTL:
            return
        await self.store.set_lang(user_id, lang)
        self._langs[user_id] = (time.monotonic(), lang)

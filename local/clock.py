"""The local stand-in's clock. SimCord's clock is virtual: it moves only when told. Here it
follows the wall clock (ticking every second), so AI seats think for their two seconds and a
live game's turn timer runs as on Discord; and it can be fast-forwarded (`/local clock`) to see
reminders and deadlines without waiting a day.

Where the clock stands is kept in the local database, so a restart never moves time backwards
(games' timers are virtual instants) even after a fast-forward.

SimCord runs one operation at a time: a page's click and a tick of the clock must not overlap.
Both take `lock`: clicks wait for a tick to finish instead of being refused.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime, timedelta
from typing import Any

log = logging.getLogger("boardroom.local")

TICK = 1.0
#: How often (in seconds of wall time) the clock's position is written to the database.
SAVE_EVERY = 15.0
META_KEY = "local.clock"
#: A fast-forward is applied in at most this many ticks (each at least MIN_STRIDE long), the
#: pages shown after each: one sees the game move on, and the bot (whose pictures are drawn on
#: the event loop) leaves the page time to fetch them.
STRIDES = 12
MIN_STRIDE = 600.0
#: Reaching where the last run stopped takes at most this many advances.
CATCH_UP_TRIES = 50
#: The fast-forwards offered by `/local clock`, in seconds.
STEPS = {"1m": 60, "10m": 600, "1h": 3600, "12h": 12 * 3600, "1d": 24 * 3600, "1w": 7 * 24 * 3600}


class LocalClock:
    def __init__(self, env: Any, store: Any) -> None:
        self.env = env
        self.store = store
        self.lock = asyncio.Lock()
        self.preview: Any = None
        self._ahead = 0.0  # fast-forward asked for and not yet applied
        self._stride = MIN_STRIDE
        self._seen = -1    # requests the bot had made at the last look (-1: publish on the first)
        self._saved_at = 0.0

    def now(self) -> datetime:
        return self.env.now()

    def forward(self, seconds: float) -> None:
        """Ask for a fast-forward; the next tick applies it (a command's own callback may not move
        SimCord's clock: it runs inside the bot)."""
        self._ahead += seconds
        self._stride = max(MIN_STRIDE, self._ahead / STRIDES)

    async def start(self) -> None:
        """Bring the virtual clock to the wall clock, or to where the last run left it when that
        is later (a fast-forward): never backwards, so stored timers keep their meaning."""
        saved = await self.store.meta(META_KEY)
        floor = datetime.fromisoformat(saved) if saved else self.now()
        target = max(datetime.now(UTC), floor)
        async with self.lock:
            await self._advance((target - self.now()).total_seconds())
            # An advance the bot could not settle in time stops short (SimCord's clock starts on
            # 1 January and walks the bot's hourly rounds). Short of the wall clock is fine, the
            # ticks catch up; short of where the last run stood is not, so that part is retried.
            for _ in range(CATCH_UP_TRIES):
                if self.now() >= floor:
                    break
                await self._advance((floor - self.now()).total_seconds())
        await self.save()

    async def save(self) -> None:
        await self.store.set_meta(META_KEY, self.now().isoformat())
        self._saved_at = time.monotonic()

    async def run(self) -> None:
        """Tick until cancelled."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(TICK)
            now = time.monotonic()
            try:
                await self.tick(now - last)
            except Exception:  # one bad tick (a bot error the log already holds) must not stop time
                log.exception("the local clock could not tick")
            last = now

    async def tick(self, elapsed: float) -> None:
        async with self.lock:
            jump = min(self._ahead, self._stride)
            self._ahead -= jump
            target = self.now() + timedelta(seconds=elapsed + jump)
            await self._advance(elapsed + jump)
            # What a step the bot could not settle in time left undone is asked for again.
            self._ahead += max(0.0, (target - self.now()).total_seconds())
            await self.publish()
        if time.monotonic() - self._saved_at >= SAVE_EVERY:
            await self.save()

    async def _advance(self, seconds: float) -> None:
        if seconds <= 0:
            return
        try:
            await self.env.advance_time(seconds)
        except TimeoutError as error:
            # The bot stayed busy past SimCord's settle deadline (a long fast-forward full of AI
            # moves): what was done is kept, and the next tick goes on from there.
            log.info("the local clock fell behind: %s", error)

    async def publish(self) -> None:
        """Show the pages what the bot did by itself since the last look (an AI move, a
        deadline). Only then: each publication makes a click on the state before it stale ("Action
        was not completed"), so what a page's own action did, which that page already shows, is
        not published again."""
        made = len(self.env.http_requests)
        if self.preview is None or made == self._seen:
            return
        self._seen = made
        try:
            await self.preview.refresh()
        except TimeoutError as error:  # the bot is still busy: shown as it stands, and again next tick
            self._seen = -1
            log.info("the pages were shown before the bot was done: %s", error)

    def attach(self, preview: Any) -> None:
        """Serve `preview`: its actions (clicks, selects, forms, commands, switching member) take
        the clock's lock, and what they did counts as seen. SimCord's page calls this one method
        for each of them and offers no hook, so the bound method is wrapped (SimCord is pinned
        exactly; tests/local drive the page through it)."""
        self.preview = preview
        act = preview._action

        async def locked(context_id: Any, body: Any) -> Any:
            async with self.lock:
                try:
                    return await act(context_id, body)
                finally:
                    self._seen = len(self.env.http_requests)

        preview._action = locked

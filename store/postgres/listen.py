"""Notices between processes on one PostgreSQL (LISTEN/NOTIFY).

A move committed by a process that does not own the game (a click in a DM arrives on shard 0,
wherever the game lives) carries a `pg_notify` in its transaction, so the notice goes out exactly
when the move is durable and never for a rolled-back one. Every process listens on one connection
of its own; the owner refreshes its cache and the table (play/crossing.py).

A notice is a hint, never the truth: a process that missed one (its listening connection dropped)
still decides nothing on a stale row, because every move is a compare-and-swap on the game's
version. After a reconnection `on_gap` runs so the owner can drop its cache and catch up from the
games' `told_version`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

import asyncpg

log = logging.getLogger("store")

#: The notification channel (payload "game_id:version:guild_id", the guild 0 for none: a process
#: that does not own the game drops the notice without reading anything).
NOTICES = "boardroom_moves"
#: The payload, built in SQL from the committed row, in the move's transaction.
NOTICE_SQL = ("SELECT pg_notify($1, id::text || ':' || version::text || ':' || COALESCE(guild_id, 0)::text)"
              " FROM games WHERE id = $2")
#: How often the listener checks its connection; how often it asks the server (a connection cut
#: without a word, by a network partition, looks open until something is sent); how long the
#: answer may take; the longest wait between reconnections.
WATCH_EVERY = 2.0
PROBE_EVERY = 30.0
PROBE_TIMEOUT = 10.0
RECONNECT_MAX = 30.0


def parse(payload: str) -> tuple[int, int, int | None] | None:
    try:
        game, version, guild = (int(x) for x in payload.split(":"))
    except ValueError:
        return None
    return game, version, guild or None


class Listening:
    """A held LISTEN connection that comes back after a loss."""

    def __init__(self, url: str, on_notice: Callable[[int, int, int | None], None],
                 on_gap: Callable[[], Awaitable[None]]) -> None:
        self.url = url
        self.on_notice = on_notice
        self.on_gap = on_gap
        self.conn: asyncpg.Connection | None = None
        self.task: asyncio.Task | None = None
        self.heard = 0  # notices received (tests, metrics)

    @classmethod
    async def start(cls, url: str, on_notice: Callable[[int, int, int | None], None],
                    on_gap: Callable[[], Awaitable[None]]) -> "Listening":
        listening = cls(url, on_notice, on_gap)
        try:
            await listening.connect()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncio.TimeoutError) as exc:
            # The watch connects again (and catches up) as it would after a loss.
            log.warning("cannot listen for other processes' moves yet (%s); retrying", exc)
        listening.task = asyncio.create_task(listening.watch(), name="boardroom-listen")
        return listening

    @property
    def up(self) -> bool:
        """Whether the listening connection is open now."""
        return self.conn is not None and not self.conn.is_closed()

    async def connect(self) -> None:
        conn = await asyncpg.connect(self.url)
        await conn.add_listener(NOTICES, self._heard)
        self.conn = conn

    def _heard(self, conn: object, pid: int, channel: str, payload: str) -> None:
        parsed = parse(payload)
        if parsed is None:
            log.warning("ignoring a malformed notice %r", payload)
            return
        self.heard += 1
        self.on_notice(*parsed)

    async def watch(self) -> None:
        """Check the connection; when it is gone, connect again with growing waits, then let
        the owner catch up on what it may have missed."""
        wait = WATCH_EVERY
        since_probe = 0.0
        while True:
            await asyncio.sleep(WATCH_EVERY)
            since_probe += WATCH_EVERY
            if self.conn is not None and not self.conn.is_closed() and since_probe >= PROBE_EVERY:
                since_probe = 0.0
                try:
                    await asyncio.wait_for(self.conn.fetchval("SELECT 1"), PROBE_TIMEOUT)
                except Exception:  # no answer: the connection is as good as gone
                    self.conn.terminate()
            if self.conn is not None and not self.conn.is_closed():
                continue
            if self.conn is not None:
                log.warning("the PostgreSQL notice connection was lost; connecting again")
            while True:
                try:
                    await self.connect()
                    break
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncio.TimeoutError) as exc:
                    log.info("notice connection still refused (%s); retrying in %.0fs", exc, wait)
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, RECONNECT_MAX)
            wait = WATCH_EVERY
            try:
                await self.on_gap()
            except Exception:
                log.exception("catching up after the notice connection came back failed")

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        if self.conn is not None and not self.conn.is_closed():
            await self.conn.close()

"""The optional HTTP endpoint (BOARDROOM_METRICS_PORT, on 127.0.0.1 unless
BOARDROOM_METRICS_HOST says otherwise):

    GET /healthz   200 {"status": "ok", ...} while the gateway is connected and the database
                   takes a write; 503 with the reason otherwise (and while stopping)
    GET /metrics   Prometheus' text format (service/metrics.py), always 200: an outage of the
                   database is a figure (`boardroom_database_writable 0`), never an error page

It runs on the bot's event loop (service/http.py: a bounded server), so a health check sees the
bot as it is: a loop too busy to answer is itself unhealthy. What the endpoints say is computed at
most once per FRESH seconds, however many ask: the metrics text is a snapshot, refreshed in a task
of its own that scrapes share (a scrape waits for it at most SCRAPE_WAIT seconds, then gets the
previous snapshot); the health write is shared the same way. A flood of requests therefore costs
the loop only the bytes it writes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import discord
from prometheus_client import CONTENT_TYPE_LATEST

from . import metrics
from .http import Reply, Server

log = logging.getLogger(__name__)

#: A database write slower than this counts as not writable (locked, a stalled disk).
WRITE_TIMEOUT = 5.0
#: Answers younger than this are served again rather than computed anew.
FRESH = 1.0
#: How long a scrape waits for a refresh in progress before it takes the previous snapshot.
SCRAPE_WAIT = 2.0


class EndpointError(RuntimeError):
    """The endpoint cannot listen (the port is taken): one line for the admin."""


class Gateway:
    """Whether the Discord gateway is connected, from discord.py's events: up once READY (or
    RESUMED) arrived, down from a disconnect until the next of them."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.dropped = False
        bot.add_listener(self._up, "on_ready")  # type: ignore[attr-defined]
        bot.add_listener(self._up, "on_resumed")  # type: ignore[attr-defined]
        bot.add_listener(self._down, "on_disconnect")  # type: ignore[attr-defined]

    async def _up(self) -> None:
        self.dropped = False

    async def _down(self) -> None:
        self.dropped = True

    @property
    def connected(self) -> bool:
        return self.bot.is_ready() and not self.bot.is_closed() and not self.dropped


class Endpoint:
    def __init__(self, bot: Any, server: Server | None, gateway: Gateway | None) -> None:
        self.bot = bot
        self.server = server
        self.gateway = gateway
        self.writing: asyncio.Task | None = None  # the last health write, if it has not returned
        self.written: tuple[float, bool] | None = None  # (when, whether it went through)
        self.snapshot: bytes | None = None
        self.snapshot_at = 0.0
        self.refreshing: asyncio.Task | None = None

    @classmethod
    async def start(cls, bot: Any, host: str, port: int) -> "Endpoint":
        endpoint = cls(bot, None, Gateway(bot))
        endpoint.server = Server({"/healthz": endpoint.healthz, "/metrics": endpoint.metrics})
        try:
            await endpoint.server.start(host, port)
        except OSError as exc:
            raise EndpointError(f"cannot listen on {host}:{port} (BOARDROOM_METRICS_PORT): {exc.strerror or exc}") from None
        log.info("health and metrics on http://%s:%s/healthz and /metrics", host, port)
        return endpoint

    async def stop(self) -> None:
        if self.refreshing is not None:
            self.refreshing.cancel()
            await asyncio.gather(self.refreshing, return_exceptions=True)
        if self.server is not None:
            await self.server.stop()

    # -- the database: one real write at a time, shared by everyone who asks ------------------

    async def database_writable(self) -> bool:
        """A real write. A slow one is never cancelled (cancelling a store write midway would free
        its lock while the transaction still runs): it is left to finish, and until it does the
        database counts as not writable and no second write is started. Overlapping callers
        share the write in progress; a result younger than FRESH is reused."""
        store = self.bot.store
        if store is None:
            return False
        if self.written is not None and time.monotonic() - self.written[0] < FRESH:
            return self.written[1]
        writing = self.writing
        if writing is None or writing.done():
            writing = self.writing = asyncio.ensure_future(store.set_meta("health.checked_at", f"{time.time():.0f}"))
        # `writing`, not `self.writing`: another caller may start the next write meanwhile.
        done, _ = await asyncio.wait({writing}, timeout=WRITE_TIMEOUT)
        if not done:
            log.warning("health check: a database write has taken more than %.0fs", WRITE_TIMEOUT)
            metrics.DATABASE_UP.set(0)
            return False
        error = writing.exception()
        if error is not None:  # any failure to write is the answer, not an error of the endpoint
            log.warning("health check: the database refused a write (%s)", error)
        self.written = (time.monotonic(), error is None)  # only a finished write's answer is reused
        metrics.DATABASE_UP.set(int(error is None))
        return error is None

    # -- the two pages -------------------------------------------------------------------------

    async def healthz(self) -> Reply:
        gateway = self.gateway.connected if self.gateway is not None else False
        database = await self.database_writable()
        metrics.GATEWAY_UP.set(int(gateway))
        stopping = bool(getattr(self.bot, "stopping", False))
        ok = gateway and database and not stopping
        body = {
            "status": "ok" if ok else ("stopping" if stopping else "unhealthy"),
            "gateway": "connected" if gateway else "disconnected",
            "database": "writable" if database else "not writable",
        }
        return Reply(200 if ok else 503, json.dumps(body).encode(), "application/json")

    async def metrics(self) -> Reply:
        if time.monotonic() - self.snapshot_at >= FRESH or self.snapshot is None:
            if self.refreshing is None or self.refreshing.done():
                self.refreshing = asyncio.ensure_future(self.refresh())
            await asyncio.wait({self.refreshing}, timeout=SCRAPE_WAIT)
        if self.snapshot is None:  # the first refresh is slow (the database hangs): what is known now
            self.snapshot = metrics.exposition()
        return Reply(200, self.snapshot, CONTENT_TYPE_LATEST)

    async def refresh(self) -> None:
        """Everything /metrics shows, read once, then the text. Any failure of the database is
        a figure: the counts keep their last values and `boardroom_database_writable` says 0."""
        if self.gateway is not None:
            metrics.GATEWAY_UP.set(int(self.gateway.connected))
        metrics.bot_figures(self.bot)
        writable = await self.database_writable()
        if writable:
            try:
                await asyncio.wait_for(metrics.refresh(self.bot, discord.utils.utcnow().timestamp()), WRITE_TIMEOUT)
            except Exception as exc:  # StoreUnavailable, a lost connection, a timeout: the figure says it
                log.warning("metrics: the database figures could not be read (%s)", exc)
                metrics.DATABASE_UP.set(0)
        self.snapshot = metrics.exposition()
        self.snapshot_at = time.monotonic()

"""The optional HTTP endpoint (BOARDROOM_METRICS_PORT, on 127.0.0.1 unless
BOARDROOM_METRICS_HOST says otherwise):

    GET /healthz   200 {"status": "ok", ...} while the gateway is connected and the database
                   takes a write; 503 with the reason otherwise (and while stopping)
    GET /metrics   Prometheus' text format (service/metrics.py)

It runs on the bot's event loop (aiohttp, which discord.py already brings), so a health check
sees the bot as it is: a loop too busy to answer is itself unhealthy.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from . import metrics

log = logging.getLogger(__name__)

#: A database write slower than this counts as not writable (locked, a stalled disk).
WRITE_TIMEOUT = 5.0


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
    def __init__(self, bot: Any, runner: web.AppRunner, gateway: Gateway) -> None:
        self.bot = bot
        self.runner = runner
        self.gateway = gateway
        self.writing: asyncio.Task | None = None  # the last health write, if it has not returned

    @classmethod
    async def start(cls, bot: Any, host: str, port: int) -> "Endpoint":
        app = web.Application()
        endpoint = cls(bot, web.AppRunner(app, access_log=None), Gateway(bot))
        app.router.add_get("/healthz", endpoint.healthz)
        app.router.add_get("/metrics", endpoint.metrics)
        await endpoint._listen(host, port)
        log.info("health and metrics on http://%s:%s/healthz and /metrics", host, port)
        return endpoint

    async def _listen(self, host: str, port: int) -> None:
        await self.runner.setup()
        try:
            await web.TCPSite(self.runner, host, port).start()
        except OSError as exc:
            await self.runner.cleanup()
            raise EndpointError(f"cannot listen on {host}:{port} (BOARDROOM_METRICS_PORT): {exc.strerror or exc}") from None

    async def stop(self) -> None:
        await self.runner.cleanup()

    async def database_writable(self) -> bool:
        """A real write. A slow one is never cancelled (cancelling a store write midway would free
        its lock while the transaction still runs): it is left to finish, and until it does the
        database counts as not writable and no second write is started."""
        store = self.bot.store
        if store is None:
            return False
        if self.writing is None or self.writing.done():
            self.writing = asyncio.ensure_future(store.set_meta("health.checked_at", f"{time.time():.0f}"))
        done, _ = await asyncio.wait({self.writing}, timeout=WRITE_TIMEOUT)
        if not done:
            log.warning("health check: a database write has taken more than %.0fs", WRITE_TIMEOUT)
            return False
        error = self.writing.exception()
        if error is not None:  # any failure to write is the answer, not an error of the endpoint
            log.warning("health check: the database refused a write (%s)", error)
            return False
        return True

    async def healthz(self, request: web.Request) -> web.Response:
        gateway = self.gateway.connected
        database = await self.database_writable()
        metrics.GATEWAY_UP.set(int(gateway))
        metrics.DATABASE_UP.set(int(database))
        stopping = bool(getattr(self.bot, "stopping", False))
        ok = gateway and database and not stopping
        body = {
            "status": "ok" if ok else ("stopping" if stopping else "unhealthy"),
            "gateway": "connected" if gateway else "disconnected",
            "database": "writable" if database else "not writable",
        }
        return web.json_response(body, status=200 if ok else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        metrics.GATEWAY_UP.set(int(self.gateway.connected))
        await metrics.refresh(self.bot, discord.utils.utcnow().timestamp())
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})

"""A deliberately small HTTP/1.1 server for /healthz and /metrics, on the bot's event loop.

Why not aiohttp's web server (which discord.py already brings): it keeps a connection that sends
its request head a byte at a time for as long as the client likes, and it has no cap on
connections, so 400 slow clients held 412 file descriptors of the bot's process for minutes
(issue 25, finding 5). Here every connection is bounded:
  - at most MAX_CONNECTIONS at once; one more is closed as soon as it is accepted;
  - the request head (at most HEAD_LIMIT bytes) must arrive within HEAD_TIMEOUT seconds, in all;
  - the answer must be taken within WRITE_TIMEOUT seconds;
  - one request per connection (`Connection: close`): nothing is kept between scrapes.
Only GET and HEAD of a known path are served; a handler answers from what is already computed
(endpoint.py), so a flood of requests costs the loop only the bytes it writes.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Awaitable, Callable

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 16
HEAD_TIMEOUT = 5.0
WRITE_TIMEOUT = 10.0
HEAD_LIMIT = 8192
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"}


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    content_type: str = "text/plain; charset=utf-8"


Handler = Callable[[], Awaitable[Reply]]


class Server:
    def __init__(self, routes: dict[str, Handler]) -> None:
        self.routes = routes
        self.active = 0  # connections being served now
        self.refused = 0  # connections closed at once: the cap was reached
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self, host: str, port: int) -> None:
        self.server = await asyncio.start_server(self._serve, host, port, limit=HEAD_LIMIT, backlog=64)

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
        for writer in list(self.writers):
            writer.transport.abort()
        if self.server is not None:
            await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.active >= MAX_CONNECTIONS:
            self.refused += 1
            writer.transport.abort()
            return
        self.active += 1
        self.writers.add(writer)
        try:
            reply = await self._answer(reader)
            if reply is not None:
                writer.write(self._encode(reply))
                await asyncio.wait_for(writer.drain(), WRITE_TIMEOUT)
        except (asyncio.TimeoutError, ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # a slow, silent or oversized client: dropped, nothing to say
        except asyncio.CancelledError:
            pass  # the bot stops (3.11's stream server would log a cancelled handler as an error)
        except Exception:
            log.exception("the health and metrics endpoint failed to answer")
        finally:
            self.active -= 1
            self.writers.discard(writer)
            writer.transport.abort()  # no lingering close handshake: the descriptor is freed now

    async def _answer(self, reader: asyncio.StreamReader) -> Reply | None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT)
        except asyncio.LimitOverrunError:
            return Reply(400, b"request head too large\n")
        parts = head.split(b"\r\n", 1)[0].decode("latin-1").split()
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            return Reply(400, b"bad request\n")
        method, target = parts[0], parts[1].split("?", 1)[0]
        handler = self.routes.get(target)
        if handler is None:
            return Reply(404, b"not found\n")
        if method not in ("GET", "HEAD"):
            return Reply(405, b"GET only\n")
        reply = await handler()
        return Reply(reply.status, b"", reply.content_type) if method == "HEAD" else reply

    @staticmethod
    def _encode(reply: Reply) -> bytes:
        head = (f"HTTP/1.1 {reply.status} {REASONS.get(reply.status, 'Error')}\r\n"
                f"Content-Type: {reply.content_type}\r\nContent-Length: {len(reply.body)}\r\n"
                "Connection: close\r\nCache-Control: no-store\r\n\r\n")
        return head.encode("latin-1") + reply.body

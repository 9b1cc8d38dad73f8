"""The health and metrics endpoint under load and through outages (issue 25, findings 2 and 5;
issue 27, "metrics that survive any outage"): overlapping probes never get a 500, slow clients
are dropped and capped, a flood of scrapes is served from one snapshot, and /metrics says 200 with
`boardroom_database_writable 0` while the database refuses. Outside SimCord: a stand-in bot, real
sockets, real time (short timeouts)."""

from __future__ import annotations

import asyncio
import random
import socket
from types import SimpleNamespace

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from service import endpoint as endpoint_mod
from service import http as http_mod
from service import metrics
from service.endpoint import Endpoint
from store import StoreUnavailable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Store:
    """What the endpoint asks of a store, with a switch for "the database refuses"."""

    def __init__(self) -> None:
        self.refusing = False
        self.writes = 0
        self.counted = 0

    async def set_meta(self, key: str, value: str) -> None:
        await asyncio.sleep(random.uniform(0, 0.004))  # a real write takes a moment: probes overlap
        if self.refusing:
            raise StoreUnavailable("PostgreSQL 57P01: terminating connection due to administrator command")
        self.writes += 1

    async def game_counts(self):
        self.counted += 1
        if self.refusing:
            raise StoreUnavailable("the PostgreSQL connection failed: ConnectionRefusedError")
        return {("imtheboss", "active"): 2}

    async def timer_counts(self, now, late):
        return 3, 1, 0


def stand_in_bot(store: Store) -> SimpleNamespace:
    return SimpleNamespace(store=store, add_listener=lambda *a: None, is_ready=lambda: True,
                           is_closed=lambda: False, guilds=[object()] * 3, latencies=[(0, 0.042), (1, float("inf"))])


@pytest.fixture
async def served():
    store = Store()
    port = free_port()
    endpoint = await Endpoint.start(stand_in_bot(store), "127.0.0.1", port)
    try:
        yield endpoint, store, port
    finally:
        await endpoint.stop()


async def get(session: aiohttp.ClientSession, port: int, path: str) -> tuple[int, str]:
    async with session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


async def test_overlapping_health_probes_never_answer_500(served, monkeypatch):
    endpoint, store, port = served
    monkeypatch.setattr(endpoint_mod, "FRESH", 0.0)  # every probe writes: the overlap is the point
    monkeypatch.setattr(http_mod, "MAX_CONNECTIONS", 1000)
    statuses: list[int] = []

    async def prober(session: aiohttp.ClientSession) -> None:  # one prober asks again as soon as answered
        for _ in range(30):
            statuses.append((await get(session, port, "/healthz"))[0])

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        await asyncio.gather(*(prober(session) for _ in range(20)))
    assert statuses.count(200) == len(statuses) == 600, {s: statuses.count(s) for s in set(statuses)}
    assert store.writes >= 5


async def test_slow_clients_are_capped_and_dropped(served, monkeypatch):
    endpoint, store, port = served
    monkeypatch.setattr(http_mod, "HEAD_TIMEOUT", 0.5)
    monkeypatch.setattr(http_mod, "MAX_CONNECTIONS", 8)
    slow = []
    for _ in range(40):  # a slowloris: the head starts and never ends
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        slow.append((reader, writer))
    await asyncio.sleep(0.1)
    assert endpoint.server.active <= 8 and endpoint.server.refused >= 32

    async def closed_by_server(reader: asyncio.StreamReader) -> bool:
        try:
            return await reader.read() == b""
        except ConnectionResetError:  # closed at once (over the cap): a reset
            return True

    # Every one of them is closed by the server within the head's time limit.
    assert all(await asyncio.wait_for(asyncio.gather(*(closed_by_server(r) for r, _ in slow)), 3))
    for _, writer in slow:
        writer.close()
    assert endpoint.server.active == 0
    async with aiohttp.ClientSession() as session:
        assert (await get(session, port, "/healthz"))[0] == 200
        assert (await get(session, port, "/nothing"))[0] == 404


async def test_a_flood_of_scrapes_is_served_from_one_snapshot(served, monkeypatch):
    endpoint, store, port = served
    monkeypatch.setattr(http_mod, "MAX_CONNECTIONS", 1000)
    refreshed = []
    real = metrics.refresh

    async def counted(*args):
        refreshed.append(1)
        await real(*args)

    monkeypatch.setattr(metrics, "refresh", counted)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        answers = await asyncio.gather(*(get(session, port, "/metrics") for _ in range(300)))
    assert {status for status, _ in answers} == {200}
    assert len({text for _, text in answers}) <= 2  # the same snapshot, to nearly every scrape
    assert len(refreshed) <= 2 and store.writes <= 2  # however many asked, the database was asked once


def figures(text: str) -> dict[tuple[str, tuple], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


async def test_metrics_answer_200_through_an_outage_with_every_series(served, monkeypatch):
    endpoint, store, port = served
    monkeypatch.setattr(endpoint_mod, "FRESH", 0.0)
    metrics.known(("imtheboss", "ewars"))
    async with aiohttp.ClientSession() as session:
        status, text = await get(session, port, "/metrics")
        assert status == 200
        up = figures(text)
        assert up[("boardroom_database_writable", ())] == 1
        assert up[("boardroom_games", (("status", "active"), ("title", "imtheboss")))] == 2
        store.refusing = True
        status, text = await get(session, port, "/metrics")
        assert status == 200, text
        down = figures(text)
        assert down[("boardroom_database_writable", ())] == 0
        assert down[("boardroom_games", (("status", "active"), ("title", "imtheboss")))] == 2  # the last known
        store.refusing = False
        status, text = await get(session, port, "/metrics")
        assert figures(text)[("boardroom_database_writable", ())] == 1
    names = {name for name, _ in down}
    assert "process_resident_memory_bytes" in names and "process_open_fds" in names
    assert not [n for n in names if n.endswith("_created")]
    build = [labels for name, labels in down if name == "boardroom_build_info"]
    assert build and {"version", "revision", "python", "discord_py"} <= {k for k, _ in build[0]}
    assert down[("boardroom_guilds", ())] == 3
    assert down[("boardroom_gateway_latency_seconds", (("shard", "0"),))] == pytest.approx(0.042)
    assert ("boardroom_gateway_latency_seconds", (("shard", "1"),)) not in down  # no heartbeat yet: no figure
    for labels in ((("result", "applied"), ("title", "ewars")), (("result", "refused"), ("title", "imtheboss"))):
        assert down[("boardroom_actions_total", labels)] == 0 or ("boardroom_actions_total", labels) in down
    assert ("boardroom_discord_http_errors_total", (("status", "429"),)) in down
    assert ("boardroom_crossing_moves_total", (("way", "sent"),)) in down


async def test_a_probe_arriving_as_the_last_write_ends_does_not_break_the_waiting_one(monkeypatch):
    """The race of issue 25, finding 2, step by step: probe A waits on write W1; W1 ends and,
    before A resumes, probe B arrives and starts W2. A must answer from W1 (not read W2, which
    has not finished: InvalidStateError, a 500)."""
    monkeypatch.setattr(endpoint_mod, "FRESH", 0.0)
    gate, calls = asyncio.Event(), []

    async def set_meta(key: str, value: str) -> None:
        calls.append(key)
        if len(calls) == 1:
            await gate.wait()
        else:
            await asyncio.sleep(0.05)

    endpoint = Endpoint(SimpleNamespace(store=SimpleNamespace(set_meta=set_meta)), server=None, gateway=None)
    a = asyncio.ensure_future(endpoint.database_writable())
    await asyncio.sleep(0)  # A has started W1 and waits for it
    gate.set()
    b = asyncio.ensure_future(endpoint.database_writable())  # runs after W1 ends, before A resumes
    assert await a is True
    assert await b is True
    assert len(calls) == 2

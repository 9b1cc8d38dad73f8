"""A PostgreSQL outage as an operator lives it (issue 27): the test server is stopped while
people play through SimCord and started again. Meanwhile /metrics answers 200 with
`boardroom_database_writable 0` (and every other series), /healthz says 503, the log says so in
short lines (never a traceback per reconnection attempt); once the server is back, writes go
through, the figure says 1 and the game goes on."""

from __future__ import annotations

import asyncio
import logging
import socket

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app import create_bot
from tests.support import postgres
from tests.support.sim import button

pytestmark = pytest.mark.parametrize("backend", ["postgres"], indirect=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def port():
    return free_port()


@pytest.fixture
def simcord_bot(database, port):
    return create_bot(database, metrics_port=port)


@pytest.fixture(autouse=True)
def fresh_answers(monkeypatch):
    monkeypatch.setattr("service.endpoint.FRESH", 0.0)


@pytest.fixture
def outage():
    yield postgres.pause
    postgres.resume()  # whatever the test did, the session's server runs again after it


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


def series(text: str) -> dict[str, float]:
    return {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples if not s.labels}


async def test_metrics_answer_200_while_postgres_is_down_and_recover(sim, port, outage, caplog):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob])
    status, text = await get(port, "/metrics")
    assert status == 200 and series(text)["boardroom_database_writable"] == 1

    caplog.set_level(logging.INFO)
    caplog.clear()
    outage()
    for _ in range(3):
        status, text = await asyncio.wait_for(get(port, "/metrics"), 30)
        assert status == 200, text
        figures = series(text)
        assert figures["boardroom_database_writable"] == 0
        assert figures["process_resident_memory_bytes"] > 0 and "boardroom_gateway_connected" in figures
    status, body = await get(port, "/healthz")
    assert status == 503 and '"database": "not writable"' in body
    await sim.settle()

    postgres.resume()
    for _ in range(50):
        status, text = await get(port, "/metrics")
        if series(text)["boardroom_database_writable"] == 1:
            break
        await asyncio.sleep(0.2)
    assert status == 200 and series(text)["boardroom_database_writable"] == 1
    # The game goes on.
    game = await sim.game()
    from cogs.titles.contract import ui_for

    seat = ui_for("toy").game.to_act(game.state)[0]
    mover = [ann, bob][seat]
    panel = await sim.hand(mover)
    await mover.click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    assert (await sim.game()).version == game.version + 1

    ours = [r for r in caplog.records if r.levelno >= logging.WARNING and not r.name.startswith("pgserver")]
    tracebacks = [r for r in ours if r.exc_info or "Traceback" in r.getMessage()]
    assert not tracebacks, [r.getMessage()[:200] for r in tracebacks]
    assert all("\n" not in r.getMessage() for r in ours), [r.getMessage() for r in ours if "\n" in r.getMessage()]
    # asyncpg's reconnection attempts: one short line each, with the reason.
    attempts = [r.getMessage() for r in ours if r.name == "asyncpg.pool"]
    assert attempts and all("Failed to restore the pool connection floor" in m and "Error" in m for m in attempts)

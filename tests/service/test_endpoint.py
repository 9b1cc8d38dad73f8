"""The health and metrics endpoint (BOARDROOM_METRICS_PORT), scraped over real HTTP from a bot
played through SimCord."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest
from aiohttp import web
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from app import create_bot
from service import healthcheck, metrics
from tests.support.sim import button


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def port():
    return free_port()


@pytest.fixture(autouse=True)
def every_answer_fresh(monkeypatch):
    """These tests read the figures right after the moves that change them: no reuse of an
    answer computed a moment ago (test_endpoint_load.py tests the reuse)."""
    monkeypatch.setattr("service.endpoint.FRESH", 0.0)


@pytest.fixture
def simcord_bot(database, port):
    return create_bot(database, metrics_port=port)


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


async def scrape(port: int) -> dict[tuple[str, tuple], float]:
    status, text = await get(port, "/metrics")
    assert status == 200
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def value(figures: dict, name: str, **labels: str) -> float:
    return figures.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.both_backends  # the counts are SQL of each backend
async def test_metrics_count_games_actions_answers_timers_and_tables(sim, port):
    ann, bob = sim.player("ann"), sim.player("bob")
    before = await scrape(port)
    await sim.start(ann, "toy", others=[bob])
    await sim.arrange(lambda state: state.update(pile=2))
    game = await sim.game()
    from cogs.titles.contract import ui_for

    seat = ui_for("toy").game.to_act(game.state)[0]
    mover, other = [ann, bob][seat], [ann, bob][1 - seat]
    # Refused by the rules: three coins from a pile of two, typed in the form.
    panel = await sim.hand(mover)
    asked = await mover.click(panel, custom_id=button(panel, label="Type a number"))
    await mover.submit_modal(asked, {"n": "3"})
    # Applied: one coin; then the other seat owes a nod, under a deadline.
    panel = await sim.hand(mover)
    await mover.click(panel, custom_id=button(panel, label="Take 1"))
    await other.slash(sim.channel, "game status")
    await sim.settle()

    after = await scrape(port)
    assert value(after, "boardroom_games", title="toy", status="active") == 1
    assert value(after, "boardroom_actions_total", title="toy", result="applied") \
        - value(before, "boardroom_actions_total", title="toy", result="applied") == 1
    assert value(after, "boardroom_actions_total", title="toy", result="refused") \
        - value(before, "boardroom_actions_total", title="toy", result="refused") == 1
    for kind, n in (("click", 4), ("form", 1), ("command", 2)):  # My hand twice, a button, Take 1; /game new, status
        count = "boardroom_interaction_answer_seconds_count"
        assert value(after, count, kind=kind) - value(before, count, kind=kind) >= n, kind
    assert value(after, "boardroom_timers", state="scheduled") >= 1  # the nod's deadline (and a reminder)
    assert value(after, "boardroom_timers", state="due") == 0
    assert value(after, "boardroom_table_updates_queued") == 0
    assert value(after, "boardroom_interactions_in_flight") == 0
    assert value(after, "boardroom_gateway_connected") == 1

    # Virtual time runs past the deadline while the timer loop is stopped: due, then overdue.
    deadline = min(t.due_at for t in await sim.store.timers(game.id))
    await sim.house.stop()
    await sim.advance(deadline - sim.env.now().timestamp() + metrics.OVERDUE_AFTER + 5)
    late = await scrape(port)
    assert value(late, "boardroom_timers", state="due") >= 1
    assert value(late, "boardroom_timers", state="overdue") >= 1


async def test_table_updates_refused_by_discord_are_counted_as_retried(sim, port, monkeypatch):
    from cogs.table import keeper as table_mod

    # The retry waits beyond SimCord's settle timeout: on the virtual clock (as in test_faults).
    monkeypatch.setattr(table_mod, "RETRY_FIRST", 30.0)
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob])
    game = await sim.game()
    from cogs.titles.contract import ui_for

    seat = ui_for("toy").game.to_act(game.state)[0]
    mover = [ann, bob][seat]
    panel = await sim.hand(mover)
    before = await scrape(port)
    # Discord fails every table edit with a server error for now: the update waits for a retry.
    sim.env.inject_error("PATCH", f"/channels/{sim.channel.id}/messages/*", status=500, times=None)
    await mover.click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    during = await scrape(port)
    assert value(during, "boardroom_table_update_retries_total") - value(before, "boardroom_table_update_retries_total") == 1
    assert value(during, "boardroom_table_updates_retrying") == 1
    assert value(during, "boardroom_table_updates_queued") == 1
    sim.env.backend.faults.clear()  # Discord is back: the retry goes out
    await sim.advance(31)
    after = await scrape(port)
    assert value(after, "boardroom_table_updates_retrying") == 0
    assert value(after, "boardroom_table_updates_queued") == 0


@pytest.mark.both_backends  # the health write goes to each backend
async def test_healthz_says_what_is_wrong(sim, port, monkeypatch):
    status, body = await get(port, "/healthz")
    assert status == 200 and '"gateway": "connected"' in body and '"database": "writable"' in body

    async def refuse(*args, **kwargs):
        raise OSError("disk full")

    real = sim.store.set_meta
    monkeypatch.setattr(sim.store, "set_meta", refuse)
    status, body = await get(port, "/healthz")
    assert status == 503 and '"database": "not writable"' in body and '"gateway": "connected"' in body
    # The container's HEALTHCHECK says the same with its exit code.
    assert await asyncio.to_thread(healthcheck.main, {"BOARDROOM_METRICS_PORT": str(port)}) == 1
    monkeypatch.setattr(sim.store, "set_meta", real)
    assert await asyncio.to_thread(healthcheck.main, {"BOARDROOM_METRICS_PORT": str(port),
                                                      "BOARDROOM_METRICS_HOST": "0.0.0.0"}) == 0
    assert await asyncio.to_thread(healthcheck.main, {"BOARDROOM_METRICS_PORT": str(free_port())}) == 1


    sim.bot.dispatch("disconnect")  # the gateway dropped: down until READY or RESUMED
    await sim.settle()
    status, body = await get(port, "/healthz")
    assert status == 503 and '"gateway": "disconnected"' in body and '"database": "writable"' in body
    sim.bot.dispatch("resumed")
    await sim.settle()
    assert (await get(port, "/healthz"))[0] == 200
    figures = await scrape(port)
    assert value(figures, "boardroom_gateway_connected") == 1 and value(figures, "boardroom_database_writable") == 1


async def test_a_hanging_database_write_is_not_cancelled_nor_repeated(monkeypatch):
    """A write that hangs (a locked or stalled disk) makes the database "not writable" after a few
    seconds; it is never cancelled midway (that would free the store's lock while its transaction
    runs) and no second write starts while it hangs. (Outside SimCord: the hang is real time.)"""
    from types import SimpleNamespace

    from service.endpoint import Endpoint

    stalled, writes = asyncio.Event(), []

    async def slow(*args, **kwargs):
        writes.append(args)
        await stalled.wait()

    monkeypatch.setattr("service.endpoint.WRITE_TIMEOUT", 0.05)
    endpoint = Endpoint(SimpleNamespace(store=SimpleNamespace(set_meta=slow)), server=None, gateway=None)
    assert await endpoint.database_writable() is False
    assert await endpoint.database_writable() is False
    assert len(writes) == 1 and not endpoint.writing.cancelled()
    stalled.set()
    assert await endpoint.database_writable() is True  # the hanging write returned at last
    assert await endpoint.database_writable() is True and len(writes) == 2  # the next check writes anew


async def test_discord_error_answers_are_counted_by_status():
    """The aiohttp trace discord.py's session carries (`http_trace`), against a local stand-in."""
    answers = iter([429, 503, 200, 404])

    async def handler(request):
        return web.Response(status=next(answers))

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    def errors(status: str) -> float:
        return REGISTRY.get_sample_value("boardroom_discord_http_errors_total", {"status": status}) or 0.0

    before = {s: errors(s) for s in ("429", "503", "200", "404", "network")}
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.http_trace()]) as session:
            for _ in range(4):
                async with session.post(f"http://127.0.0.1:{port}/api/v10/channels/1/messages") as response:
                    await response.read()
            with pytest.raises(aiohttp.ClientConnectionError):
                await session.get(f"http://127.0.0.1:{free_port()}/nothing-listens-here")
    finally:
        await runner.cleanup()
    after = {s: errors(s) for s in before}
    assert {s: after[s] - before[s] for s in before} == {"429": 1, "503": 1, "200": 0, "404": 1, "network": 1}


def test_the_bot_carries_the_trace():
    bot = create_bot("unused.db")
    assert isinstance(bot.http.http_trace, aiohttp.TraceConfig)


async def test_a_port_already_taken_stops_the_start_with_one_line():
    from types import SimpleNamespace

    from service.endpoint import Endpoint, EndpointError

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = SimpleNamespace(add_listener=lambda *args: None)
        with pytest.raises(EndpointError) as caught:
            await Endpoint.start(bot, "127.0.0.1", port)
    message = str(caught.value)
    assert f"127.0.0.1:{port}" in message and "BOARDROOM_METRICS_PORT" in message and "\n" not in message

"""Shared fixtures. `sim` is a running bot in a simulated Discord (SimCord) with a guild, a
channel and helpers to play as people do; see tests/support/sim.py and tests/README.md.

`database` is where the bot keeps its games: an SQLite file by default; a test (or a module, with
`pytestmark`) marked `both_backends` runs once on SQLite and once on a real PostgreSQL started by
the tests (tests/support/postgres.py), with a fresh database each time."""

from __future__ import annotations

import pytest

from app import create_bot
from store import Store
from store.postgres import PostgresStore
from store.sqlite import SQLiteStore
from tests.support import postgres, toy
from tests.support.sim import Sim

toy.install()

BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc):
    chosen = any("backend" in str(m.args[0]) for m in metafunc.definition.iter_markers("parametrize"))
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends") and not chosen:
        metafunc.parametrize("backend", BACKENDS, indirect=True)


def pytest_sessionfinish(session, exitstatus):
    postgres.stop()


@pytest.fixture
def backend(request):
    """"sqlite", or each backend in turn for tests marked `both_backends`."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def database(backend, tmp_path):
    """The bot's database: an SQLite file path, or the URL of a fresh PostgreSQL database."""
    if backend == "sqlite":
        yield str(tmp_path / "boardroom.db")
        return
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


@pytest.fixture
def simcord_bot(database):
    return create_bot(database)


@pytest.fixture
async def sim(simcord_env, database, monkeypatch):
    # SimCord detaches a bot without closing it, and a store's connections (a worker thread, a
    # pool) would outlive the test: every store a bot opens in this test is closed at the end.
    opened: list[Store] = [simcord_env.bot.store] if simcord_env.bot.store is not None else []
    for backend in (SQLiteStore, PostgresStore):  # what open_store opens
        def tracked(real):
            async def tracked_connect(cls, where, **kw):
                store = await real(where, **kw)
                opened.append(store)
                return store
            return classmethod(tracked_connect)

        monkeypatch.setattr(backend, "connect", tracked(backend.connect))
    s = Sim(simcord_env, database)
    yield s
    try:
        s.check_wire()
    finally:
        if simcord_env.bot.house is not None:
            await simcord_env.bot.house.stop()  # no timer wakes on the database closed below
            await simcord_env.bot.keeper.stop()
        for store in {id(x): x for x in opened + [simcord_env.bot.store] if x is not None}.values():
            await store.close()

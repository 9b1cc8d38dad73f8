"""Shared fixtures. `sim` is a running bot in a simulated Discord (SimCord) with a guild, a
channel and helpers to play as people do; see tests/support/sim.py and tests/README.md."""

from __future__ import annotations

import pytest

from bot import create_bot
from store import Store
from tests.support import toy
from tests.support.sim import Sim

toy.install()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "boardroom.db"


@pytest.fixture
def simcord_bot(db_path):
    return create_bot(db_path)


@pytest.fixture
async def sim(simcord_env, db_path, monkeypatch):
    # SimCord detaches a bot without closing it, and aiosqlite 0.22's worker thread is not a
    # daemon: a store left open (the last bot's, or one replaced by a restart) would keep pytest
    # from exiting. Every store a bot opens in this test is closed at the end.
    opened: list[Store] = [simcord_env.bot.store] if simcord_env.bot.store is not None else []
    real_open = Store.open.__func__

    async def tracked_open(cls, path):
        store = await real_open(cls, path)
        opened.append(store)
        return store

    monkeypatch.setattr(Store, "open", classmethod(tracked_open))
    s = Sim(simcord_env, db_path)
    yield s
    try:
        s.check_wire()
    finally:
        if simcord_env.bot.house is not None:
            await simcord_env.bot.house.stop()  # no timer wakes on the database closed below
        for store in {id(x): x for x in opened + [simcord_env.bot.store] if x is not None}.values():
            await store.close()

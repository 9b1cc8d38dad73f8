"""Shared fixtures. `sim` is a running bot in a simulated Discord (SimCord) with a guild, a
channel and helpers to play as people do; see tests/support/sim.py and tests/README.md."""

from __future__ import annotations

import pytest

from bot import create_bot
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
async def sim(simcord_env, db_path):
    s = Sim(simcord_env, db_path)
    yield s
    s.check_wire()

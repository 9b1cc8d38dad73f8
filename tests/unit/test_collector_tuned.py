"""The bot's process runs the cyclic garbage collector less often than Python's default
(service/collector.py, issue 23): its full collections walked every cached game every few
hundred moves. The benchmarks' rig does as the bot does, so their figures are the bot's."""

from __future__ import annotations

import gc

import pytest

import bot
from bench.rig import Rig
from service import collector


@pytest.fixture
def default_thresholds():
    was = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*was)


def test_the_bot_tunes_the_collector_before_anything_else(default_thresholds):
    with pytest.raises(SystemExit):  # a wrong command line still stops after the tuning
        bot.main(["--db", "x.db"])
    assert gc.get_threshold() == collector.THRESHOLDS
    assert collector.THRESHOLDS[0] > 700


async def test_the_benchmarks_rig_does_as_the_bot(default_thresholds, tmp_path):
    rig = await Rig.open(tmp_path / "g.db", tell=False)
    try:
        assert gc.get_threshold() == collector.THRESHOLDS
    finally:
        await rig.close()

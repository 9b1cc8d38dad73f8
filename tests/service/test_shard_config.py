"""Sharding settings fail fast like the others, and the bot runs the shards it is given: N
processes split Discord's shards (BOARDROOM_SHARDS in all, BOARDROOM_SHARD_IDS this process's
share), and each process's house keeps the games of its share (docs/SCALING.md)."""

from __future__ import annotations

import os

import discord
import pytest

from app import Boardroom, shares
from config import Config, ConfigError
from store import Shards


def config(**env: str) -> Config:
    return Config.from_env(env, dotenv=False)


def test_defaults_run_every_shard_and_draw_in_processes():
    c = config()
    assert (c.shard_count, c.shard_ids) == (None, None)
    assert c.render_processes == min(2, os.cpu_count() or 1)
    assert shares(c) is None


PG = "postgresql://boardroom:secret@db/boardroom"


def test_a_process_takes_its_share():
    c = config(BOARDROOM_DB=PG, BOARDROOM_SHARDS="4", BOARDROOM_SHARD_IDS=" 3, 1 ", BOARDROOM_RENDER_PROCESSES="0")
    assert (c.shard_count, c.shard_ids, c.render_processes) == (4, (1, 3), 0)
    assert shares(c) == Shards(4, (1, 3))
    # Every shard in one process is a lone process: no filter at all.
    assert shares(config(BOARDROOM_SHARDS="2", BOARDROOM_SHARD_IDS="0,1")) is None
    assert shares(config(BOARDROOM_SHARDS="2")) is None


def test_part_of_the_shards_needs_postgresql(tmp_path):
    with pytest.raises(ConfigError) as caught:
        config(BOARDROOM_DB=str(tmp_path / "x.db"), BOARDROOM_SHARDS="2", BOARDROOM_SHARD_IDS="1")
    assert str(caught.value).startswith("BOARDROOM_SHARD_IDS") and "postgresql://" in str(caught.value)
    # All of them in one process is fine on SQLite.
    assert config(BOARDROOM_DB=str(tmp_path / "x.db"), BOARDROOM_SHARDS="2", BOARDROOM_SHARD_IDS="0,1").shard_count == 2


def test_the_bot_is_sharded_as_configured():
    bot = Boardroom(config(BOARDROOM_DB=PG, BOARDROOM_SHARDS="4", BOARDROOM_SHARD_IDS="2,3"))
    assert isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_count, bot.shard_ids) == (4, [2, 3])


def test_ownership_follows_discords_shard_rule():
    # Discord: shard_id = (guild_id >> 22) % shard_count; DMs (no guild) are on shard 0.
    s = Shards(4, (1,))
    assert s.holds(1 << 22) and s.holds(5 << 22) and not s.holds(2 << 22)
    assert not s.holds(None) and Shards(4, (0,)).holds(None)


@pytest.mark.parametrize("env, says", [
    ({"BOARDROOM_SHARDS": "two"}, "BOARDROOM_SHARDS must be a number"),
    ({"BOARDROOM_SHARDS": "0"}, "BOARDROOM_SHARDS must be a number"),
    ({"BOARDROOM_SHARDS": "-1"}, "BOARDROOM_SHARDS must be a number"),
    ({"BOARDROOM_SHARDS": "5000"}, "BOARDROOM_SHARDS must be a number"),
    ({"BOARDROOM_SHARD_IDS": "0"}, "BOARDROOM_SHARD_IDS needs BOARDROOM_SHARDS"),
    ({"BOARDROOM_SHARDS": "2", "BOARDROOM_SHARD_IDS": "0-1"}, "BOARDROOM_SHARD_IDS must be shard numbers"),
    ({"BOARDROOM_SHARDS": "2", "BOARDROOM_SHARD_IDS": "0,,1"}, "BOARDROOM_SHARD_IDS must be shard numbers"),
    ({"BOARDROOM_SHARDS": "2", "BOARDROOM_SHARD_IDS": "2"}, "BOARDROOM_SHARD_IDS: shard 2 does not exist"),
    ({"BOARDROOM_SHARDS": "2", "BOARDROOM_SHARD_IDS": "1,1"}, "BOARDROOM_SHARD_IDS names a shard twice"),
    ({"BOARDROOM_RENDER_PROCESSES": "many"}, "BOARDROOM_RENDER_PROCESSES must be a number"),
    ({"BOARDROOM_RENDER_PROCESSES": "-2"}, "BOARDROOM_RENDER_PROCESSES must be a number"),
])
def test_a_malformed_shard_setting_is_refused_by_name(env, says):
    with pytest.raises(ConfigError) as caught:
        config(**env)
    message = str(caught.value)
    assert message.startswith(says) and "\n" not in message, message

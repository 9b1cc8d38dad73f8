"""The real bot as one process of a sharded deployment (BOARDROOM_SHARDS=2, BOARDROOM_SHARD_IDS=1),
through SimCord: it runs shard 1 only, owns the games of the servers on it, and plays them to the
end (its cache, timers and table); a game of a server on the other shard is not its to keep."""

from __future__ import annotations

import pytest

from app import create_bot
from cogs.titles.contract import ui_for
from store import Shards
from tests.support.sim import custom_ids, results_message, text_of


@pytest.fixture
def simcord_bot(database):
    return create_bot(database, shard_count=2, shard_ids=(1,))


async def test_a_process_running_shard_1_plays_the_games_of_its_servers(sim):
    assert sim.house.games.shards == Shards(2, (1,)) and sim.bot.shard_ids == [1]
    sim.guild = sim.env.create_guild("Shard one", shard_id=1)
    sim.channel = sim.guild.create_text_channel("games")
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob])
    game = await sim.game()
    assert game.status == "active" and sim.house.games.owns(game) and sim.house.games.cached(game.id) is not None
    assert [t.kind for t in await sim.store.timers(game.id)]  # planned, and this process fires them
    engine = ui_for("toy").game
    while (game := await sim.game()).status == "active":
        seat = engine.to_act(game.state)[0]
        member = [ann, bob][seat]
        panel = await sim.hand(member)
        cid = next(c for c in custom_ids(panel) if ":!" in c or c.endswith(":#0"))
        assert (await member.click(panel, custom_id=cid)).acknowledged
        await sim.settle()
    assert "final results" in text_of(results_message(sim))
    # A server on shard 0 is another process's: nothing of its games is kept here.
    other = game.guild_id - (1 << 22)
    assert not sim.house.games.shards.holds(other) and sim.house.games.shards.holds(game.guild_id)

"""The house, played through Discord with the test-only toy title."""

import pytest

from tests.support.sim import custom_ids, picture_urls, text_of

pytestmark = pytest.mark.both_backends


async def test_lobby_start_and_a_whole_game(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob])
    game = await sim.game()
    assert game.status == "active"
    table = await sim.table_message()
    assert picture_urls(table) and table.attachments
    while (await sim.game()).status == "active":
        game = await sim.game()
        engine = sim.house  # noqa: F841
        from cogs.titles.contract import ui_for

        g = ui_for("toy").game
        seat = g.to_act(game.state)[0]
        member = [ann, bob][seat]
        panel = await sim.hand(member)
        cid = next(c for c in custom_ids(panel) if ":!" in c or c.endswith(":#0"))
        result = await member.click(panel, custom_id=cid)
        assert result.acknowledged
        await sim.settle()
    game = await sim.game()
    assert game.status == "finished"
    assert "final results" in text_of(sim.channel.last_message)

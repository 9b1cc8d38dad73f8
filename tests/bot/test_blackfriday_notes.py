"""Black Friday's private panel through the bot (SimCord), issue 15: the "Just for you" field
holds news only, not the notes of a move the player made turns ago."""

from __future__ import annotations

from tests.support.blackfriday import ai_turns, click, find, open_game
from tests.support.sim import panel_of, text_of

NOTE = "Subsidy: +$20 (1 × $20). Units held: 1."


async def test_just_for_you_holds_only_news(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await open_game(sim, ann, [bob], ai=2, seed=10)
    members = {0: ann, 1: bob}
    game = await sim.game()
    assert game.state["active"] == 0 and game.state["players"][0]["money"] == 0

    # ann buys a stock with $0: the order takes a subsidy unit (asked first), a note for her.
    panel = await sim.hand(ann)
    panel = panel_of(await click(sim, ann, panel, label="Buy stock"))
    panel = panel_of(await _add(sim, ann, panel, "Y1"))
    answer = panel_of(await click(sim, ann, panel, suffix=":ok"))
    assert "it takes 1 subsidy unit first" in text_of(answer)
    answer = panel_of(await click(sim, ann, answer, suffix=":oks"))
    game = await sim.game()
    assert game.state["players"][0]["units"] == 1 and game.state["active"] == 1
    # The panel answering her move tells her: that is news.
    assert "Just for you" in text_of(answer) and NOTE in text_of(answer)

    # bob passes; the AI seats play; ann's turn again. Her old note is not news any more.
    panel = await sim.hand(bob)
    assert NOTE not in text_of(panel)  # never another seat's
    await _pass(sim, bob, panel)
    await ai_turns(sim, members)
    game = await sim.game()
    assert game.state["active"] == 0
    panel = await sim.hand(ann)
    assert "**Your turn.**" in text_of(panel)
    assert NOTE not in text_of(panel), text_of(panel)


async def _add(sim, member, panel, value: str):
    select = find(panel, suffix=":a")
    result = await member.select(panel, [value], custom_id=select.custom_id)
    await sim.settle()
    return result


async def _pass(sim, member, panel) -> None:
    select = find(panel, code="Ppass")
    result = await member.select(panel, [select.options[0].value], custom_id=select.custom_id)
    await sim.settle()
    assert result is not None


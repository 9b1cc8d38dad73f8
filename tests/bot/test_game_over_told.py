"""What a newcomer met around the start and the end of a game (issue 28): after the end, the
results are the channel's last word and the game's buttons say it is over instead of "There is
no game in this channel" (#7); before the start, the lobby says what Live means (#2)."""

from __future__ import annotations

from cogs.titles.contract import ui_for
from tests.support.sim import button, custom_ids, labels, reply_text, results_message, text_of


async def _play_until(sim, members, done) -> None:
    """Click each called seat's first move (take one coin, nod) until `done(state)`."""
    rules = ui_for("toy").game
    while not done((game := await sim.game()).state):
        member = members[rules.to_act(game.state)[0]]
        panel = await sim.hand(member)
        await member.click(panel, custom_id=next(c for c in custom_ids(panel) if ":!" in c or c.endswith(":#0")))
        await sim.settle()


async def test_a_deadline_that_ends_the_game_is_told_before_the_results(sim):
    """The seat-filler answers the last move for a person whose time ran out; that move ends
    the game. A table update that starts while the house is still busy with the ending (here:
    rating the game, while the table is asked to refresh) read the finished game and posted the
    results, and the ending move's own story came after them: "Deadline passed for ann" below
    the results. The story of the ending move goes out with the results, above them."""
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob])
    await _play_until(sim, (ann, bob), lambda state: state["pile"] <= 3 and not state["owed"])
    active = (await sim.game()).state["active"]
    rate_game = sim.store.rate_game

    async def rating_while_the_table_updates(row, now):
        sim.store.rate_game = rate_game  # once: the results step asks again, from the table's task
        sim.keeper.refresh(row.id)  # another update of the table (a clock tick, a setting) meanwhile
        await sim.keeper.idle()
        return await rate_game(row, now)

    sim.store.rate_game = rating_while_the_table_updates
    await sim.advance(3601)  # the active seat's deadline: the seat-filler takes the last coin
    assert (await sim.game()).status == "finished"
    history = sim.channel.history()
    told = "\n".join(text_of(m) for m in history)
    name = ("ann", "bob")[active]
    assert f"Deadline passed for {name}" in told, told
    results = [i for i, m in enumerate(history) if "final results" in text_of(m).lower()]
    assert len(results) == 1, told
    assert results_message(sim).id == history[results[0]].id, "the results are not the channel's last word"


async def test_my_hand_after_the_end_links_the_results(sim):
    """"My hand" on the last call of a finished game said "There is no game in this channel";
    it says the game is over, with a link to its results message."""
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob])
    calls = []
    await _play_until(sim, (ann, bob), lambda state: bool(
        calls.append(sim.channel.last_message) or state["winner"] is not None))
    last_call = next(m for m in reversed(calls) if "My hand" in labels(m))
    results = next(m for m in reversed(sim.channel.history()) if "final results" in text_of(m).lower())
    for member in (ann, bob):
        answer = reply_text(await member.click(last_call, custom_id=button(last_call, ":Hhand")))
        assert "There is no game" not in answer, answer
        assert "The game is over" in answer and f"/{results.id})" in answer, answer


async def test_the_lobby_says_what_live_means_for_e_wars(sim):
    """Issue 28 #2: the lobby offered Live without a word, and a newcomer playing E-Wars' dice
    race alone against seat-fillers could not keep up. The pace is Slow unless chosen; when the
    host chooses Live the lobby says that everybody must be there."""
    ann = sim.player("ann")
    await sim.new_game(ann, "ewars")
    assert (await sim.game()).settings.get("pace", "slow") == "slow"
    assert "everybody must be there" not in text_of(sim.lobby_message())
    shown = await sim.lobby(ann, "opts")
    await ann.submit_modal(shown, {"lang": ["en"], "pace": "live", "on_deadline": "ai"})
    assert "Live means one sitting: everybody must be there now" in text_of(sim.lobby_message())

"""The asynchronous loop (issue 19), as players live it over hours: everyone who must act is
told, by a new message that carries My hand and what to do; moves that call nobody new extend
the turn message; the table stays within a screen of the bottom; a DM-panel player gets a new
DM when they must act and the last one says when the game is over; /game mine; the rematch."""

from __future__ import annotations

from tests.support import toy
from tests.support.sim import button, custom_ids, labels, panel_of, picture_urls, reply_text, text_of
from play.plan import owing as owing_seats

TOY = toy.TITLE


async def _three(sim):
    ann, bob, cy = sim.player("ann"), sim.player("bob"), sim.player("cy")
    await sim.start(ann, TOY, others=[bob, cy])
    game = await sim.game()
    return [ann, bob, cy], game


async def _act(sim, member, label: str) -> None:
    panel = await sim.hand(member)
    await member.click(panel, custom_id=button(panel, label=label))
    await sim.settle()


def _posts(sim, path_part: str = "/messages") -> list:
    return [e for e in sim.env.http_requests if e.method == "POST" and e.path.endswith(path_part)]


async def test_a_new_obligation_is_a_new_message_naming_everyone_with_what_to_do_and_my_hand(sim):
    members, game = await _three(sim)
    mover = members[game.state["active"]]
    others = [m for m in members if m is not mover]
    await _act(sim, mover, "Take 1")
    call = sim.channel.last_message
    # Both others must nod now: one message mentions both, each with their to-do line.
    for member in others:
        assert f"<@{member.id}>: nod (OK)." in call.content, call.content
    assert "My hand" in labels(call)
    opened = await others[0].click(call, custom_id=button(call, code_suffix=":Hhand"))
    assert "OK" in labels(panel_of(opened))  # the ping's button opens the panel, whatever its age


async def test_moves_that_call_nobody_new_extend_the_turn_message(sim):
    members, game = await _three(sim)
    mover = members[game.state["active"]]
    others = [m for m in members if m is not mover]
    await _act(sim, mover, "Take 1")
    count = len(sim.channel.history())
    call = sim.channel.last_message
    await _act(sim, others[0], "OK")  # the other still owes: nobody new is called
    assert len(sim.channel.history()) == count
    extended = next(m for m in sim.channel.history() if m.id == call.id)
    assert f"{others[0].name} nods." in extended.content
    # ...and the nod is no longer asked of the one who gave it.
    assert f"<@{others[0].id}>" not in extended.content and f"<@{others[1].id}>" in extended.content
    await _act(sim, others[1], "OK")  # the turn passes: a new message calls the next player
    assert len(sim.channel.history()) == count + 1


async def test_the_table_comes_back_to_the_bottom_when_the_turn_passes_far_from_it(sim):
    members, game = await _three(sim)
    table = await sim.table_message()
    for i in range(12):  # the channel lives on: people talk
        await members[i % 3].send(sim.channel, f"chat {i}")
    mover = members[game.state["active"]]
    await _act(sim, mover, "Take 1")
    history = sim.channel.history()
    fresh = await sim.table_message()
    assert fresh.id != table.id
    assert [m.id for m in history[-2:]][0] == fresh.id  # the table, then the call to act
    old = next(m for m in history if m.id == table.id)
    # The table left behind is one line pointing down, with no buttons (issue 30).
    assert "table moved down" in text_of(old) and labels(old) == []
    nodder = next(m for m in members if m is not mover)
    # Close to the bottom, the table is edited in place.
    await _act(sim, nodder, "OK")
    assert (await sim.table_message()).id == fresh.id


async def test_a_dm_panel_player_gets_a_new_dm_when_they_must_act_and_the_word_at_the_end(sim):
    members, game = await _three(sim)
    ann = members[0]
    await ann.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    dm = ann.user.dm_channel.id
    rounds = 0
    while (await sim.game()).status == "active" and rounds < 40:
        rounds += 1
        before = len(_posts(sim, f"/channels/{dm}/messages"))
        g = await sim.game()
        owing = ann.id in [g.seats[s].user_id for s in owing_seats(g)]
        seat = owing_seats(g)[0]
        member = next(m for m in members if m.id == g.seats[seat].user_id)
        await _act(sim, member, "OK" if g.state["owed"] else "Take 3" if g.state["pile"] >= 3 else "Take 1")
        g2 = await sim.game()
        newly = g2.status == "active" and ann.id in [g2.seats[s].user_id for s in owing_seats(g2)] and not owing
        after = len(_posts(sim, f"/channels/{dm}/messages"))
        if newly:
            assert after == before + 1, "a new obligation must come as a new DM"
    assert (await sim.game()).status == "finished"
    # Only the newest DM panel stays; it says the game is over, with the way to the results.
    dms = [m for m in ann.user.dm_channel.history() if m.components]
    assert len(dms) == 1 and "is over" in text_of(dms[0]) and not custom_ids(dms[0])
    deletes = [e for e in sim.env.http_requests if e.method == "DELETE" and f"/channels/{dm}/messages/" in e.path]
    assert deletes  # older prompts were trimmed


async def test_game_mine_lists_my_games_with_whose_move_and_a_link(sim):
    members, game = await _three(sim)
    mover = members[game.state["active"]]
    mine = await mover.slash(sim.channel, "game mine")
    text = reply_text(mine)
    assert "Pennies" in text and "your move" in text and f"/{sim.channel.id}/" in text
    other = next(m for m in members if m is not mover)
    assert "your move" not in reply_text(await other.slash(sim.channel, "game mine"))
    outsider = sim.player("zed")
    assert "not playing any game" in reply_text(await outsider.slash(sim.channel, "game mine"))



async def test_game_mine_lists_a_lobby_waiting_in_a_thread(sim):
    """The channel is busy, so Bob's game opens in a new thread: /game mine, typed in the
    channel, points him to that thread's lobby (it listed running games only, and said he
    played nothing, issue 28 point 3); the game running here is listed too, and a member
    seated in neither lobby is not told of it."""
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob])
    busy = await sim.new_game(bob, TOY)
    await bob.click(busy.response.message, label="Start it in a new thread")
    thread = sim.channel.threads[0]
    lobby = await sim.store.live_in(thread.id)
    assert lobby is not None and lobby.status == "lobby" and lobby.lobby_message_id
    text = reply_text(await bob.slash(sim.channel, "game mine"))
    assert f"https://discord.com/channels/{sim.guild.id}/{thread.id}/{lobby.lobby_message_id}" in text, text
    assert f"<#{thread.id}>" in text and "waiting in its lobby (1 seated)" in text, text
    assert f"/{sim.channel.id}/" in text, "the running game is still listed"
    assert f"/{thread.id}/" not in reply_text(await ann.slash(sim.channel, "game mine"))


async def test_rematch_opens_a_lobby_with_the_same_seats(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob])
    await sim.arrange(lambda st: st.update(pile=1))
    g = await sim.game()
    winner = [ann, bob][g.state["active"]]
    await _act(sim, winner, "Take 1")
    assert (await sim.store.latest_in(sim.channel.id)).status == "finished"
    results = next(m for m in reversed(sim.channel.history()) if "final results" in text_of(m))
    await bob.click(results, custom_id=button(results, code_suffix=":Hrematch"))
    await sim.settle()
    lobby = await sim.game()
    assert lobby.status == "lobby" and lobby.host_id == bob.id
    assert {s.user_id for s in lobby.seats} == {ann.id, bob.id}


async def test_an_ai_seat_has_its_remove_button_beside_it_in_the_lobby(sim):
    ann = sim.player("ann")
    await sim.open_lobby(ann, TOY, ai=2)
    lobby = sim.lobby_message()
    removes = [c for c in custom_ids(lobby) if ":Lrmai:" in c]
    assert len(removes) == 2
    await ann.click(lobby, custom_id=removes[0])
    await sim.settle()
    game = await sim.game()
    assert [s.is_ai for s in game.seats] == [False, True]


async def test_a_table_of_the_older_layout_is_posted_again_once_at_upgrade(sim):
    members, game = await _three(sim)
    # A table posted by the previous version: an embed with classic buttons.
    backend = sim.env.backend
    hand = custom_ids(await sim.table_message())[0]
    old = backend.create_message(sim.channel.id, backend.bot_user.id, "", embeds=[{"title": "Pennies"}],
                                 components=[{"type": 1, "components": [
                                     {"type": 2, "style": 1, "label": "My hand", "custom_id": hand}]}])
    settings = {k: v for k, v in game.settings.items() if k != "layout"}
    await sim.store.update_game(game.id, 0, table_message_id=old.id, settings=settings)
    await sim.restart()
    game = await sim.game()
    table = await sim.table_message()
    assert table.id != old.id and game.settings.get("layout") == 2 and picture_urls(table)
    assert sim.channel.history()[-1].id == table.id
    left = [m for m in sim.channel.history() if m.id == old.id]
    assert not left or "table moved down" in text_of(left[0])
    await sim.restart()  # once: a second start leaves the new table where it is
    assert (await sim.table_message()).id == table.id


async def test_a_select_longer_than_twenty_five_options_is_split_so_every_option_is_reachable():
    from cogs.kit.layout import panel_view
    from cogs.kit.panel import Option, Panel, Select

    options = [Option(f"offer {i}", f"#{i}") for i in range(60)]
    view = panel_view(1, 3, Panel(title="Offers", components=[Select("act", "Answer an offer", options)]))
    selects = [item.item for item in view.walk_children() if hasattr(item, "item")
               and hasattr(item.item, "options")]
    assert [len(s.options) for s in selects] == [25, 25, 10]
    assert sorted(o.value for s in selects for o in s.options) == sorted(o.value for o in options)
    assert len({s.custom_id for s in selects}) == 3

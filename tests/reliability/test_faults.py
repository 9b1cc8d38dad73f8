"""Discord faults: closed DMs, rate limits, server errors, a deleted table message, a deleted
channel or thread, a permission taken away. The game goes on (or ends cleanly), nothing is said
twice, and the players are told what to do: in the clicker's reply, or in the channel."""

from __future__ import annotations

import json

import discord
import pytest
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from cogs.table import keeper as table_mod
from cogs.titles.contract import ui_for
from tests.support.bot_games import log_problems, start_game
from tests.support.sim import button, labels, panel_of, picture_urls, reply_text, text_of

TOY = "toy"


@pytest.fixture(autouse=True)
def _retry_in_virtual_time(monkeypatch):
    # Retries of refused table updates wait well beyond SimCord's settle timeout, so they wait
    # on the virtual clock (`sim.advance`), never on the wall clock.
    monkeypatch.setattr(table_mod, "RETRY_FIRST", 30.0)


async def _toy(sim, people=("ann", "bob"), **settings):
    members = [sim.player(n) for n in people]
    game = await start_game(sim, members[0], TOY, others=members[1:], settings={"ai_delay": 10, **settings})
    return game, members


async def _take(sim, game_id, members, label="Take 1"):
    """The player to move takes coins through their panel; returns the click's result."""
    game = await sim.store.get(game_id)
    seat = ui_for(TOY).game.to_act(game.state)[0]
    panel = await sim.hand(members[seat])
    result = await members[seat].click(panel, custom_id=button(panel, label=label))
    await sim.settle()
    return result


async def _nod(sim, game_id, members):
    for seat in (await sim.store.get(game_id)).state["owed"]:
        panel = await sim.hand(members[seat])
        await members[seat].click(panel, custom_id=button(panel, label="OK"))
        await sim.settle()


def _said(sim, text: str) -> int:
    return sum(text in (m.content or "") for m in sim.channel.history())


async def _table_version(sim) -> str:
    return text_of(await sim.table_message()).split("move ")[-1].split(" ")[0]


# -- closed DMs ----------------------------------------------------------------------------------

async def test_a_dm_refused_after_the_dm_panel_worked_falls_back_to_my_hand(sim):
    game, (ann, bob) = await _toy(sim)
    on = await bob.slash(sim.channel, "game prefs", dm_panel=True)
    assert "DM panel on" in on.response.content
    await sim.settle()
    dm = await sim.store.dm_panel(game.id, bob.id)
    assert dm is not None
    # Bob closes his DMs: editing his DM panel now fails with 50007.
    sim.env.inject_error("PATCH", f"/channels/{dm[0]}/messages/*", status=403, code=50007, times=None)
    sim.env.inject_error("POST", f"/channels/{dm[0]}/messages", status=403, code=50007, times=None)
    await _take(sim, game.id, [ann, bob])
    assert _said(sim, "could not send you a DM") == 1
    assert (await sim.store.prefs(bob.id))["dm_closed"] is True
    # The game goes on through My hand, and the notice is not repeated at every move.
    await _nod(sim, game.id, [ann, bob])
    await _take(sim, game.id, [ann, bob])
    assert (await sim.store.get(game.id)).version == 3
    assert _said(sim, "could not send you a DM") == 1


# -- rate limits and server errors ---------------------------------------------------------------------

@pytest.mark.parametrize("status", [429, 500, 502, 503])
async def test_table_and_narration_refused_for_a_while_catch_up_once(sim, status):
    game, members = await _toy(sim)
    sim.env.inject_error("POST", f"/channels/{sim.channel.id}/messages", status=status, times=1)
    sim.env.inject_error("PATCH", f"/channels/{sim.channel.id}/messages/*", status=status, times=2)
    result = await _take(sim, game.id, members, label="Take 2")
    assert result.acknowledged and (await sim.store.get(game.id)).version == 1
    assert _said(sim, "took 2; 5 left") == 0
    await sim.advance(30 + 60 + 120 + 1)  # the retries wait 30, 60, 120 s
    assert await _table_version(sim) == "1"
    assert _said(sim, "took 2; 5 left") == 1  # told once, not once per retry
    await _nod(sim, game.id, members)
    await sim.advance(1)
    assert await _table_version(sim) == "2"


async def test_a_rate_limit_with_retry_after_is_waited_out(sim, monkeypatch):
    """discord.py raises RateLimited (with Discord's retry_after) when a limit would make it wait
    too long; the table waits exactly that long, then catches up."""
    import simcord.http.client as client

    real = client._raise_for

    def rate_limited(error):
        if error.status == 429:
            raise discord.RateLimited(45.0)
        real(error)

    monkeypatch.setattr(client, "_raise_for", rate_limited)
    game, members = await _toy(sim)
    sim.env.inject_error("PATCH", f"/channels/{sim.channel.id}/messages/*", status=429, times=1)
    await _take(sim, game.id, members)
    assert await _table_version(sim) == "0"
    await sim.advance(40)
    assert await _table_version(sim) == "0"
    await sim.advance(10)
    assert await _table_version(sim) == "1"


async def test_a_click_whose_reply_fails_after_the_move_is_not_told_nothing_changed(sim):
    """The move applies, then Discord refuses the reply that shows the new panel (5xx): the
    player must not read "nothing was changed"."""
    game, members = await _toy(sim)
    seat = ui_for(TOY).game.to_act(game.state)[0]
    panel = await sim.hand(members[seat])
    sim.env.inject_error("PATCH", "/webhooks/*/messages/@original", status=500, times=1)
    result = await members[seat].click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    assert (await sim.store.get(game.id)).version == 1
    text = reply_text(result)
    assert "Nothing was changed" not in text and "Your move was made" in text, text


async def test_a_click_whose_acknowledgement_fails_is_told_to_try_again(sim):
    """Discord refuses the bot's first answer to a click (a 5xx on the callback): the click did
    nothing, the player is told so, and the same button works on the next try."""
    game, members = await _toy(sim)
    seat = ui_for(TOY).game.to_act(game.state)[0]
    panel = await sim.hand(members[seat])
    sim.env.inject_error("POST", "/interactions/*/callback", status=503, times=1)
    result = await members[seat].click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    assert result.acknowledged and "try again" in reply_text(result)
    assert (await sim.store.get(game.id)).version == 0
    again = await members[seat].click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    assert again.acknowledged and (await sim.store.get(game.id)).version == 1


# -- deleted things --------------------------------------------------------------------------------

async def test_a_deleted_table_message_comes_back_at_once(sim):
    game, members = await _toy(sim)
    mods = sim.guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    mod = sim.player("mod", roles=[mods])
    table = await sim.table_message()
    await mod.delete(table)
    await sim.settle()
    fresh = await sim.table_message()
    assert fresh.id != table.id and "My hand" in labels(fresh)
    # Its buttons work, and the game goes on with the table edited in place.
    await _take(sim, game.id, members)
    assert (await sim.table_message()).id == fresh.id and await _table_version(sim) == "1"


async def test_a_deleted_channel_ends_the_game_and_dm_panels_say_why(sim):
    game, (ann, bob) = await _toy(sim)
    await bob.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    channel_id, message_id = await sim.store.dm_panel(game.id, bob.id)
    assert "Pennies" in json.dumps(sim.env.backend.messages[channel_id][message_id].components, default=str)
    sim.env.backend.delete_channel(sim.channel.id)
    await sim.settle()
    game = await sim.store.get(game.id)
    assert game.status == "cancelled" and game.result["reason"] == "channel_deleted"
    assert await sim.store.timers(game.id) == []
    dm = sim.env.backend.messages[channel_id][message_id]
    shown = json.dumps(dm.components, default=str)
    assert "channel was deleted" in shown and "custom_id" not in shown
    # Nothing more is attempted in the vanished channel, even as time passes.
    sent = len(sim.env.http_requests)
    await sim.advance(7200)
    assert not [e for e in sim.env.http_requests[sent:] if str(sim.channel.id) in e.path]


async def test_a_deleted_thread_ends_its_game(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.new_game(ann, TOY)  # the channel is busy: the next game goes to a thread
    busy = await sim.new_game(bob, TOY)
    await bob.click(busy.response.message, label="Start it in a new thread")
    thread = sim.channel.threads[0]
    lobby_game = await sim.store.live_in(thread.id)
    await sim.lobby(ann, "join", thread)
    await sim.lobby(bob, "start", thread)
    await sim.settle()
    game = await sim.store.get(lobby_game.id)
    assert game.status == "active"
    sim.env.backend.delete_channel(thread.id)
    await sim.settle()
    game = await sim.store.get(game.id)
    assert game.status == "cancelled" and game.result["reason"] == "channel_deleted"
    assert (await sim.game()).status == "lobby"  # the game in the parent channel is untouched


# -- a permission taken away ---------------------------------------------------------------------------

def _deny(sim, **perms) -> None:
    allow, deny = discord.PermissionOverwrite(**{p: False for p in perms}).pair()
    sim.env.backend.set_overwrite(sim.channel.id, Overwrite(target_id=sim.bot.user.id, type=OverwriteType.MEMBER,
                                                            allow=allow.value, deny=deny.value))


async def test_without_send_messages_the_game_pauses_and_resumes_when_it_comes_back(sim):
    game, members = await _toy(sim)
    timers = await sim.store.timers(game.id)
    assert timers
    _deny(sim, send_messages=True)
    await sim.settle()
    # The table cannot be kept: the game pauses. No deadline or seat-filler plays it meanwhile.
    paused = await sim.store.get(game.id)
    assert paused.settings["paused"]["missing"] == ["send_messages"]
    assert await sim.store.timers(game.id) == []
    result = await _take(sim, game.id, members)
    assert "paused" in reply_text(result) and "Send Messages" in reply_text(result), reply_text(result)
    assert (await sim.store.get(game.id)).version == 0
    await sim.advance(3 * 24 * 3600)
    assert (await sim.store.get(game.id)).version == 0
    # The permission comes back: the game goes on, with its deadlines, and says so.
    sim.env.backend.delete_overwrite(sim.channel.id, sim.bot.user.id)
    await sim.settle()
    resumed = await sim.store.get(game.id)
    assert "paused" not in resumed.settings and await sim.store.timers(game.id)
    assert "goes on" in "\n".join(m.content for m in sim.channel.history()[-3:])
    result = await _take(sim, game.id, members)
    assert "paused" not in reply_text(result)
    assert (await sim.store.get(game.id)).version == 1
    assert await log_problems(sim.store, game.id) == []


async def test_a_refused_post_pauses_the_game_and_dm_panels_say_why(sim):
    """Discord's own refusal (the cache did not know yet) pauses the game just the same."""
    game, members = await _toy(sim)
    await members[0].slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    sim.env.inject_error("POST", f"/channels/{sim.channel.id}/messages", status=403, code=50001, times=5)
    sim.env.inject_error("PATCH", f"/channels/{sim.channel.id}/messages/*", status=403, code=50001, times=5)
    await _take(sim, game.id, members)
    await sim.settle()
    assert (await sim.store.get(game.id)).settings.get("paused")
    channel_id, _ = await sim.store.dm_panel(game.id, members[0].id)
    texts = [m.content or "" for m in sim.env.backend.messages[channel_id].values()]
    assert any("paused" in t and "View Channel" in t for t in texts), texts


async def test_without_attach_files_the_table_stays_playable_without_its_picture(sim):
    game, members = await _toy(sim)
    _deny(sim, attach_files=True)
    # SimCord does not check Attach Files: Discord's refusal of a message with a file is injected.
    sim.env.inject_error("PATCH", f"/channels/{sim.channel.id}/messages/*", status=403, code=50013, times=1)
    result = await _take(sim, game.id, members)
    assert (await sim.store.get(game.id)).version == 1
    assert "missing Attach Files" in reply_text(result), reply_text(result)
    table = await sim.table_message()
    assert "My hand" in labels(table) and await _table_version(sim) == "1"
    assert not picture_urls(table)
    opened = await members[0].click(table, custom_id=button(table, code_suffix=":Hhand"))
    assert opened.acknowledged and "Pennies" in text_of(panel_of(opened))


async def test_without_attach_files_a_deleted_table_comes_back_without_its_picture(sim):
    game, members = await _toy(sim)
    _deny(sim, attach_files=True)
    mods = sim.guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    mod = sim.player("mod", roles=[mods])
    sim.env.inject_error("POST", f"/channels/{sim.channel.id}/messages", status=403, code=50013, times=1)
    await mod.delete(await sim.table_message())
    await sim.settle()
    table = await sim.table_message()
    assert "My hand" in labels(table) and not picture_urls(table)
    result = await _take(sim, game.id, members)
    assert "missing Attach Files" in reply_text(result)
    assert (await sim.store.get(game.id)).version == 1


async def test_an_archived_thread_pauses_its_game_until_it_is_reopened(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.new_game(ann, TOY)  # the channel is busy: the next game goes to a thread
    busy = await sim.new_game(bob, TOY)
    await bob.click(busy.response.message, label="Start it in a new thread")
    thread = sim.channel.threads[0]
    await sim.lobby(ann, "join", thread)
    await sim.lobby(bob, "start", thread)
    await sim.settle()
    game = await sim.store.live_in(thread.id)
    # The thread was archived: Discord refuses every post there (50083).
    sim.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    await sim.settle()
    paused = await sim.store.get(game.id)
    assert paused.settings.get("paused") and await sim.store.timers(game.id) == []
    await sim.advance(3 * 24 * 3600)  # days go by: no deadline plays it to an end
    assert (await sim.store.get(game.id)).version == game.version
    # Someone reopens it: the game goes on, with its deadlines.
    sim.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": False})
    await sim.settle()
    resumed = await sim.store.get(game.id)
    assert "paused" not in resumed.settings and await sim.store.timers(game.id)
    assert resumed.status == "active"


async def test_a_refusal_for_an_archived_thread_pauses_the_game(sim):
    """Discord's 50083 (the cache had not seen the thread archived yet) pauses the game too."""
    game, members = await _toy(sim)
    sim.env.inject_error("POST", f"/channels/{sim.channel.id}/messages", status=400, code=50083, times=5)
    sim.env.inject_error("PATCH", f"/channels/{sim.channel.id}/messages/*", status=400, code=50083, times=5)
    await _take(sim, game.id, members)
    await sim.settle()
    assert (await sim.store.get(game.id)).settings.get("paused", {}).get("missing") == ["send_messages_in_threads"]

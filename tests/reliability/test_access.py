"""Who may reach a game (issue 13): a custom_id is a request, never a credential.

- a member of another server, or of another channel of the same server, cannot end, cancel,
  join, change the settings of, or read the log of a game by sending a custom_id that names it
  (even with its nonce); "can manage" is judged on the game's own channel;
- a click drawn for another game that had the same id (a backup restored) is refused;
- a double click on Add AI adds one seat;
- a member who was banned, left the server or lost access to the game's channel no longer acts
  for their seat (not even from their DM panel): the seat-filler takes it and the table says so;
- a failing slash command answers politely; /game stats counts games of the server it is asked in.
"""

from __future__ import annotations

import sqlite3

import discord
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from cogs.kit import codec
from tests.support import fuzz
from tests.support.sim import custom_ids, panel_of, text_of

GONE = "no longer here"
ELSEWHERE = "another channel"


async def _toy(sim, channel=None):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob], channel=channel)
    return ann, bob, await sim.game(channel)


def _chatter(sim) -> str:
    return "\n".join(m.content or "" for m in sim.channel.history())


# -- another server, another channel ------------------------------------------------------------

async def test_a_member_of_another_server_cannot_reach_a_game_by_its_custom_id(sim):
    ann, bob, game = await _toy(sim)
    other = sim.env.create_guild("Elsewhere")
    lair = other.create_text_channel("lair")
    admins = other.create_role("admins", permissions=discord.Permissions(administrator=True))
    mallory = other.add_member(sim.env.create_user("mallory"), roles=[admins])
    before = await sim.store.get(game.id)
    for code, values in (("Hendask", None), ("Hend:yes", None), ("Hsettings", None), ("Hset:pace", ["live"]),
                         ("Hlog", None), ("Hhand", None), ("Hmenu", None), ("Lcancel", None), ("Ljoin", None),
                         ("#0", None)):
        kind = "bs" if values else "br"
        result = await fuzz.press(sim, mallory, codec.make(kind, game, None, code), values=values, channel=lair)
        text = fuzz.reply_text(result)
        assert result.ephemeral and ELSEWHERE in text, (code, text)
        assert "took" not in text and "Pennies" not in text, (code, text)  # the log was not read
    after = await sim.store.get(game.id)
    assert (after.status, after.version, after.settings, after.seats) == (
        before.status, before.version, before.settings, before.seats)


async def test_a_lobby_cannot_be_joined_or_cancelled_from_another_server(sim):
    ann = sim.player("ann")
    game = await sim.open_lobby(ann, "toy")
    other = sim.env.create_guild("Elsewhere")
    lair = other.create_text_channel("lair")
    mallory = other.add_member(sim.env.create_user("mallory"),
                               roles=[other.create_role("admins", permissions=discord.Permissions(administrator=True))])
    for verb in ("join", "cancel", "addai", "start"):
        result = await fuzz.press(sim, mallory, codec.make("br", game, None, f"L{verb}"), channel=lair)
        assert ELSEWHERE in fuzz.reply_text(result), verb
    after = await sim.store.get(game.id)
    assert after.status == "lobby" and [s.user_id for s in after.seats] == [ann.id]


async def test_can_manage_is_judged_on_the_games_channel_not_the_clicks(sim):
    """Manage Channels on another channel of the same server gives no right over this game."""
    ann, bob, game = await _toy(sim)
    own = sim.player("own")
    their_room = sim.guild.create_text_channel("their-room", overwrites={
        own: discord.PermissionOverwrite(manage_channels=True)})
    result = await fuzz.press(sim, own, codec.make("br", game, None, "Hend:yes"), channel=their_room)
    assert ELSEWHERE in fuzz.reply_text(result)
    result = await fuzz.press(sim, own, codec.make("br", game, None, "Hend:yes"))
    assert "Only the host" in fuzz.reply_text(result)
    assert (await sim.store.get(game.id)).status == "active"


# -- ids that outlive a restore -------------------------------------------------------------------

async def test_a_click_drawn_for_a_game_whose_id_was_reused_is_refused(sim):
    ann, bob, game = await _toy(sim)
    panel = await sim.hand(ann)
    drawn = custom_ids(panel) + custom_ids(await sim.table_message())
    # The operator restores a backup taken before that game: its rows are gone, and the next
    # game in the channel gets the same id.
    await sim.store.finish(game.id, "cancelled", 0)
    with sqlite3.connect(sim.db_path) as db:
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("DELETE FROM games WHERE id = ?", (game.id,))
    sim.house.games.forget(game.id)
    await _toy(sim)
    reborn = await sim.game()
    assert reborn.id == game.id and codec.nonce(reborn) != codec.nonce(game)
    for cid in drawn:
        values = ["#0"] if cid.startswith("bs:") else None
        result = await fuzz.press(sim, ann, cid, values=values)
        assert GONE in fuzz.reply_text(result), cid
    after = await sim.store.get(reborn.id)
    assert (after.version, after.state) == (reborn.version, reborn.state)


# -- the lobby's version --------------------------------------------------------------------------

async def test_a_double_click_on_add_ai_adds_one_seat(sim):
    ann = sim.player("ann")
    await sim.open_lobby(ann, "imtheboss")
    lobby = sim.lobby_message()
    cid = next(c for c in custom_ids(lobby) if c.endswith(":Laddai"))
    first = await ann.click(lobby, custom_id=cid)
    second = await fuzz.press(sim, ann, cid)  # the same, unrefreshed button again
    assert first.acknowledged
    assert "changed just before your click" in fuzz.reply_text(second)
    game = await sim.game()
    assert [s.is_ai for s in game.seats] == [False, True]


# -- members who can no longer reach the game -----------------------------------------------------

async def _dm_panel(sim, member, game):
    await member.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    channel_id, message_id = await sim.store.dm_panel(game.id, member.id)
    return sim.env.backend.messages[channel_id][message_id]


async def test_a_banned_member_hands_their_seat_to_the_seat_filler(sim):
    ann, bob, game = await _toy(sim)
    await _dm_panel(sim, bob, game)
    drawn = custom_ids(await sim.hand(bob))  # what their DM panel carries too
    sim.env.backend.apply_ban(sim.guild.id, bob.id, "spam")
    await sim.settle()
    after = await sim.game()
    assert after.seats[1].ai_plays and after.status == "active"
    assert "bob can no longer reach this game" in _chatter(sim)
    for cid in drawn:
        result = await fuzz.press(sim, bob, cid, dm=True)
        assert "not playing" in fuzz.reply_text(result) or "no longer reach" in fuzz.reply_text(result), cid
    assert (await sim.game()).seats[1].user_id == bob.id  # the record keeps who sat there


async def test_a_member_who_left_the_server_cannot_act_from_their_dm_panel(sim):
    """Without the members intent the leave event never comes: the DM click finds out."""
    ann, bob, game = await _toy(sim)
    await _dm_panel(sim, bob, game)
    sim.guild.remove_member(bob)
    await sim.settle()
    assert not (await sim.game()).seats[1].ai_plays  # nobody told the bot yet
    result = await fuzz.press(sim, bob, codec.make("br", game, None, "Hhand"), dm=True)
    assert "no longer reach" in fuzz.reply_text(result)
    await sim.settle()
    assert (await sim.game()).seats[1].ai_plays
    assert "bob can no longer reach this game" in _chatter(sim)


async def test_a_member_who_lost_the_channel_loses_the_seat(sim):
    ann, bob, game = await _toy(sim)
    allow, deny = discord.PermissionOverwrite(view_channel=False).pair()
    sim.env.backend.set_overwrite(sim.channel.id, Overwrite(target_id=bob.id, type=OverwriteType.MEMBER,
                                                            allow=allow.value, deny=deny.value))
    await sim.settle()
    after = await sim.game()
    assert after.seats[1].ai_plays and not after.seats[0].ai_plays
    assert "bob can no longer reach this game" in _chatter(sim)


# -- commands -----------------------------------------------------------------------------------

async def test_a_failing_slash_command_answers_politely(sim, monkeypatch):
    ann = sim.player("ann")

    async def broken(**kwargs):
        raise RuntimeError("the database is on fire")

    monkeypatch.setattr(sim.store, "history", broken)
    result = await ann.slash(sim.channel, "game history")
    assert result.ephemeral and "went wrong with that command" in result.response.content


async def test_stats_count_only_the_games_of_the_server_asked_in(sim):
    ann, bob, game = await _toy(sim)
    await sim.store.finish(game.id, "finished", 0, {"places": [1, 2], "scores": [{}, {}]})
    here = await ann.slash(sim.channel, "game stats")
    assert "played 1, won 1" in text_of(panel_of(here))
    other = sim.env.create_guild("Elsewhere")
    lounge = other.create_text_channel("lounge")
    there = other.add_member(ann.user)
    result = await there.slash(lounge, "game stats")
    assert "has not finished a game yet" in result.response.content


async def test_a_new_games_seed_is_128_random_bits(sim):
    """A 31-bit seed could be found from a player's own starting hand by trying every one;
    128 random bits cannot."""
    seeds = []
    for n in range(12):
        host = sim.player(f"h{n}")
        room = sim.guild.create_text_channel(f"room-{n}")
        game = await sim.open_lobby(host, "toy", channel=room)
        seeds.append(int(game.seed))
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < 2**128 for s in seeds)
    assert max(s.bit_length() for s in seeds) > 120  # 12 draws all under 2**120: odds 2**-96

"""The host hands a seat to another member (issue 19 extras), from the table's ⚙️ menu: a
person's seat, the AI's, or one whose player left, to a member who holds no seat and can see the
channel. The seat keeps its hand and what it owes; the old holder's DM panel says so; the table
notes it; the new holder is pinged if the seat owes something."""

from __future__ import annotations

import discord
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from cogs.kit import codec
from tests.support import fuzz, toy
from tests.support.sim import button, channel_text, custom_ids, labels, panel_of, reply_text, text_of

TOY = toy.TITLE


async def _hand_panel(sim, host, seat: int):
    """The host opens ⚙️ → Hand a seat and chooses `seat`: the panel with the member picker."""
    opened = panel_of(await sim.menu_click(host, "Hhandover"))
    chosen = panel_of(await host.select(opened, [str(seat)], custom_id=button(opened, ":Hhseat")))
    return chosen


async def _give(sim, host, seat: int, member):
    panel = await _hand_panel(sim, host, seat)
    picker = next(c for c in custom_ids(panel) if c.startswith("bu:") and c.endswith(f":Hhto:{seat}"))
    result = await host.select(panel, [member], custom_id=picker)
    await sim.settle()
    return result


async def test_the_host_hands_a_players_seat_with_its_hand_and_obligation_to_another_member(sim):
    ann, bob, cy, dee = (sim.player(n) for n in ("ann", "bob", "cy", "dee"))
    await sim.start(ann, TOY, others=[bob, cy])
    await bob.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    game = await sim.game()
    seat = next(s.seat for s in game.seats if s.user_id == bob.id)
    luck = game.state["luck"][seat]
    # Make bob's seat owe its move, so the new holder must be pinged.
    await sim.arrange(lambda st: st.update(active=seat))
    assert "Hand a seat" not in labels(await sim.menu(bob))  # players do not see it; the host does
    before = len(sim.channel.history())
    result = await _give(sim, ann, seat, dee)
    assert f"Seat {seat + 1} is now <@{dee.id}>'s." in reply_text(result)
    after = await sim.game()
    assert after.seats[seat].user_id == dee.id and after.seats[seat].name == "dee"
    assert not after.seats[seat].ai_plays and after.state["luck"][seat] == luck
    said = channel_text(sim, before)
    assert f"Seat {seat + 1} passes from bob to dee." in said
    assert f"<@{dee.id}>: take 1 to 3 coins." in said  # the new holder is called to act
    # Bob's DM panel says the seat went to someone else, and his clicks are refused now.
    dms = [m for m in bob.user.dm_channel.history() if m.components]
    assert "handed to someone else" in text_of(dms[-1]) and not custom_ids(dms[-1])
    assert all(luck not in text_of(m) for m in bob.user.dm_channel.history())  # nothing of the hand stays
    refused = await bob.click(await sim.table_message(), custom_id=button(await sim.table_message(), ":Hhand"))
    assert "You are not playing in this game" in reply_text(refused)
    # Dee's hand is the seat's: the same secret token, and the move is hers to make.
    panel = await sim.hand(dee)
    assert luck in text_of(panel) and "Take 1" in labels(panel)
    await dee.click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    assert (await sim.game()).state["taken"][seat] == 1


async def test_a_member_who_is_seated_or_cannot_see_the_channel_is_refused(sim):
    ann, bob, cy, eve = (sim.player(n) for n in ("ann", "bob", "cy", "eve"))
    await sim.start(ann, TOY, others=[bob])
    allow, deny = discord.PermissionOverwrite(view_channel=False).pair()
    sim.env.backend.set_overwrite(sim.channel.id, Overwrite(target_id=eve.id, type=OverwriteType.MEMBER,
                                                            allow=allow.value, deny=deny.value))
    await sim.settle()
    seated = await _give(sim, ann, 1, ann)
    assert "already holds a seat" in reply_text(seated)
    hidden = await _give(sim, ann, 1, eve)
    assert "cannot see this game's channel" in reply_text(hidden)
    game = await sim.game()
    assert [s.user_id for s in game.seats] == [ann.id, bob.id]


async def test_an_ai_seat_and_a_left_players_seat_can_be_handed_to_members(sim):
    ann, bob, dee, eve = (sim.player(n) for n in ("ann", "bob", "dee", "eve"))
    await sim.start(ann, TOY, others=[bob], ai=1)
    await sim.leave(bob)
    await sim.settle()
    game = await sim.game()
    assert game.seats[1].ai_plays and game.seats[2].is_ai
    await _give(sim, ann, 1, dee)
    await _give(sim, ann, 2, eve)
    game = await sim.game()
    assert [(s.user_id, s.ai_plays) for s in game.seats] == [(ann.id, False), (dee.id, False), (eve.id, False)]
    # Nobody plays those seats for them any more: no seat-filler turns are planned.
    assert not [t for t in await sim.store.timers(game.id) if t.kind == "ai"]
    said = channel_text(sim)
    assert "Seat 2 passes from bob to dee." in said and "passes from" in said and "to eve." in said


async def test_a_channel_manager_may_hand_a_seat_and_a_player_may_not(sim):
    ann, bob, dee = sim.player("ann"), sim.player("bob"), sim.player("dee")
    mods = sim.guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    mod = sim.player("mod", roles=[mods])
    await sim.start(ann, TOY, others=[bob])
    game = await sim.game()
    # A player who forges the seat choice (or the member choice) is refused; nothing changes.
    for cid, values in ((codec.make("bs", game, None, "Hhseat"), ["0"]),
                        (codec.make("bs", game, None, "Hhto:0"), [str(bob.id)])):
        refused = await fuzz.press(sim, bob, cid, values=values)
        assert "Only the host or a member who can manage this channel" in fuzz.reply_text(refused)
    assert [s.user_id for s in (await sim.game()).seats] == [ann.id, bob.id]
    # A channel manager who does not play: the menu offers it, and it works.
    assert "Hand a seat" in labels(await sim.menu(mod))
    await _give(sim, mod, 0, dee)
    assert [s.user_id for s in (await sim.game()).seats] == [dee.id, bob.id]


async def test_a_member_lookup_discord_cannot_answer_hands_no_seat(sim):
    """Fails closed (issue 25, finding 4): before, a passing Discord error counted as access, and
    a member of another server was seated under a raw user id while look-ups failed."""
    ann, bob, dee = sim.player("ann"), sim.player("bob"), sim.player("dee")
    await sim.start(ann, TOY, others=[bob])
    panel = await _hand_panel(sim, ann, 1)
    picker = next(c for c in custom_ids(panel) if c.startswith("bu:"))
    sim.env.inject_error("GET", f"/guilds/{sim.guild.id}/members/{dee.id}", status=500, times=None)
    result = await ann.select(panel, [dee], custom_id=picker)
    await sim.settle()
    assert "Try again in a moment" in reply_text(result)
    seat = (await sim.game()).seats[1]
    assert (seat.user_id, seat.name) == (bob.id, "bob")

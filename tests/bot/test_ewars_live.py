"""E-Wars at Live pace against seat-fillers (issue 28 point 2: a seat-filler rolled every two
seconds, one of them played for all, and it won 56-0): during dice time every seat-filler takes
part, each at a person's pace (its moves at least the title's gap apart in virtual time), and
none rings before the person has had a go at the dice."""

from __future__ import annotations

import discord

from engine.ewars.data import FILLER_GAP
from tests.support.ewars_bot import start
from tests.support.sim import channel_text, custom_ids, panel_of, reply_text, text_of


async def dice_time(sim):
    """Ann (the parent with seed 7) and three seat-fillers, Live: Ann rings dice time in."""
    ann = sim.player("ann")
    game = await start(sim, ann, ai=3, seed=7, settings={"pace": "live"})
    assert game.state["parent"] == 0 and all(s.ai_plays for s in game.seats[1:])
    table = await sim.table_message()
    await ann.click(table, custom_id=next(c for c in custom_ids(table) if "ring_bell" in c))
    return ann, game


async def test_seat_fillers_roll_at_a_persons_pace_and_wait_for_her_before_ringing(sim):
    ann, game = await dice_time(sim)
    begun = sim.env.now().timestamp()
    # Virtual time only, no settle after it: SimCord's settle counts a sleep that ends within its
    # timeout (5 s) as work under way and lets it run out in real time, so the seat-fillers'
    # 5-second turns would be followed in real time, move after move, to the end of the game
    # (measured: an advance of 5 s became 212 s of virtual and real time). advance_time settles
    # the bot's work at each instant itself, with the timer loop's sleep parked.
    await sim.env.advance_time(3 * FILLER_GAP + 1)
    moves = [a for a in await sim.store.actions(game.id) if a["at"] >= begun and a["seat"] != 0]
    by_seat: dict[int, list[float]] = {}
    for a in moves:
        by_seat.setdefault(a["seat"], []).append(a["at"])
    # Every seat-filler plays (before, the first one's move put the others' off, each time).
    assert sorted(by_seat) == [1, 2, 3], moves
    for seat, times in by_seat.items():
        assert times[0] - begun >= FILLER_GAP, (seat, times)
        gaps = [b - a for a, b in zip(times, times[1:])]
        assert all(g >= FILLER_GAP for g in gaps), (seat, gaps)
    # Ann has not rolled or claimed yet: nobody has rung dice time to its end.
    assert not any(a["action"]["type"] == "ring_bell" for a in moves), moves
    assert (await sim.game()).state["phase"] == "dice"


async def test_ending_the_game_in_a_live_dice_time_stops_the_seat_fillers(sim):
    """Issue 28 ('/game end during dice time', untested): the game could not be ended while the
    seat-fillers raced. Ann (who may manage the server, as the host of a --local game does)
    ends it with /game-admin end while three seat-fillers roll: the game is cancelled, no timer
    is left, no seat-filler moves after it, and the table and the channel say it was ended."""
    managers = sim.guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    ann = sim.player("ann", roles=[managers])  # dice_time seats this same member
    ann, game = await dice_time(sim)
    # The seat-fillers' first moves, all at one instant (their next come a gap later). SimCord's
    # settle after a command counts a sleep that ends within its timeout as work under way and
    # follows it in wall time; with the gap equal to that timeout (5 s) it would follow the
    # seat-fillers move after move and never settle ("bot did not settle while advancing time",
    # as --local's clicks wait out its settle timeout, issue 28): a shorter one lets the timer
    # loop's sleep to their next moves count as the wait it is.
    sim.env.settle_timeout = FILLER_GAP - 1
    await sim.env.advance_time(FILLER_GAP)
    moved = [a for a in await sim.store.actions(game.id) if a["seat"] != 0]
    assert sorted(a["seat"] for a in moved) == [1, 2, 3], moved
    due = [t.due_at for t in await sim.store.timers(game.id) if t.kind == "ai"]
    assert due and min(due) > sim.env.now().timestamp(), due  # racing on
    dice_buttons = (f":r:{game.state['round']}", f":b:{game.state['round']}")  # Roll and the bell on the table
    assert [c for c in custom_ids(await sim.table_message()) if c.endswith(dice_buttons)]
    asked = await ann.slash(sim.channel, "game-admin end")
    done = await ann.click(panel_of(asked), label="End the game")
    assert "The game was ended." in reply_text(done)
    ended = await sim.game()
    assert ended.status == "cancelled" and (ended.result or {}).get("reason") == "ended", ended.status
    assert await sim.store.timers(game.id) == []
    logged = await sim.store.action_count(game.id)
    # The seat-fillers' next turns (a gap each) pass: nothing moves, nothing is planned again.
    await sim.env.advance_time(3 * FILLER_GAP + 1)
    after = await sim.game()
    assert after.status == "cancelled" and after.version == ended.version, (ended.version, after.version)
    assert await sim.store.action_count(game.id) == logged
    assert await sim.store.timers(game.id) == []
    table = await sim.table_message()
    assert "The game was ended before its finish." in text_of(table), text_of(table)
    assert not [c for c in custom_ids(table) if c.endswith(dice_buttons)], custom_ids(table)
    assert f"{ann.mention} ended this game of E-Wars" in channel_text(sim)

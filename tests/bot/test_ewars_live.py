"""E-Wars at Live pace against seat-fillers (issue 28 point 2: a seat-filler rolled every two
seconds, one of them played for all, and it won 56-0): during dice time every seat-filler takes
part, each at a person's pace (its moves at least the title's gap apart in virtual time), and
none rings before the person has had a go at the dice."""

from __future__ import annotations

from engine.ewars.data import FILLER_GAP
from tests.bot.test_ewars import start
from tests.support.sim import custom_ids


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

"""E-Wars at a slow pace through the bot (SimCord): people hours apart, a seat-filler that does not
race them, and a dice time nobody plays that does not loop on its deadline."""

from __future__ import annotations


from tests.support.sim import components_of, labels, panel_of, text_of
from tests.support.ewars_bot import click, moves, narration, start, state


# -- slow games: people hours apart, a seat-filler that does not race, no empty-round loop ----

HOUR = 3600


def mentions_of(sim, member, since: int = 0) -> list[str]:
    return [line for line in narration(sim, since) if f"<@{member.id}>" in line]


async def test_slow_dice_time_waits_for_everyone_and_the_seat_filler_never_races(sim):
    """ann and bob play a slow game (the house's default pace) with one seat-filler, looking in
    hours apart. The seat-filler takes one short turn at the dice and then waits: it does not
    ring, claim and ring again round after round while the people sleep (it used to play 16
    rounds in two minutes). The end bell opens once both people have rolled, for everyone, the
    seat-filler too (issue 24: dice time ends when every person has rolled or used their time,
    and a seat-filler rings only after that)."""
    ann, bob = sim.player("ann"), sim.player("bob")
    people = {0: ann, 1: bob}
    game = await start(sim, ann, [bob], ai=1, seed=3)
    assert game.settings.get("pace", "slow") == "slow"
    parent = game.state["parent"]
    if parent in people:
        await sim.advance(2 * HOUR)  # the parent looks in two hours later and starts dice time
        await click(sim, people[parent], await sim.table_message(), ':!{"type":"ring_bell"}')
    else:
        await sim.advance(10)  # the seat-filler parent starts dice time itself
    st = await state(sim)
    assert st["phase"] == "dice" and st["round"] == 1
    began = 1 + next(k for k, (_, a) in enumerate(await moves(sim)) if a["type"] == "ring_bell")
    mark = 1 + next(k for k, m in enumerate(sim.channel.history()) if "Dice time!" in (m.content or ""))

    # Two minutes, then three hours: the seat-filler has had its turn at the dice, and stopped.
    await sim.advance(120)
    ai_moves = [a for s, a in await moves(sim, began) if s == 2]
    assert 1 <= len(ai_moves) <= 12 and all(a["type"] in ("roll", "claim") for a in ai_moves)
    await sim.advance(3 * HOUR)
    assert [a for s, a in await moves(sim, began) if s == 2] == ai_moves
    st = await state(sim)
    assert st["phase"] == "dice" and st["round"] == 1
    table = await sim.table_message()
    assert "🔒" in " ".join(labels(table)) and "still to roll: ann and bob" in text_of(table)
    # Each person was told once that dice time is on, with what to do.
    for member in (ann, bob):
        told = mentions_of(sim, member, mark - 1)
        assert len(told) == 1 and "dice time! Roll and claim cards in My hand" in told[0], told

    # ann rolls five hours in: the bell still waits for bob.
    await sim.advance(2 * HOUR)
    panel = panel_of(await click(sim, ann, table, ":r:1"))
    assert "still to roll: bob" in text_of(panel)
    bell = next(c for c in components_of(panel) if getattr(c, "custom_id", "").endswith(":b:1"))
    assert bell.disabled and "🔒" in bell.label  # nobody can ring a locked bell
    # bob looks in three hours later and rolls: the bell is free for everyone now.
    assert not any(a["type"] == "ring_bell" for s, a in await moves(sim, began) if s == 2)
    await sim.advance(3 * HOUR)
    await click(sim, bob, await sim.table_message(), ":r:1")
    assert any("Everyone has rolled: anyone may ring" in line for line in narration(sim, mark))
    # The seat-filler rings once its dice say so, never before the last person had rolled.
    await sim.advance(HOUR)
    game = await sim.game()
    late = await moves(sim, began)
    rolled = max(k for k, (s, a) in enumerate(late) if s == 1 and a["type"] in ("roll", "claim"))
    assert all(a["type"] != "ring_bell" for _, a in late[:rolled])
    assert game.state["round"] > 1 or game.state["phase"] == "dispatch"  # someone rang
    # In fifteen hours the table played one dice time, not sixteen: one end bell.
    events = [e for a in await sim.store.actions(game.id) for e in a["events"]]
    assert sum(e["type"] == "bell" for e in events) == 1 and game.state["round"] <= 2
    if game.state["phase"] == "dice":  # the next round's dice time has begun: locked again
        assert not game.state["min_over"] and game.state["round"] == 2
    starts = sum(e["type"] in ("dice_time", "dice_time_auto") for e in events)
    for member in (ann, bob):  # one "dice time!" call per dice time, not one per seat-filler move
        # (a reminder to someone who has not rolled yet is a reminder, not a new call)
        calls = [line for line in mentions_of(sim, member) if not line.startswith("⏰ Reminder")]
        assert sum("dice time!" in line for line in calls) == starts <= 2


async def test_dice_time_nobody_plays_does_not_loop_on_its_deadline(sim):
    """A dice-time deadline with nobody around used to end round after empty round for ever
    (4,000 moves and 8,000 messages in one run, each saying "Deadline passed for : ..."). Now
    dice time's deadline counts only once someone has played, so the game waits for a person."""
    ann, bob = sim.player("ann"), sim.player("bob")
    game = await start(sim, ann, [bob], seed=4, settings={"pace": "live", "on_deadline": "ai",
                                                         "deadlines": {"start": 60, "dice": 60}})
    assert [t.kind for t in await sim.store.timers(game.id) if t.kind in ("deadline", "duty")]
    posted = len(sim.channel.history())
    for _ in range(50):
        if not await sim.next_timer(game.id):
            break
    else:
        raise AssertionError("the timers never stop")
    await sim.advance(3 * 24 * HOUR)
    made = await moves(sim)
    st = await state(sim)
    # The parent's bell timed out (the seat-filler rang it for the absent parent); dice time
    # then waits for a person, with no deadline to end it.
    assert st["phase"] == "dice" and st["round"] == 1 and len(made) == 1, made
    assert not [t for t in await sim.store.timers(game.id) if t.kind in ("deadline", "duty")]
    assert len(sim.channel.history()) - posted <= 3
    assert not any("Deadline passed for :" in line for line in narration(sim))
    # ann comes back and rolls: now dice time's deadline runs, and ends it a minute later.
    await click(sim, ann, await sim.table_message(), ":r:1")
    await sim.advance(61)
    st = await state(sim)
    assert st["round"] == 2 or st["phase"] == "dispatch"

"""What a busy channel shows of a game (issue 30): the table above the first call, one pointer at
most when the table moves down, a turn message that stops growing once it is an hour old, and a
call that carries the table's key figures when the table is far up."""

from __future__ import annotations

from tests.support import toy
from tests.support.sim import TIGHT, button, components_of, text_of

TOY = toy.TITLE
#: No deadline and no reminder: these tests let hours pass without the seat-filler moving.
NO_DEADLINES = {**TIGHT, "deadlines": {"turn": 0, "nod": 0}, "reminder": 0}


async def _three(sim, clock=TIGHT):
    ann, bob, cy = sim.player("ann"), sim.player("bob"), sim.player("cy")
    await sim.start(ann, TOY, others=[bob, cy], clock=clock)
    return [ann, bob, cy], await sim.game()


async def _act(sim, member, label: str) -> None:
    panel = await sim.hand(member)
    await member.click(panel, custom_id=button(panel, label=label))
    await sim.settle()


async def _chat(sim, members, n: int) -> None:
    for i in range(n):
        await members[i % len(members)].send(sim.channel, f"chat {i}")


async def test_the_table_is_posted_before_the_first_call_of_a_game(sim):
    members, game = await _three(sim)
    history = sim.channel.history()
    table = await sim.table_message()
    calls = [m for m in history if "🔔" in (m.content or "")]
    assert calls, "the first player is called"
    ids = [m.id for m in history]
    assert ids.index(table.id) < ids.index(calls[0].id), "the first call sits above the table"


async def test_a_table_that_moves_down_twice_leaves_one_pointer_without_buttons(sim):
    members, game = await _three(sim)
    first = await sim.table_message()
    await _chat(sim, members, 12)
    mover = members[game.state["active"]]
    await _act(sim, mover, "Take 1")
    second = await sim.table_message()
    assert second.id != first.id
    nodders = [m for m in members if m is not mover]
    for member in nodders:
        await _act(sim, member, "OK")
    await _chat(sim, members, 12)
    g = await sim.game()
    await _act(sim, members[g.state["active"]], "Take 1")
    third = await sim.table_message()
    assert third.id not in (first.id, second.id)
    pointers = [m for m in sim.channel.history() if "table moved down" in text_of(m)]
    assert [m.id for m in pointers] == [second.id], "one pointer: the table left behind last"
    assert components_of(pointers[0]) == [], "a pointer carries no buttons"
    assert f"/{third.id}" in text_of(pointers[0])


async def test_a_turn_message_an_hour_old_is_not_extended(sim):
    members, game = await _three(sim, clock=NO_DEADLINES)
    mover = members[game.state["active"]]
    await _act(sim, mover, "Take 1")
    call = sim.channel.last_message
    nodders = [m for m in members if m is not mover]
    await sim.advance(3601)
    count = len(sim.channel.history())
    await _act(sim, nodders[0], "OK")  # calls nobody new: once it would have extended the call
    history = sim.channel.history()
    assert len(history) == count + 1, "an hour later the move gets a message of its own"
    assert f"{nodders[0].name} nods." in history[-1].content
    assert f"{nodders[0].name} nods." not in next(m for m in history if m.id == call.id).content


async def test_an_answered_call_stays_in_the_turn_message_struck_through(sim):
    members, game = await _three(sim, clock=NO_DEADLINES)
    mover = members[game.state["active"]]
    await _act(sim, mover, "Take 1")
    call = sim.channel.last_message
    nodder = next(m for m in members if m is not mover)
    await _act(sim, nodder, "OK")
    extended = next(m for m in sim.channel.history() if m.id == call.id).content
    assert f"~~🔔 **{nodder.name}**" in extended, extended  # still read, no longer asked
    assert f"<@{nodder.id}>" not in extended


async def test_a_reminder_in_a_chatty_channel_brings_the_table_down_and_carries_its_figures(sim):
    members, game = await _three(sim, clock={**TIGHT, "reminder": 900})
    late = members[game.state["active"]]
    table = await sim.table_message()
    await _chat(sim, members, 12)  # the table is now more than a screen up
    await sim.advance(1801)  # half the turn's hour: the first reminder
    history = sim.channel.history()
    reminder = history[-1]
    assert "Reminder" in reminder.content and f"<@{late.id}>" in reminder.content, reminder.content
    moved = await sim.table_message()
    assert moved.id != table.id and history[-2].id == moved.id, "the table sits right above the reminder"
    # The line that asks carries what the table says (the toy's first status line, its phase).
    line = next(x for x in reminder.content.splitlines() if f"<@{late.id}>" in x)
    assert "📋 Taking coins" in line, line


async def test_a_reminder_with_the_table_in_reach_leaves_it_where_it_is(sim):
    members, game = await _three(sim, clock={**TIGHT, "reminder": 900})
    table = await sim.table_message()
    await _chat(sim, members, 3)
    await sim.advance(1801)
    assert "Reminder" in sim.channel.last_message.content
    assert (await sim.table_message()).id == table.id, "a table a few messages up stays (no clutter)"


async def test_opening_my_hand_brings_a_far_table_down(sim):
    members, game = await _three(sim, clock=NO_DEADLINES)
    table = await sim.table_message()
    await _chat(sim, members, 12)
    await sim.hand(members[1])  # a check-in: the person looks at their hand
    await sim.settle()
    moved = await sim.table_message()
    assert moved.id != table.id and sim.channel.last_message.id == moved.id, "the table is the newest message again"
    count = len(sim.channel.history())
    await sim.hand(members[2])  # now within reach: nothing is posted again
    await sim.settle()
    assert len(sim.channel.history()) == count and (await sim.table_message()).id == moved.id


async def test_a_black_friday_reminder_carries_the_prices_from_the_table(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "blackfriday", others=[bob], clock={**TIGHT, "reminder": 900})
    game = await sim.game()
    await _chat(sim, [ann, bob], 12)
    assert await sim.next_timer(game.id)  # the first reminder: nobody has moved
    reminder = sim.channel.last_message
    assert "Reminder" in reminder.content, reminder.content
    prices = next(x for x in text_of(await sim.table_message()).splitlines() if x.startswith("Prices:"))
    assert f"📋 {prices}" in reminder.content, (prices, reminder.content)

"""Taking a move back, told honestly (issue 30, items 5 and 6): Undo is offered only while it
can work (never when the seat-filler answers the move at once), and a take-back of a move nobody
else saw (an E-Wars pick not yet confirmed) is told to nobody else."""

from __future__ import annotations

from engine.ewars import GAME as EWARS
from tests.support import toy
from tests.support.sim import button, channel_text, components_of, custom_ids, panel_of, reply_text

TOY = toy.TITLE


def _undo_ids(panel) -> list[str]:
    return [c for c in custom_ids(panel) if ":Hundo:" in c]


async def test_no_undo_is_offered_when_the_seat_filler_answers_the_move_at_once(sim):
    ann = sim.player("ann")
    await sim.start(ann, TOY, ai=1)
    await sim.arrange(lambda st: st.update(active=0, owed=[]))
    panel = await sim.hand(ann)
    result = await ann.click(panel, custom_id=button(panel, label="Take 1"))
    assert not _undo_ids(panel_of(result)), "the AI nods two seconds later: Undo could never work"
    await sim.run_ai()
    # The AI's nod was made (what happens after it depends on how long the test took: the
    # game may have moved on to ann's next nod, or to its end).
    assert (await sim.game()).state["window"] >= 2
    assert "🤖 Ada nods." in channel_text(sim)


async def test_undo_stays_offered_while_only_people_are_to_answer(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob])
    await sim.arrange(lambda st: st.update(active=0, owed=[]))
    panel = await sim.hand(ann)
    result = await ann.click(panel, custom_id=button(panel, label="Take 1"))
    assert _undo_ids(panel_of(result))


async def _to_dispatch(sim) -> None:
    """Dice time played through the house for both people (claim what the dice allow, roll
    again otherwise, ring once a card is claimed), until someone has an employee to send."""
    for _ in range(600):
        game = await sim.game()
        st = game.state
        if st["phase"] == "dispatch":
            return
        claimed = any(c is not None for c in st["claims"])
        for seat in range(2):
            legal = EWARS.legal(st, seat)
            move = (next((a for a in legal if a["type"] == "claim"), None)
                    or next((a for a in legal if a["type"] == "ring_bell" and (claimed or st["phase"] != "dice")), None)
                    or next((a for a in legal if a["type"] == "roll"), None))
            if move is not None:
                await sim.house.act(game.id, seat, move)
                await sim.settle()
                break
        else:
            await sim.next_timer(game.id)
    raise AssertionError("dice time never ended")


async def test_taking_back_a_secret_pick_is_told_to_nobody_else(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "ewars", others=[bob])
    await _to_dispatch(sim)
    game = await sim.game()
    seat = next(s for s in range(2) if any(a["type"] == "dispatch" for a in EWARS.legal(game.state, s)))
    picker = ann if game.seat_of(ann.id) == seat else bob
    panel = await sim.hand(picker)
    menu = next(c for c in custom_ids(panel) if ":d:" in c)
    since = len(sim.channel.history())
    table_before = (await sim.table_message()).id
    option = _first_option_of(panel, menu)
    picked = panel_of(await picker.select(panel, [option], custom_id=menu))
    await sim.settle()
    assert _undo_ids(picked), "a pick revealed nothing: it may be taken back"
    result = await picker.click(picked, custom_id=_undo_ids(picked)[0])
    await sim.settle()
    assert "You took back your move." in reply_text(result)
    assert "took back" not in channel_text(sim, since), "nobody else saw the pick"
    assert len(sim.channel.history()) == since and (await sim.table_message()).id == table_before


def _first_option_of(message, custom_id: str) -> str:
    select = next(c for c in components_of(message) if getattr(c, "custom_id", None) == custom_id)
    return select.options[0].value

"""A click drawn for an earlier moment still applies when it is still its player's own decision
(issue 30, item 4): others answering meanwhile (the seat-filler two seconds after a roll) no
longer make "Keep everything" or a nod stale; a click drawn before its player moved, or before
the question it answers was asked again, still is."""

from __future__ import annotations

from tests.bot.test_filthyrich import arrange_scene, start3
from tests.support import toy
from tests.support.sim import button, labels, panel_of, reply_text

TOY = toy.TITLE


async def _three(sim):
    members = [sim.player(n) for n in ("ann", "bob", "cy")]
    await sim.start(members[0], TOY, others=members[1:])
    await sim.arrange(lambda st: st.update(active=0, owed=[]))
    return members


async def _click(sim, member, message, label):
    result = await member.click(message, custom_id=button(message, label=label))
    await sim.settle()
    return result


async def test_a_nod_drawn_before_another_seat_nodded_still_applies(sim):
    ann, bob, cy = await _three(sim)
    await _click(sim, ann, await sim.hand(ann), "Take 1")
    bobs, cys = await sim.hand(bob), await sim.hand(cy)  # both asked to nod, at the same moment
    await _click(sim, bob, bobs, "OK")
    result = await _click(sim, cy, cys, "OK")  # drawn before Bob's nod: the same question
    assert "earlier moment" not in reply_text(result)
    game = await sim.game()
    assert game.state["owed"] == [] and game.state["active"] == 1, "Cy's nod applied; Bob's turn"
    assert "Take 1" not in labels(panel_of(result))


async def test_a_click_drawn_before_its_question_was_asked_again_is_stale(sim):
    ann, bob, cy = await _three(sim)
    await _click(sim, ann, await sim.hand(ann), "Take 1")
    old = await sim.hand(cy)
    await _click(sim, bob, await sim.hand(bob), "OK")
    await _click(sim, cy, await sim.hand(cy), "OK")
    # Bob takes: Cy is asked to nod again, a new question; the nod drawn for Ann's take is stale.
    await _click(sim, bob, await sim.hand(bob), "Take 1")
    version = (await sim.game()).version
    result = await _click(sim, cy, old, "OK")
    assert "earlier moment" in reply_text(result)
    assert (await sim.game()).version == version


async def test_keep_everything_applies_after_another_seat_answered_the_tax(sim):
    ann, bob, cy = await start3(sim)
    ids = await arrange_scene(sim)
    game = await sim.game()
    for action in ({"type": "play", "card": ids["tornado_cleaners"], "slots": [3, 6]},
                   {"type": "play", "card": ids["angel_investor"]}, {"type": "roll"}):
        await sim.house.act(game.id, 0, action)
        await sim.settle()
    assert (await sim.game()).state["phase"] == "tax"
    panel = await sim.hand(ann)
    assert "Keep everything" in labels(panel)
    # Bob answers first (the seat-filler would, two seconds after the roll).
    await sim.house.act(game.id, 1, {"type": "tax_decision", "sell": [ids["tattoo_parlour"]]})
    await sim.settle()
    result = await _click(sim, ann, panel, "Keep everything")  # the panel as Ann saw it
    assert "earlier moment" not in reply_text(result)
    assert 0 not in (await sim.game()).state["tax"]["pending"], "Ann's answer applied"

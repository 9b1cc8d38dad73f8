"""I'm the Boss! results through the bot (issue 15): the results picture keeps the mark of a
seat-filler's seat (the font cannot draw 🤖, so the picture gets "(AI)" beside the name)."""

from __future__ import annotations

import render.imtheboss as R
from tests.bot.test_imtheboss import click, placards, set_hands, turn


async def test_results_picture_keeps_the_ai_mark(sim, monkeypatch):
    drawn: list[list[str]] = []
    original = R.results_image

    def spy(view, names, lang):
        drawn.append(list(names))
        return original(view, names, lang)

    monkeypatch.setattr(R, "results_image", spy)
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "imtheboss", others=[bob], ai=1)
    game = await sim.game()
    ai = next(s.seat for s in game.seats if s.ai_plays)
    ann_seat = next(s.seat for s in game.seats if s.user_id == ann.id)

    def last_deal(s):
        turn(s, ann_seat, 3)  # space D: Red + Orange, both Ann's; deal card #15 ends the game
        placards(s, {"red": ann_seat, "orange": ann_seat})
        s["stack"] = [15]
        # The others hold nothing that could act in the last call (a travel card sending a clan
        # away, a Stop): the flow must not depend on the hands dealt at random.
        set_hands(s, {seat: ["clan-green"] for seat in range(3) if seat != ann_seat})

    await sim.arrange(last_deal)
    panel = await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    await click(sim, ann, panel, prefix="🔨 Close")
    await click(sim, bob, await sim.hand(bob), label="Pass")
    await sim.run_ai()
    assert (await sim.game()).status == "finished"
    assert drawn, "the results picture was drawn"
    names = drawn[-1]
    assert names[ai].endswith("(AI)") and "🤖" not in names[ai]
    assert not names[ann_seat].endswith("(AI)")

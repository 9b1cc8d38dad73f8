"""Taking back a move (issue 19), as players live it: right after a move that revealed nothing
the mover's panel carries Undo for a short while; a click puts the game back as it was (the
snapshot, the log, the deadlines) and the channel says so; once someone else acted, the time
ran out, the move ended the game or the host turned undo off, it cannot be."""

from __future__ import annotations

import pytest

from tests.support.bot_games import log_problems
from tests.support import toy
from tests.support.sim import button, channel_text, custom_ids, labels, panel_of, reply_text, text_of

TOY = toy.TITLE
pytestmark = pytest.mark.both_backends


async def _two(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob])
    game = await sim.game()
    mover = [ann, bob][game.state["active"]]
    other = bob if mover is ann else ann
    return mover, other, game


async def _take(sim, member, label: str = "Take 2"):
    panel = await sim.hand(member)
    result = await member.click(panel, custom_id=button(panel, label=label))
    await sim.settle()
    return panel_of(result)


def _undo_id(panel) -> str:
    return next(c for c in custom_ids(panel) if ":Hundo:" in c)


async def test_a_move_that_revealed_nothing_is_taken_back_with_the_undo_button(sim):
    mover, other, game = await _two(sim)
    timers_before = sorted((t.kind, t.ref, t.due_at) for t in await sim.store.timers(game.id))
    await sim.advance(30)
    panel = await _take(sim, mover)
    assert "Undo" in labels(panel) and "take this move back" in text_of(panel)
    moved = await sim.game()
    assert moved.version == 1 and moved.state["pile"] == 5 and moved.state["owed"]
    assert "Everyone nods" in text_of(await sim.table_message())
    since = len(sim.channel.history())
    result = await mover.click(panel, custom_id=_undo_id(panel))
    await sim.settle()
    back = await sim.game()
    assert back.version == 2 and back.state == game.state  # the state before the move; versions never repeat
    assert await sim.store.actions(game.id) == [] and [u["seq"] for u in await sim.store.undone(game.id)] == [1]
    assert await log_problems(sim.store, game.id) == []  # the log still replays to the snapshot
    # The deadline is where it was before the move: a move and an undo buy no time.
    assert sorted((t.kind, t.ref, t.due_at) for t in await sim.store.timers(game.id)) == timers_before
    # The mover sees their panel as before the move; the channel is told.
    shown = reply_text(result)
    assert "You took back your move." in shown and "Take 2" in labels(panel_of(result))
    assert "Undo" not in labels(panel_of(result))
    assert f"{mover.name} took back their last move." in channel_text(sim, since)
    table = text_of(await sim.table_message())
    assert "Taking coins" in table and "Everyone nods" not in table  # the table is as before the move
    # The game goes on from there.
    await _take(sim, mover, "Take 1")
    assert (await sim.game()).state["pile"] == 6 and await log_problems(sim.store, game.id) == []


async def test_a_panel_drawn_for_the_move_taken_back_never_acts_on_a_later_one(sim):
    """Versions never repeat: the nod Bob's panel offered for the move taken back is stale
    after the mover's next move, not a nod to a move Bob never saw."""
    mover, other, game = await _two(sim)
    panel = await _take(sim, mover, "Take 3")
    old_nod = await sim.hand(other)
    assert "OK" in labels(old_nod)
    await mover.click(panel, custom_id=_undo_id(panel))
    await sim.settle()
    await _take(sim, mover, "Take 1")
    result = await other.click(old_nod, custom_id=button(old_nod, label="OK"))
    await sim.settle()
    g = await sim.game()
    assert g.state["pile"] == 6 and g.state["owed"] == [1 - g.state["active"]]  # Bob's nod is still owed
    assert "earlier moment" in reply_text(result)


async def test_once_someone_else_acted_the_move_stands(sim):
    mover, other, game = await _two(sim)
    panel = await _take(sim, mover)
    await _take(sim, other, "OK")
    result = await mover.click(panel, custom_id=_undo_id(panel))
    await sim.settle()
    assert "someone acted since" in reply_text(result)
    g = await sim.game()
    assert g.version == 2 and len(await sim.store.actions(game.id)) == 2 and await sim.store.undone(game.id) == []


async def test_the_undo_window_closes_after_two_minutes(sim):
    mover, other, game = await _two(sim)
    panel = await _take(sim, mover)
    await sim.advance(121)
    result = await mover.click(panel, custom_id=_undo_id(panel))
    await sim.settle()
    assert "the time to take back a move has passed" in reply_text(result)
    assert (await sim.game()).version == 1 and await sim.store.undone(game.id) == []


async def test_only_the_mover_is_offered_undo_on_any_of_their_panels_meanwhile(sim):
    mover, other, game = await _two(sim)
    await _take(sim, mover)
    assert not any(":Hundo:" in c for c in custom_ids(await sim.hand(other)))
    again = await sim.hand(mover)  # My hand opened again within the time: Undo is there too
    await mover.click(again, custom_id=_undo_id(again))
    await sim.settle()
    assert (await sim.game()).state == game.state


async def test_a_dm_panel_player_takes_back_a_move_from_their_dm(sim):
    mover, other, game = await _two(sim)
    await mover.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    dm = [m for m in mover.user.dm_channel.history() if m.components][-1]
    result = await mover.user.click(dm, custom_id=button(dm, label="Take 2"))  # in the DM, as its user
    await sim.settle()
    assert (await sim.game()).state["pile"] == 5
    dm = [m for m in mover.user.dm_channel.history() if m.components][-1]
    assert "Undo" in labels(dm), "the DM panel, edited after the move, keeps the Undo offer"
    await mover.user.click(dm, custom_id=_undo_id(dm))
    await sim.settle()
    assert (await sim.game()).state == game.state and result is not None


async def test_a_move_that_ends_the_game_offers_no_undo(sim):
    mover, other, game = await _two(sim)
    await sim.arrange(lambda st: st.update(pile=2))
    panel = await _take(sim, mover)
    assert (await sim.game()).status == "finished"
    assert not any(":Hundo:" in c for c in custom_ids(panel))


async def test_the_host_can_turn_undo_off_in_the_settings(sim):
    mover, other, game = await _two(sim)
    host = sim.player("ann")
    settings = await sim.settings(host)
    assert "Take back a move: within 2 min" in text_of(settings)
    # Chosen like a window's length, under the "Change a deadline…" select: five rows at most.
    chosen = panel_of(await host.select(settings, ["~undo"], custom_id=button(settings, ":Hkind")))
    assert len(custom_ids(chosen)) <= 5
    await host.select(chosen, ["0"], custom_id=button(chosen, ":Hset:undo"))
    assert (await sim.game()).settings["undo"] == 0
    panel = await _take(sim, mover)
    assert not any(":Hundo:" in c for c in custom_ids(panel)) and (await sim.game()).version == 1


async def test_a_restart_forgets_the_undo_and_the_move_stands(sim):
    mover, other, game = await _two(sim)
    panel = await _take(sim, mover)
    await sim.restart()
    result = await mover.click(panel, custom_id=_undo_id(panel))
    await sim.settle()
    assert "can no longer be taken back" in reply_text(result)
    assert (await sim.game()).version == 1


async def test_in_filthy_rich_an_ad_placed_is_taken_back_but_a_roll_of_the_dice_never(sim):
    """A real title: placing an ad (money paid, cover fees) revealed nothing and is taken back,
    money and all; rolling the business dice drew chance, and the panel offers no Undo."""
    from tests.bot.test_filthyrich import arrange_scene, choose, click, component, start3

    ann, bob, cy = await start3(sim)
    ids = await arrange_scene(sim)
    scene = await sim.game()
    panel = await sim.hand(ann)
    menu = panel_of(await choose(sim, ann, panel, [ids["tornado_cleaners"]], code="card"))
    slots = component(menu, code="act")
    fee = next(o for o in slots.options if o.label == "Slots 3+6 (cover fees $2)")
    panel = panel_of(await choose(sim, ann, menu, [fee.value], code="act"))
    assert (await sim.game()).state["money"][:2] == [6, 7] and "Undo" in labels(panel)
    back = panel_of(await click(sim, ann, panel, label="Undo"))
    game = await sim.game()
    assert game.version == scene.version + 2 and game.state == scene.state
    assert "You took back your move." in text_of(back)
    assert len(await sim.store.actions(game.id)) == 0  # the arranged scene was written without a log
    # Placed again, then the Angel Investor and the roll: the dice end any taking back.
    menu = panel_of(await choose(sim, ann, back, [ids["tornado_cleaners"]], code="card"))
    panel = panel_of(await choose(sim, ann, menu, [fee.value], code="act"))
    menu = panel_of(await choose(sim, ann, panel, [ids["angel_investor"]], code="card"))
    panel = panel_of(await click(sim, ann, menu, label="Play Angel Investor"))
    rolled = panel_of(await click(sim, ann, panel, prefix="Roll 2 business dice"))
    assert (await sim.game()).state["phase"] == "tax"
    assert "Undo" not in labels(rolled) and not any(":Hundo:" in c for c in custom_ids(rolled))

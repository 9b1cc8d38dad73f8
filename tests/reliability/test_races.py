"""Races: clicks that arrive at the same moment (every INTERACTION_CREATE delivered before the
bot handles any, `bot_games.at_once`), also against a deadline or an AI move falling due at
that moment. Where the rules allow one, exactly one applies; every other click gets a clear
reply (never Discord's "This interaction failed"); and afterwards the action log replays to the
stored snapshot."""

from __future__ import annotations

import json

import pytest

from cogs.titles.contract import ui_for
from tests.support.bot_games import first_deadline, Click, at_once, log_problems, start_game
from tests.support.sim import button, components_of, custom_ids, labels, panel_of, reply_text

TOY = "toy"


def _answered(results) -> None:
    for r in results:
        assert r.acknowledged or r.modal is not None, f"no reply: {r}"
        assert "Something went wrong" not in reply_text(r)


def _bell_too_late(result) -> bool:
    """The reply to a bell pressed after dice time ended: why, with a fresh panel."""
    text = reply_text(result)
    return "Dice time is over" in text or "earlier moment" in text


async def _actions(sim, game_id):
    return [(a["seat"], a["action"]) for a in await sim.store.actions(game_id)]


# -- the same button from several players ---------------------------------------------------------

async def _ewars_dice_time(sim, players):
    game = await start_game(sim, players[0], "ewars", others=players[1:], seed=7)
    parent = game.state["parent"]
    table = await sim.table_message()
    await players[parent].click(table, custom_id=button(table, label="🔔 Ring to start dice time"))
    await sim.settle()
    game = await sim.store.get(game.id)
    assert game.state["phase"] == "dice"
    return game


@pytest.mark.parametrize("ringers", [2, 3])
async def test_players_ring_the_bell_on_the_table_at_once_one_rings(sim, ringers):
    """E-Wars dice time: anyone may ring the bell (from the table), and the first to ring ends
    dice time and becomes the parent. Several players press the table's Bell at once."""
    players = [sim.player(n) for n in ("ann", "bob", "cy")]
    game = await _ewars_dice_time(sim, players)
    before = len(await _actions(sim, game.id))
    table = await sim.table_message()
    bell = button(table, code_suffix=":b:1")
    results = await at_once(sim, [Click(p, table, bell) for p in players[:ringers]])
    _answered(results)
    game = await sim.store.get(game.id)
    rung = [a for a in (await _actions(sim, game.id))[before:] if a[1]["type"] == "ring_bell"]
    assert len(rung) == 1 and game.state["phase"] != "dice"
    winner = rung[0][0]
    assert game.state["parent"] == winner
    for seat, r in enumerate(results):
        if seat != winner:  # told that dice time is over, not how to start the next one
            assert _bell_too_late(r), reply_text(r)
    assert await log_problems(sim.store, game.id) == []


async def test_a_double_click_on_the_bell_rings_once(sim):
    """The Bell is valid at any version (dice time moves the version every second). Pressed
    twice at once by the same player, it must end dice time once, and not also start the next
    round's dice time (a ring by the new parent, which the second press would be at that point)."""
    players = [sim.player(n) for n in ("ann", "bob")]
    game = await _ewars_dice_time(sim, players)
    before = len(await _actions(sim, game.id))
    table = await sim.table_message()
    bell = button(table, code_suffix=":b:1")
    results = await at_once(sim, [Click(players[1], table, bell)] * 2)
    _answered(results)
    rung = [a for a in (await _actions(sim, game.id))[before:] if a[1]["type"] == "ring_bell"]
    assert len(rung) == 1, rung
    assert any(_bell_too_late(r) for r in results)
    assert await log_problems(sim.store, game.id) == []


async def test_two_players_answer_the_same_window_at_once(sim):
    """Both owe a nod and both press OK on panels drawn for the same moment: both apply, one
    after the other (issue 30: the later click is still its player's own decision, as the
    other's nod changed nothing it was asked), and the log replays."""
    people = [sim.player(n) for n in ("ann", "bob", "cy")]
    game = await start_game(sim, people[0], TOY, others=people[1:], settings={"ai_delay": 10})
    mover = ui_for(TOY).game.to_act(game.state)[0]
    panel = await sim.hand(people[mover])
    await people[mover].click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    owed = (await sim.store.get(game.id)).state["owed"]
    panels = {s: await sim.hand(people[s]) for s in owed}
    results = await at_once(sim, [Click(people[s], panels[s], button(panels[s], label="OK")) for s in owed])
    _answered(results)
    game = await sim.store.get(game.id)
    assert game.version == 3 and game.state["owed"] == []
    assert not any("earlier moment" in reply_text(r) for r in results)
    assert await log_problems(sim.store, game.id) == []


# -- the same player twice ------------------------------------------------------------------------

async def test_a_double_click_applies_once(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    members = [ann, bob]
    game = await start_game(sim, ann, TOY, others=[bob], settings={"ai_delay": 10})
    seat = ui_for(TOY).game.to_act(game.state)[0]
    panel = await sim.hand(members[seat])
    take2 = button(panel, label="Take 2")
    results = await at_once(sim, [Click(members[seat], panel, take2)] * 2)
    _answered(results)
    game = await sim.store.get(game.id)
    assert game.version == 1 and game.state["pile"] == 5
    # Both answers edit the same panel message, in either order: one of the edits says why the
    # other click did nothing (the message's final text may be the winner's fresh panel).
    edits = [json.dumps(r.json, ensure_ascii=False) for r in sim.env.http_requests
             if r.method == "PATCH" and r.path.endswith("/messages/@original")]
    assert any("earlier moment" in e for e in edits), edits
    assert await log_problems(sim.store, game.id) == []


async def test_a_button_and_a_select_of_the_same_panel_at_once_apply_once(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    members = [ann, bob]
    game = await start_game(sim, ann, TOY, others=[bob], settings={"ai_delay": 10})
    seat = ui_for(TOY).game.to_act(game.state)[0]
    panel = await sim.hand(members[seat])
    select = next(c for c in custom_ids(panel) if c.startswith("bs:"))
    three = next(o.value for c in components_of(panel) if c.custom_id == select
                 for o in c.options if o.label.startswith("3"))
    results = await at_once(sim, [Click(members[seat], panel, button(panel, label="Take 1")),
                                  Click(members[seat], panel, select, values=[three])])
    _answered(results)
    game = await sim.store.get(game.id)
    assert game.version == 1 and game.state["pile"] in (6, 4)
    assert await log_problems(sim.store, game.id) == []


async def test_the_parent_double_clicks_the_start_bell(sim):
    """A table button bound to the table's version (E-Wars' start bell): pressed twice at once,
    dice time starts once; the second press does not end it."""
    players = [sim.player(n) for n in ("ann", "bob")]
    game = await start_game(sim, players[0], "ewars", others=players[1:], seed=7)
    parent = players[game.state["parent"]]
    table = await sim.table_message()
    start = button(table, label="🔔 Ring to start dice time")
    results = await at_once(sim, [Click(parent, table, start)] * 2)
    _answered(results)
    game = await sim.store.get(game.id)
    assert game.state["phase"] == "dice" and game.version == 1
    assert await log_problems(sim.store, game.id) == []


# -- a click while a deadline falls due, an AI move against a person ------------------------------

@pytest.mark.parametrize("mode", ["skip", "ai"])
async def test_a_click_as_the_deadline_fires_one_move_for_the_turn(sim, mode):
    """The player to move takes 2 coins at the very moment their turn's deadline passes, which
    applies the title's timeout (skip: take 1) or lets the AI move for them (ai: take 3). In
    several interleavings (the click some loop turns ahead of the timer, or the timer ahead of
    the click), exactly one of the two moves is the turn's; a click that lost is told so. Both
    outcomes occur."""
    ann, bob = sim.player("ann"), sim.player("bob")
    members = [ann, bob]
    outcomes: dict[str, list] = {"click": [], "deadline": []}
    variants = [(False, y, 0.0) for y in (0, 2, 8, 32)] + [(True, y, p) for y, p in ((0, 0), (8, 0), (0, 0.02), (0, 0.2))]
    for clock_first, yields, pause in variants:
        game = await start_game(sim, ann, TOY, others=[bob],
                                settings={"ai_delay": 10, "pace": "live", "on_deadline": mode, "reminder": 0})
        seat = ui_for(TOY).game.to_act(game.state)[0]
        deadline, end, window = await first_deadline(sim.store, game.id)
        await sim.advance(end - sim.env.now().timestamp() - 1)
        panel = await sim.hand(members[seat])
        assert (await sim.store.get(game.id)).version == 0
        (result,) = await at_once(sim, [Click(members[seat], panel, button(panel, label="Take 2"))],
                                  advance=2, yields=yields, clock_first=clock_first, pause=pause)
        _answered([result])
        log = await sim.store.actions(game.id)
        turn = [a for a in log if a["action"]["type"] in ("take", "timeout")]
        assert len(turn) == 1, log  # one move for the turn: the click's or the deadline's
        game = await sim.store.get(game.id)
        if turn[0]["user_id"] == members[seat].id:
            outcomes["click"].append((clock_first, yields, pause))
            assert turn[0]["action"] == {"type": "take", "n": 2} and game.state["pile"] == 5
        else:
            outcomes["deadline"].append((clock_first, yields, pause))
            assert game.state["pile"] == (6 if mode == "skip" else 4)
            assert "earlier moment" in reply_text(result), reply_text(result)
        assert await log_problems(sim.store, game.id) == []
        # End this game so the channel is free for the next interleaving.
        asked = panel_of(await sim.menu_click(ann, "Hendask"))
        await ann.click(asked, label="End the game")
        await sim.settle()
    print(mode, outcomes)
    assert outcomes["click"] and outcomes["deadline"], outcomes


async def test_a_person_and_the_ai_ring_the_bell_at_once(sim):
    """E-Wars dice time with one person and two AI seats: at the moment an AI seat's next move
    (known in advance: the seat-filler's choice is seeded by the game and version) is to ring
    the bell, the person presses the table's Bell. Exactly one bell rings."""
    ann = sim.player("ann")
    game = await start_game(sim, ann, "ewars", ai=2, seed=11)
    house = sim.house
    for _ in range(300):
        game = await sim.store.get(game.id)
        if game.state["phase"] == "await_start" and game.state["parent"] == 0:
            table = await sim.table_message()
            await ann.click(table, custom_id=button(table, label="🔔 Ring to start dice time"))
            await sim.settle()
            continue
        timers = sorted((t for t in await sim.store.timers(game.id) if t.kind == "ai"), key=lambda t: t.due_at)
        if game.state["phase"] == "dice" and timers:
            due = timers[0]
            cached = await house.games.game(game.id)
            if house.ai_choice(cached, int(due.ref)) == {"type": "ring_bell"}:
                break
        if not timers and not await sim.store.timers(game.id):
            raise AssertionError("the game stopped")
        nxt = min(t.due_at for t in await sim.store.timers(game.id))
        await sim.advance(nxt - sim.env.now().timestamp() + 0.01)
    else:
        raise AssertionError("no AI seat chose to ring the bell")
    before = await _actions(sim, game.id)
    await sim.advance(due.due_at - sim.env.now().timestamp() - 0.5)  # just before the AI's move
    assert len(await _actions(sim, game.id)) == len(before)
    table = await sim.table_message()
    (result,) = await at_once(sim, [Click(ann, table, button(table, code_suffix=f":b:{game.state['round']}"))],
                              advance=1)
    _answered([result])
    after = (await _actions(sim, game.id))[len(before):]
    rung = [a for a in after if a[1]["type"] == "ring_bell"]
    assert len(rung) == 1, after
    game = await sim.store.get(game.id)
    assert game.state["parent"] == rung[0][0]
    if rung[0][0] != 0:
        assert _bell_too_late(result), reply_text(result)
    assert await log_problems(sim.store, game.id) == []


async def test_a_person_and_an_ai_seat_owing_the_same_window_both_answer(sim):
    """The AI's nod falls due as the person nods: both may, both apply (the AI's attempt drawn
    for the earlier moment is simply made again), nothing twice."""
    ann = sim.player("ann")
    game = await start_game(sim, ann, TOY, ai=2, settings={"ai_delay": 10})
    for _ in range(20):  # until the person owes a nod alongside an AI seat
        game = await sim.store.get(game.id)
        if 0 in game.state["owed"] and len(game.state["owed"]) == 2:
            break
        if 0 in ui_for(TOY).game.to_act(game.state):
            panel = await sim.hand(ann)
            await ann.click(panel, custom_id=button(panel, label="Take 1" if "Take 1" in labels(panel) else "OK"))
            await sim.settle()
            continue
        timers = await sim.store.timers(game.id)
        await sim.advance(min(t.due_at for t in timers) - sim.env.now().timestamp() + 0.01)
    else:
        raise AssertionError("never owed a nod alongside an AI seat")
    version = game.version
    ai_timer = next(t for t in await sim.store.timers(game.id) if t.kind == "ai")
    await sim.advance(ai_timer.due_at - sim.env.now().timestamp() - 0.5)  # just before the AI's nod
    assert (await sim.store.get(game.id)).version == version
    panel = await sim.hand(ann)
    (result,) = await at_once(sim, [Click(ann, panel, button(panel, label="OK"))], advance=1)
    _answered([result])
    await sim.advance(11)  # the AI's second try, if its first was for the earlier moment
    game = await sim.store.get(game.id)
    log = await _actions(sim, game.id)
    oks = [a for a in log[version:] if a[1]["type"] == "ok"]
    assert sorted(s for s, _ in oks) == sorted([0, int(ai_timer.ref)])
    assert await log_problems(sim.store, game.id) == []

"""E-Wars played through the bot (SimCord): live dice time with a claim race between two
players' clicks, an early bell from the table, late clicks after the bell, private dispatch
with selects, the contract told step by step in the channel, a restart during dice time, a hand
refilled from the discard pile, and a whole game to the results message (slow games:
test_ewars_slow.py).

Games use fixed seeds, so every run plays the same game."""

from __future__ import annotations

from typing import Any

import pytest

from engine.ewars import GAME
from engine.ewars.data import HIGH_TO_LOW, REACH
from engine.ewars.grid import names as pos_names
from engine.ewars.grid import reach
from tests.support.sim import (button, components_of, custom_ids, labels, panel_of, picture_urls, reply_text,
                               text_of)
from tests.support.ewars_bot import (RANK_EN, start, state, click, pick, click_together, narration, save,
                                     pos_index, claimable_pos)


# -- a three-player table: the race, the early bell, dispatch, the contract ------------------

async def test_claim_race_early_bell_dispatch_and_contract(sim):
    ann, bob, cy = sim.player("ann"), sim.player("bob"), sim.player("cy")
    players = [ann, bob, cy]
    game = await start(sim, ann, [bob, cy], seed=7, settings={"pace": "live"})  # a live race
    st = game.state
    parent = st["parent"]
    others = [m for s, m in enumerate(players) if s != parent]

    # Waiting for the bell: the table offers the start bell; only the parent may ring it.
    table = await sim.table_message()
    assert "Waiting for the parent's bell" in text_of(table)
    start_id = button(table, label="🔔 Ring to start dice time")
    refused = await others[0].click(table, custom_id=start_id)
    await sim.settle()
    assert "Only the parent rings the bell" in reply_text(refused)
    assert (await state(sim))["phase"] == "await_start"
    waiting = await sim.hand(others[0])
    assert "Waiting for" in text_of(waiting) and "to ring the bell" in text_of(waiting)
    assert labels(waiting) == ["🔄 Refresh"]  # nothing to click but Refresh

    mark = len(sim.channel.history())
    started = await players[parent].click(table, custom_id=start_id)
    await sim.settle()
    st = await state(sim)
    assert st["phase"] == "dice" and all(len(d) == 6 for d in st["dice"])
    first = panel_of(started)  # the table click answers with the parent's fresh panel
    assert "Your dice:" in text_of(first) and "🎲 Roll" in labels(first)
    assert any("Dice time! Everyone rolls" in line for line in narration(sim, mark))
    table = await sim.table_message()
    assert {"🎲 Roll", "🔔 Bell"} <= set(labels(table))
    await save(table, "dice_table")
    await save(first, "dice_panel")

    # Two players race for one card: both see it, both click at the same moment.
    a, b, ringer = players[parent], others[0], others[1]
    sa, sb = parent, players.index(b)
    pa, pb = await sim.hand(a), await sim.hand(b)
    for _ in range(30):
        st = await state(sim)
        common = sorted(set(claimable_pos(st, sa)) & set(claimable_pos(st, sb)))
        if common:
            break
        pa = panel_of(await click(sim, a, pa, ":r:1"))
        pb = panel_of(await click(sim, b, pb, ":r:1"))
    else:
        raise AssertionError("the two players never could claim the same card")
    pos = common[0]
    assert f"Claim {pos}" in " ".join(labels(pa)) and f"Claim {pos}" in " ".join(labels(pb))
    mark = len(sim.channel.history())
    ra, rb = await click_together(sim, [(a, pa, f":c:1:{pos}"), (b, pb, f":c:1:{pos}")])
    st = await state(sim)
    winner = st["claims"][pos_index(st, pos)]
    assert winner in (sa, sb)
    assert sum(1 for c in st["claims"] if c is not None) == 1  # exactly one claim in the store
    loser, lost_result = (b, rb) if winner == sa else (a, ra)
    won_result = ra if winner == sa else rb
    ls = players.index(loser)
    assert len(st["dice"][ls]) == 6 and len(st["dice"][winner]) == 4
    assert f"Someone already claimed {pos}." in reply_text(lost_result)
    assert f"Your claims: {pos}" in reply_text(won_result)
    # The claim shows on the table (seat lines, recent lines) but is never a channel message.
    table = await sim.table_message()
    name = players[winner].name
    assert f"**{name}**" in text_of(table) and f"claims: {pos}" in text_of(table)
    assert f"{name} claims {pos}." in text_of(table)
    assert not any("claims" in line for line in narration(sim, mark))

    # The loser claims another card if a roll allows it (so the contract has two employees).
    pl = await sim.hand(loser)
    for _ in range(30):
        st = await state(sim)
        options = claimable_pos(st, ls)
        if options:
            pl = panel_of(await click(sim, loser, pl, f":c:1:{options[0]}"))
            break
        pl = panel_of(await click(sim, loser, pl, ":r:1"))
    st = await state(sim)
    assert sum(1 for c in st["claims"] if c is not None) == 2

    # The third player rings early, from the table: dice time ends, they become the parent.
    mark = len(sim.channel.history())
    table = await sim.table_message()
    rung = await click(sim, ringer, table, ":b:1")
    st = await state(sim)
    assert st["phase"] == "dispatch" and st["parent"] == players.index(ringer) != parent
    lines = narration(sim, mark)
    assert any(f"{ringer.name} rings the bell and becomes the parent" in line for line in lines)
    assert any("Dispatch:" in line for line in lines)
    assert "Waiting for the others to send their employees" in reply_text(rung)

    # A click drawn during dice time arrives late: politely refused, with a fresh panel.
    late = await click(sim, loser, pl, ":r:1")
    assert "Dice time is over" in reply_text(late)
    assert (await state(sim))["dice"][ls] == []

    # Dispatch: private, one select per claimed card; the winner sends a Staff, the loser the
    # rank that reaches the winner's card if one does.
    pw = await sim.hand(players[winner])
    assert f"{pos} (" in " ".join(labels(pw))
    menu = next(c for c in custom_ids(pw) if f":d:1:{pos}" in c)
    assert menu.startswith("bs:") and ":*:" in menu  # any version: others' placements move it
    await save(pw, "dispatch_panel")
    mark = len(sim.channel.history())
    chosen = panel_of(await pick(sim, players[winner], pw, f":d:1:{pos}", "staff"))
    st = await state(sim)
    # A choice, not yet a placement: it can still change, and nobody else knows of it.
    assert st["phase"] == "dispatch" and st["emps"][pos_index(st, pos)] is None
    assert f"{pos} (" in text_of(chosen) and "Staff (not confirmed)" in text_of(chosen)
    assert not any("sends" in line for line in narration(sim, mark))
    chosen = panel_of(await pick(sim, players[winner], chosen, f":d:1:{pos}", "star"))
    assert "Star Employee (not confirmed)" in text_of(chosen)
    chosen = panel_of(await pick(sim, players[winner], chosen, f":d:1:{pos}", "staff"))
    assert (await state(sim))["emps"][pos_index(st, pos)] is None
    await click(sim, players[winner], chosen, f":k:1:{pos}5")  # Confirm (5: the Staff)
    st = await state(sim)
    assert st["emps"][pos_index(st, pos)] is not None
    # Private: the table says an employee went face down there, never which one.
    table = await sim.table_message()
    assert "chooses face-down employees" in text_of(table)
    assert f"{players[winner].name} sends 1 employee face down ({pos})." in text_of(table)
    assert "Staff" not in text_of(table) and not any("Staff" in line for line in narration(sim))
    other_pos = next(p for p in pos_names(st["rows"], st["cols"]) if st["claims"][pos_index(st, p)] == ls)
    target = pos_index(st, pos)
    rank = next((r for r in ("executive", "manager", "section_chief", "subsection_chief")
                 if target in reach(REACH[r], pos_index(st, other_pos), st["rows"], st["cols"])), "staff")
    pl = await sim.hand(loser)
    assert "Choose one face-down employee for each claimed card" in text_of(pl)
    mark = len(sim.channel.history())
    pl = panel_of(await pick(sim, loser, pl, f":d:1:{other_pos}", rank))
    assert (await state(sim))["phase"] == "dispatch"  # nothing happens before the Confirm
    await click(sim, loser, pl, f":k:1:{other_pos}{HIGH_TO_LOW.index(rank)}")

    # The contract, told step by step in the channel; the table picture shows it.
    st = await state(sim)
    assert st["phase"] == "await_start" and st["round"] == 2
    lines = "\n".join(narration(sim, mark))
    assert "Contract! 2 employees revealed" in lines
    assert f"Staff on {pos}" in lines
    assert rank != "staff"  # the seed gives the loser a rank that reaches the winner's card
    removal = f"💥 {loser.name}'s {RANK_EN[rank]} at {other_pos} removes {pos} ({players[winner].name})."
    assert removal in lines
    assert f"{loser.name} acquires" in lines
    assert "Round 2:" in lines
    # Step by step: the reveal, then each removal, then who acquires what, then the next round.
    order = [lines.index("Contract!"), lines.index(removal), lines.index("acquires"), lines.index("Round 2:")]
    assert order == sorted(order)
    table = await sim.table_message()
    assert "Last contract (round 1)" in text_of(table)
    await save(table, "contract_table")


# -- a restart in the middle of dice time ---------------------------------------------------

async def test_restart_during_dice_time_keeps_buttons_working(sim):
    ann, bob, cy = sim.player("ann"), sim.player("bob"), sim.player("cy")
    players = [ann, bob, cy]
    game = await start(sim, ann, [bob, cy], seed=11, settings={"pace": "live"})
    parent = game.state["parent"]
    table = await sim.table_message()
    await click(sim, players[parent], table, ':!{"type":"ring_bell"}')
    assert (await state(sim))["phase"] == "dice"
    old_panel = await sim.hand(ann)
    old_table = await sim.table_message()
    before = await state(sim)

    await sim.restart()

    # Dice time survived the restart: same dice, nothing rolled or rung by the restart.
    st = await state(sim)
    assert st["phase"] == "dice" and st["dice"] == before["dice"] and st["rolls"] == [0, 0, 0]
    # The panel drawn before the restart still rolls (its codes carry the round, not a version
    # nor anything kept in memory).
    rolled = await click(sim, ann, old_panel, ":r:1")
    st = await state(sim)
    assert st["rolls"][0] == 1 and len(st["dice"][0]) == 6
    fresh = panel_of(rolled)
    assert "Your dice:" in text_of(fresh)
    # ... and claims: roll until a card matches, then claim it from the fresh panel.
    for _ in range(30):
        st = await state(sim)
        options = claimable_pos(st, 0)
        if options:
            claimed = await click(sim, ann, fresh, f":c:1:{options[0]}")
            assert f"Your claims: {options[0]}" in reply_text(claimed)
            break
        fresh = panel_of(await click(sim, ann, fresh, ":r:1"))
    else:
        raise AssertionError("no claim in 30 rolls")
    # The table shows the claim as it happened (seat line and recent lines).
    table = await sim.table_message()
    assert f"claims: {options[0]}" in text_of(table) and f"ann claims {options[0]}." in text_of(table)
    # The old panel's Refresh also works, and shows the claim made since.
    refreshed = await click(sim, ann, old_panel, ":f")
    assert f"Your claims: {options[0]}" in reply_text(refreshed)
    # bob rolls from the table message drawn before the restart (the table answers with his
    # own panel), then rings with its Bell: one click.
    rolled = await click(sim, bob, old_table, ":r:1")
    assert rolled.ephemeral and "Your dice:" in reply_text(rolled)
    assert (await state(sim))["rolls"][1] == 1
    await click(sim, bob, old_table, ":b:1")
    st = await state(sim)
    assert st["phase"] == "dispatch" and st["parent"] == 1
    assert (await sim.game()).status == "active"
    assert "Employee dispatch" in text_of(await sim.table_message())


# -- a whole game: one player by clicks, two AI seats ----------------------------------------

async def last_events(sim, count: int = 1) -> list[dict[str, Any]]:
    game = await sim.game()
    out: list[dict[str, Any]] = []
    for entry in await sim.store.actions(game.id, newest_first=True, limit=count):
        out += entry["events"]
    return out


def _select_options(message, custom_id: str) -> list[str]:
    for child in components_of(message):
        if getattr(child, "custom_id", None) == custom_id:
            return [o.value for o in child.options]
    raise AssertionError(f"no select {custom_id}")


@pytest.mark.both_backends  # a whole game on SQLite and on PostgreSQL
async def test_whole_game_with_two_ai_seats_hand_refill_and_results(sim):
    """ann plays with two AI seats at a live table. Her bells and every one of her dispatches go
    through her panel and the table; her dice time and the AI seats are driven by the
    seat-filler's moves (through the house, for speed). Her hand runs out during dispatch and
    her discard pile comes back at once; the game ends with the results message."""
    ann = sim.player("ann")
    # The AI seats "think" for an hour, so their timers never fire: the test moves them.
    game = await start(sim, ann, ai=2, seed=5, settings={"ai_delay": 3600, "pace": "live"})
    gid = game.id
    refilled = 0
    dispatches = 0
    for _ in range(600):
        game = await sim.game()
        if game.status != "active":
            break
        st = game.state
        phase = st["phase"]
        if phase == "await_start":
            if st["parent"] == 0:
                table = await sim.table_message()
                await click(sim, ann, table, ':!{"type":"ring_bell"}')
            else:
                await sim.house.ai_move(gid, st["parent"])
                await sim.settle()
        elif phase == "dice":
            for seat in range(3):  # everyone rolls, claims and eventually rings
                if (await state(sim))["phase"] != "dice":
                    break
                await sim.house.ai_move(gid, seat)
            await sim.settle()
        elif phase == "dispatch":
            for seat in (1, 2):
                while GAME.legal((await state(sim)), seat):  # the seat-filler chooses, then confirms
                    await sim.house.ai_move(gid, seat)
            await sim.settle()
            st = await state(sim)
            if st["phase"] != "dispatch" or not GAME.legal(st, 0):
                continue
            # ann sends her employees from her panel: what the seat-filler would choose.
            rnd = st["round"]
            assert st["hands"][0], "a hand is never empty at the start of dispatch"
            panel = await sim.hand(ann)
            while True:
                game = await sim.game()
                choice = sim.house.ai_choice(game, 0)
                if choice["type"] == "confirm":
                    break
                cid = next(c for c in custom_ids(panel) if c.endswith(f":d:{rnd}:{choice['pos']}"))
                assert choice["rank"] in _select_options(panel, cid)
                panel = panel_of(await pick(sim, ann, panel, f":d:{rnd}:{choice['pos']}", choice["rank"]))
                dispatches += 1
            mine = GAME.view((await sim.game()).state, 0)["private"]
            if mine["comes_back"]:
                # Her choices empty her hand: the panel says the pile comes back on Confirm.
                assert f"your {mine['comes_back']} discarded employee" in text_of(panel)
            mark = len(sim.channel.history())
            confirm = next(c for c in custom_ids(panel) if f":k:{rnd}:" in c)
            result = await ann.click(panel, custom_id=confirm)
            await sim.settle()
            if any(e["type"] == "hand_refilled" and e["seat"] == 0 for e in await last_events(sim, 2)):
                # The moment her hand ran out, her whole discard pile came back: the employees
                # she just sent stay on the table, and she is never left with an empty hand.
                st = await state(sim)
                assert mine["comes_back"] and st["hands"][0] and len(st["hands"][0]) == len(mine["hand"])
                assert any("ann takes" in line and "back from the discard pile" in line for line in narration(sim, mark))
                if not refilled and st["phase"] == "dispatch":
                    assert "Discards\nnone" in reply_text(result).replace("**", "")
                    await save(panel_of(result), "dispatch_refilled_panel")
                refilled += 1
    game = await sim.game()
    assert game.status == "finished", f"still {game.state['phase']} in round {game.state['round']}"
    assert dispatches >= 9 and refilled >= 1, (dispatches, refilled)
    # The results: a message with the ranking and the final picture.
    results = next(m for m in reversed(sim.channel.history()) if "final results" in text_of(m).lower())
    text = text_of(results)
    assert "🥇" in text and "ann" in text and "Cards:" in text
    assert results.attachments and picture_urls(results)[0].endswith("/results-1.png")
    await save(results, "results")
    assert any("🏁 Game over" in line for line in narration(sim))
    places = game.result["places"]
    scores = [s["cards"] for s in game.result["scores"]]
    assert places == [1 + sum(1 for o in scores if o > sc) for sc in scores]
    assert scores == [len(p) for p in game.state["scores"]]
    table = await sim.table_message()
    assert "Game over" in text_of(table) and "My hand" not in labels(table)
    await save(table, "final_table")

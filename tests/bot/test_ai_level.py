"""The seat-filler's strength (issue 26, Levels), through the bot: the host chooses it in the
lobby or the running game's settings, it is stored and shown, and every move the seat-filler
makes (for an AI seat, for a person out of time) is the engine's move at that level.

The moves are checked against the engine itself: before each of the seat-filler's moves the
test asks the rules for their choice at both levels on the same view, legal moves and random
state the house uses (seeded from the game, seat and version: house.ai_choice), and the move
the bot made must be the friendly one. Filthy Rich is played because its two levels disagree
often from the first rounds, so the check tells them apart."""

from __future__ import annotations

import random
from collections.abc import Callable

import discord

import engine
from engine.core import AI_LEVELS
from play.duties import answering
from play.timing import duty_of
from tests.support.sim import TIGHT, button, custom_ids, panel_of, reply_text, text_of

TITLE = "filthyrich"


def _choices(game, seat: int, window: str | None) -> dict[str, dict]:
    """The rules' move for `seat` at each level, as the house would ask for it now."""
    rules = engine.get(TITLE)
    legal = answering(game, seat, window) if window is not None else rules.legal(game.state, seat)
    view = rules.view(game.state, seat)
    return {level: rules.ai_action(view, legal, random.Random(f"{game.seed}/ai/{seat}/{game.version}"), level=level)
            for level in AI_LEVELS}


async def _filler_moves(sim, steps: int, enough: Callable[[int, int, int], bool]) -> tuple[int, int, int]:
    """Let the game's timers fire one at a time; for each move the seat-filler made first after
    a timer, check it is the friendly level's. (Moves checked, those where the levels disagree,
    those made for a person out of time), once `enough` of them or after `steps` timers: each
    step takes seconds of real time."""
    checked = differed = stand_in = 0
    for _ in range(steps):
        game = await sim.game()
        if game.status != "active" or enough(checked, differed, stand_in):
            break
        timers = sorted(await sim.store.timers(game.id), key=lambda t: t.due_at)
        if not timers:
            break
        due = timers[0]
        seat, window = (int(due.ref), None) if due.kind == "ai" else (duty_of(due.ref) or (None, None))[::-1]
        expected = _choices(game, seat, window) if due.kind in ("ai", "duty") and seat is not None else None
        last = await sim.store.actions(game.id, newest_first=True, limit=1)
        await sim.next_timer(game.id)
        new = await sim.store.actions(game.id, after=last[0]["seq"] if last else 0)
        if expected is None or not new or new[0]["seat"] != seat or new[0]["user_id"] is not None:
            continue  # a reminder, a wait, or another seat's move first
        assert new[0]["action"] == expected["friendly"], (new[0], expected)
        checked += 1
        differed += expected["friendly"] != expected["strong"]
        stand_in += window is not None
    return checked, differed, stand_in


async def test_the_host_chooses_a_friendly_seat_filler_in_the_lobby_and_it_plays_friendly(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    game = await sim.open_lobby(ann, TITLE, ai=2)
    lobby = sim.lobby_message()
    assert "Seat-filling AI: Strong" in text_of(lobby)  # the default
    select = button(lobby, ":Llevel")
    # Only the host chooses; a wrong value changes nothing.
    refused = await bob.select(lobby, ["friendly"], custom_id=select)
    assert "Only the host" in reply_text(refused)
    await ann.select(lobby, ["friendly"], custom_id=select)
    game = await sim.game()
    assert game.settings["ai_level"] == "friendly"
    assert "Seat-filling AI: Friendly" in text_of(sim.lobby_message())
    # Live deadlines and no time bank, so a person's time runs out within minutes.
    await sim.store.update_game(game.id, 0, settings={**game.settings, **TIGHT, "pace": "live"})
    await sim.lobby(ann, "start")
    await sim.settle()
    assert "Seat-filling AI: Friendly" in text_of(await sim.settings(ann))
    # AI seats' moves and ann's at her deadlines, some where the strong level plays otherwise.
    enough = lambda checked, differed, stand_in: checked >= 6 and differed >= 2 and stand_in >= 1  # noqa: E731
    found = await _filler_moves(sim, 40, enough)
    assert enough(*found), found


async def test_the_strength_changes_in_the_running_games_settings(sim):
    ann = sim.player("ann")
    await sim.start(ann, TITLE, ai=1, clock={**TIGHT, "pace": "live"})
    settings = await sim.settings(ann)
    assert "Seat-filling AI: Strong" in text_of(settings)
    # Chosen under the "Change a deadline…" select, like the time settings: five rows at most.
    chosen = panel_of(await ann.select(settings, ["~ai_level"], custom_id=button(settings, ":Hkind")))
    assert len(custom_ids(chosen)) <= 5
    level = button(chosen, ":Hset:ai_level")
    await ann.select(chosen, ["friendly"], custom_id=level)
    game = await sim.game()
    assert game.settings["ai_level"] == "friendly"
    assert "Seat-filling AI: Friendly" in text_of(await sim.settings(ann))
    checked, _, _ = await _filler_moves(sim, 12, lambda checked, _, __: checked >= 2)
    # The game's seed is drawn afresh each run, and the seat-filler sometimes wins this
    # two-player Filthy Rich in round 2, before a second move of its could be checked (1 run
    # in 5 or so failed here with "1 == 2": the game had finished, seat 1 holding 3 luxuries).
    finished = (await sim.game()).status != "active"
    assert checked == 2 or (finished and checked == 1), (checked, finished)


async def test_a_server_default_strength_reaches_new_lobbies(sim):
    role = sim.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = sim.player("owner", roles=[role])
    done = await admin.slash(sim.channel, "game-admin defaults", ai_level="friendly")
    assert "seat-filling AI: Friendly" in reply_text(done)
    game = await sim.open_lobby(sim.player("ann"), TITLE, ai=1)
    assert game.settings["ai_level"] == "friendly"
    assert "Seat-filling AI: Friendly" in text_of(sim.lobby_message())

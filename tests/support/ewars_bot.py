"""E-Wars through the bot (tests/bot/test_ewars*.py): a game started in SimCord, clicks and selects
on its messages (several at the same moment for the claim race), the narration, and where the
free cards a seat's dice can claim lie."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from simcord import actors as sim_actors
from simcord.results import InteractionResult

from engine.ewars.grid import names as pos_names
from engine.ewars.grid import parse
from engine.ewars.rules import claimable
from tests.support.sim import TIGHT, button, custom_ids, save_picture

RANK_EN = {"executive": "Executive", "manager": "Department Manager", "section_chief": "Section Chief",
           "subsection_chief": "Subsection Chief", "staff": "Staff", "star": "Star Employee"}
ART = Path(__file__).resolve().parents[2] / "artifacts" / "ewars" / "bot"


async def start(sim, host, others=(), ai: int = 0, seed: int = 7, settings: dict[str, Any] | None = None):
    """Open a lobby, seat everyone, fix the seed (a reproducible game), start."""
    await sim.new_game(host, "ewars")
    for member in others:
        await sim.lobby(member, "join")
    for _ in range(ai):
        await sim.lobby(host, "addai")
    game = await sim.game()
    await sim.store.update_game(game.id, 0, seed=seed, settings={**game.settings, **TIGHT, **(settings or {})})
    await sim.lobby(host, "start")
    await sim.settle()
    return await sim.game()


async def state(sim) -> dict[str, Any]:
    return (await sim.game()).state


async def click(sim, member, message, suffix: str) -> InteractionResult:
    result = await member.click(message, custom_id=button(message, code_suffix=suffix))
    await sim.settle()
    return result


async def pick(sim, member, message, code_suffix: str, value: str) -> InteractionResult:
    cid = next(c for c in custom_ids(message) if c.endswith(code_suffix))
    result = await member.select(message, [value], custom_id=cid)
    await sim.settle()
    return result


async def click_together(sim, clicks: list[tuple[Any, Any, str]]) -> list[InteractionResult]:
    """Several players click at the same moment: (member, message, custom_id suffix) each.

    `member.click` refuses to overlap another SimCord operation, so the clicks go through the
    function it wraps (`simcord.actors._component_click`, the same payloads), all fired at once
    with asyncio.gather inside one operation: every INTERACTION_CREATE is delivered before the
    bot has handled any, so the handlers truly race for the game."""
    env = sim.env
    env._begin_operation("click_together")
    try:
        results = await asyncio.gather(*[
            sim_actors._component_click(member, message, label=None, custom_id=button(message, code_suffix=suffix))
            for member, message, suffix in clicks])
    finally:
        env._end_operation()
    await sim.settle()
    return list(results)


def narration(sim, since: int = 0) -> list[str]:
    """Channel messages other than the table and the lobby (narration and pings), from the
    `since`-th on, and the one before when it is a turn message extended since."""
    history = sim.channel.history()
    if 0 < since <= len(history) and history[since - 1].edited_at is not None and history[since - 1].content:
        since -= 1
    return [m.content for m in history[since:] if m.content]


async def save(message, name: str) -> bytes:
    return await save_picture(message, f"{name}.png", folder=ART)


def pos_index(st: dict[str, Any], pos: str) -> int:
    i = parse(pos, st["rows"], st["cols"])
    assert i is not None
    return i


def claimable_pos(st: dict[str, Any], seat: int) -> list[str]:
    nm = pos_names(st["rows"], st["cols"])
    return [nm[i] for i in claimable(st, seat)]


async def moves(sim, since: int = 0) -> list[tuple[int | None, dict[str, Any]]]:
    """(seat, action) of every move applied to the game, from the `since`-th on."""
    game = await sim.game()
    return [(a["seat"], a["action"]) for a in (await sim.store.actions(game.id))[since:]]

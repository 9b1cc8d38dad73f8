"""Whole games through the bot, to their end: the people make the seat-filler's choice for their
own seat through the house, with their user id (what the click router does with a click), and
the AI seats and the deadlines run on SimCord's virtual time."""

from __future__ import annotations

import random
from typing import Any

import engine
from store import GameRow


async def play_out(sim: Any, members: dict[int, Any], seed: int = 0, limit: int = 5000) -> GameRow:
    """Play the channel's game to its end; the finished game."""
    rng = random.Random(seed)
    for _ in range(limit):
        game = await sim.game()
        if game.status != "active":
            return game
        rules = engine.get(game.title)
        moved = False
        for seat, member in members.items():
            legal = rules.legal(game.state, seat)
            action = rules.ai_action(rules.view(game.state, seat), legal, rng) if legal else None
            if action is None:
                continue
            result = await sim.house.act(game.id, seat, action, user_id=member.id, version=game.version)
            moved = result.applied
            break
        if not moved and not await sim.next_timer(game.id):
            raise AssertionError(f"game {game.id} is stuck: nobody moves and no timer is due")
        await sim.settle()
    raise AssertionError(f"the game did not end in {limit} steps")


def people(sim: Any, game: GameRow) -> dict[int, Any]:
    """The seats people hold, with the member who holds each."""
    by_id = {m.id: m for m in sim.players.values()}
    return {s.seat: by_id[s.user_id] for s in game.seats if s.human and s.user_id in by_id}

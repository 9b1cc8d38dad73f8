"""A learner playing a guided game (`/game learn`) to its end through their panel: at each of
their moments they open My hand, find the seat-filler's choice for their seat on it (the title's
own click logic, tools/habits/oracle.py) and make it by real clicks, selects and forms; between
their moves the seat-fillers play on virtual time."""

from __future__ import annotations

import random
from typing import Any

import engine
from tools.habits.oracle import Oracle, Step, comps_of_message, compact, leaves, search

from .sim import panel_of


def _locate(message: Any, step: Step) -> str | None:
    for component in leaves(message):
        comps = comps_of_message(_One(component))
        if not comps:
            continue
        comp = comps[0]
        same = comp.code == step.comp.code or (comp.code.startswith("act") and step.comp.code.startswith("act"))
        if comp.kind == step.comp.kind and same and (step.values is None or set(step.values) <= set(comp.values)):
            return component.custom_id
    return None


class _One:
    def __init__(self, component: Any) -> None:
        self.components = [component]


async def _perform(sim: Any, member: Any, message: Any, steps: list[Step]) -> None:
    for i, step in enumerate(steps):
        cid = _locate(message, step)
        assert cid is not None, f"step {step} is not on the panel"
        if step.values is None:
            result = await member.click(message, custom_id=cid)
        else:
            result = await member.select(message, list(step.values), custom_id=cid)
        if step.fields is not None:
            assert result.modal is not None, f"{step} opened no form"
            result = await member.submit_modal(result, dict(step.fields))
        await sim.settle()
        if i < len(steps) - 1:
            message = panel_of(result)


async def _fillers_move(sim: Any, game_id: int) -> None:
    """One seat-filler move, if one is due soon (the learner does not play alone in dice time)."""
    timers = [t for t in await sim.store.timers(game_id) if t.kind == "ai"]
    if timers:
        await sim.advance(max(0.0, min(t.due_at for t in timers) - sim.env.now().timestamp()) + 0.01)


async def play_learner(sim: Any, member: Any, seat: int = 0, seed: int = 0, limit: int = 3000,
                       on_panel: Any = None) -> Any:
    """Play the channel's game to its end; the finished game. `on_panel(message)` sees every
    panel the learner moved from."""
    rng = random.Random(seed)
    for _ in range(limit):
        game = await sim.game()
        if game.status != "active":
            return game
        rules = engine.get(game.title)
        legal = rules.legal(game.state, seat)
        target = rules.ai_action(rules.view(game.state, seat), legal, rng) if legal else None
        if target is None:
            if not await sim.next_timer(game.id):
                raise AssertionError(f"game {game.id} is stuck: nobody moves and no timer is due")
            continue
        panel = await sim.hand(member)
        if on_panel is not None:
            await on_panel(panel)
        found: dict[str, tuple[dict[str, Any], list[Step]]] = {}
        steps = search(Oracle(game, seat), comps_of_message(panel), target, found)
        if steps is None:  # the seat-filler's choice is not on the panel: another move that is
            keys = {compact(a) for a in legal}
            steps = next((s for key, (_, s) in found.items() if key in keys), None)
        assert steps is not None, f"no legal move of {len(legal)} found on the learner's panel"
        await _perform(sim, member, panel, steps)
        after = await sim.game()
        assert after.version != game.version, "the learner's clicks did not move the game"
        await _fillers_move(sim, game.id)
    raise AssertionError(f"the game did not end in {limit} steps")

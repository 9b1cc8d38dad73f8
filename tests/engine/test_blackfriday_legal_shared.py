"""Black Friday's legal list hands out shared action dicts (engine/blackfriday/legal.py: copying
up to 1,500 of them on every ask cost a seventh of the process's CPU). Nothing may edit one: whole
random games at every player count, each step asked of the engine, the seat-filler at both
strengths, the seat's panel and the move applied, and the list the step began with must be
exactly what it was."""

from __future__ import annotations

import json
import random

import pytest

from cogs.titles.blackfriday.ui import UI
from cogs.titles.contract import PanelContext
from engine.blackfriday import GAME
from engine.core import SYSTEM
from locales import Translator

ui = UI()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_step_of_a_game_edits_the_shared_legal_actions(players):
    rng = random.Random(players)
    state = GAME.setup(players, 100 + players)
    steps = 0
    while GAME.outcome(state) is None and steps < 3000:
        movers = [s for s in range(players) if GAME.legal(state, s)]
        if not movers:
            GAME.apply(state, SYSTEM, {"type": "timeout", "id": GAME.windows(state)[0].id})
            continue
        seat = movers[0]
        legal = GAME.legal(state, seat)
        frozen = json.dumps(legal, sort_keys=True)
        view = GAME.view(state, seat)
        ui.panel(PanelContext(game_id=1, version=steps, seat=seat, view=view, legal=GAME.legal(state, seat),
                              t=Translator("en"), names=["Ann", "Bob", "Cy", "Dee", "Eve"][:players],
                              title="blackfriday"))
        choices = [GAME.ai_action(view, GAME.legal(state, seat), rng, level=level) for level in ("strong", "friendly")]
        action = rng.choice(choices + [rng.choice(legal)])
        GAME.apply(state, seat, action)
        assert json.dumps(legal, sort_keys=True) == frozen, f"step {steps} edited a legal action"
        assert json.dumps(action, sort_keys=True) in frozen
        steps += 1
    assert GAME.outcome(state) is not None, f"the game did not end in {steps} steps"

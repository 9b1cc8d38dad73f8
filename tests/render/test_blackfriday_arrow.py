"""Black Friday's price arrow agrees with the narration (issue 30, item 7): beside each price the
table shows the change at the last adjustment, from the price the adjustment found to the one it
left, as the adjustment's lines tell it ("$180→$121" is ▼59), never the change since the
previous adjustment with the trades between them folded in."""

from __future__ import annotations

import random

from engine.blackfriday import GAME
from engine.blackfriday.data import COLOURS
from render.blackfriday_parts import changes


def _narrated(events: list[dict]) -> dict[str, int]:
    """Each colour's change as the adjustment's price lines tell it: its first price before,
    its last price after (the Wall Street Journal moves, then rises of missing colours)."""
    start = next(i for i, e in enumerate(events) if e["type"] == "adjust")
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for e in events[start:]:
        if e["type"] in ("wsj", "price"):
            first.setdefault(e["colour"], e["old"])
            last[e["colour"]] = e["new"]
    return {c: last[c] - first[c] if c in first else 0 for c in COLOURS}


def test_the_arrow_is_the_last_adjustments_own_change():
    rng = random.Random(5)
    compared = differed = 0
    for seed in range(1, 9):
        st = GAME.setup(3, seed)
        for _ in range(400):
            if GAME.outcome(st) is not None:
                break
            seat = st["active"]
            events = GAME.apply(st, seat, GAME.ai_action(GAME.view(st, seat), GAME.legal(st, seat), rng))
            if not any(e["type"] == "adjust" for e in events) or GAME.outcome(st) is not None:
                continue
            view = GAME.view(st, None)
            assert changes(view) == _narrated(events), (seed, events)
            compared += 1
            hist = view["history"]
            between = {c: hist[-1]["prices"][i] - hist[-2]["prices"][i] for i, c in enumerate(COLOURS)}
            differed += between != changes(view)
    assert compared >= 10
    assert differed, "trades moved prices between adjustments in none of these games"

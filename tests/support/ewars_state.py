"""E-Wars engine-test helpers (tests/engine/test_ewars_*.py): a two-seat game in dice time, and
the table laid with exactly the cards a test needs."""

from __future__ import annotations

from engine.ewars import GAME


def dice_state() -> dict:
    """Two seats in dice time (seed 61), seat 0 the parent who rang the bell."""
    st = GAME.setup(2, 61)
    st["parent"] = 0
    GAME.apply(st, 0, {"type": "ring_bell"})
    return st


def only_cards(st: dict, wanted: dict[int, str]) -> None:
    """Lay exactly these cards (cell index -> face pair such as "11"), every other cell a card
    with both faces 4 or more (one that dice of 1s, 2s and 3s cannot claim)."""
    pool = list(st["cells"]) + list(st["deck"])
    for i, prefix in wanted.items():
        card = next(c for c in pool if c.startswith(prefix))
        pool.remove(card)
        st["cells"][i] = card
    rest = [c for c in pool if min(int(c[0]), int(c[1])) >= 4]
    for i in range(len(st["cells"])):
        if i not in wanted:
            st["cells"][i] = rest.pop()

"""The seat-filler's claim order at the dice: which card to claim first, given what its other
dice can still claim afterwards and which of those cards a rival's dice can take first.

Why: in a live dice time each seat gets only a few moves before someone rings, and the dice
faces are public. With dice for two cards, one of which a rival's dice also match, the card to
claim first is the one the rival may take, not the one worth a little more: the other waits
for us. Measured on 60 games of one seat-filler among three greedy seats, rival claims took a
claim its dice held away from it 4.3 times a game (issue 26).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from .ai_dispatch import ranks_left
from .data import REACH
from .grid import reach

#: How likely we get another move before the bell: a later claim counts this much of its worth
#: (and this much again for the one after it).
AGAIN = 0.5


def _fits(dice: list[int], faces: tuple[int, int]) -> list[int] | None:
    """The dice left after claiming a card of these faces, or None when they do not fit."""
    left = list(dice)
    for f in faces:
        if f not in left:
            return None
        left.remove(f)
    return left


def free_cards(view: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """Cell -> faces of every card on the table without a claim."""
    return {i: (c["faces"][0], c["faces"][1]) for i, c in enumerate(view["grid"])
            if c is not None and c["claim"] is None}


def theft(view: dict[str, Any], free: dict[int, tuple[int, int]]) -> dict[int, float]:
    """Cell -> the chance a rival claims it before our next move: each rival whose dice fit it
    claims one of the cards they fit, say at random (1 / how many)."""
    keep = dict.fromkeys(free, 1.0)
    for s, seat in enumerate(view["seats"]):
        if s == view["me"] or len(seat["dice"]) < 2:
            continue
        fits = [i for i, f in free.items() if _fits(seat["dice"], f) is not None]
        for i in fits:
            keep[i] *= 1 - 1 / len(fits)
    return {i: 1 - k for i, k in keep.items()}


def later(dice: list[int], free: dict[int, tuple[int, int]], worth: Callable[[int], float],
          risk: dict[int, float], weight: float = AGAIN) -> float:
    """What the claims these dice can still make are worth, best order first: each later claim
    counts `weight` (then its square) of its worth, and only if no rival took it meanwhile."""
    best = 0.0
    for i, f in free.items():
        left = _fits(dice, f)
        if left is None:
            continue
        rest = {j: g for j, g in free.items() if j != i}
        v = weight * max(0.0, worth(i)) * (1 - risk.get(i, 0.0))
        if len(left) >= 2:
            v += later(left, rest, worth, risk, weight * AGAIN)
        best = max(best, v)
    return best


def plan(view: dict[str, Any], cells: list[int], worth: Callable[[int], float]) -> dict[int, float]:
    """Cell -> the worth of claiming it now: its own worth plus what our other dice can still
    claim afterwards (`later`). A card a rival's dice fit is thereby claimed first, as leaving
    it for later risks it, while a card only we can take keeps."""
    dice = list(view["seats"][view["me"]]["dice"])
    free = free_cards(view)
    risk = theft(view, free)
    out = {}
    for i in cells:
        left = _fits(dice, free[i]) if i in free else None
        if left is None:
            continue
        rest = {j: g for j, g in free.items() if j != i}
        out[i] = worth(i) + later(left, rest, worth, risk)
    return out


def threat(view: dict[str, Any]) -> dict[int, float]:
    """Cell -> how many rival employees are expected to reach it: for each rival claim, the
    share of the ranks that rival can still send (its nine less its public discards) whose
    ability covers the cell from there. A rival whose Managers are spent threatens no row.
    A claim still to come counts too: each rival whose dice (public) fit free cards claims
    one of them, say at random, so those cards count 1 / how many each (`_rival_cells`)."""
    rows, cols = view["rows"], view["cols"]
    out: dict[int, float] = {}
    for s, cells in _rival_cells(view).items():
        left = Counter(ranks_left(view, s))
        shares = [(r, k / sum(left.values())) for r, k in left.items() if REACH[r] != "none"]
        for j, p in cells:
            for rank, share in shares:
                for x in reach(REACH[rank], j, rows, cols):
                    out[x] = out.get(x, 0.0) + p * share
    return out


def _rival_cells(view: dict[str, Any]) -> dict[int, list[tuple[int, float]]]:
    """Rival seat -> (cell, chance it holds the rival's employee): its claims (1 each) and the
    free cards its dice fit now, 1 / how many. Why the second: the seat-filler often claims
    first in a dice time, before any rival; weighing only claims already made, it could not
    tell a card beside the one a rival's dice fit from a card no rival can reach, and lost
    4.6 employees a game to greedy seats (issue 26)."""
    me = view["me"]
    out: dict[int, list[tuple[int, float]]] = {}
    for j, c in enumerate(view["grid"]):
        if c is not None and c["claim"] is not None and c["claim"] != me:
            out.setdefault(c["claim"], []).append((j, 1.0))
    free = free_cards(view)
    for s, seat in enumerate(view["seats"]):
        if s == me or len(seat["dice"]) < 2:
            continue
        fits = [i for i, f in free.items() if _fits(seat["dice"], f) is not None]
        if fits:
            out.setdefault(s, []).extend((j, 1 / len(fits)) for j in fits)
    return out

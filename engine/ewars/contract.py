"""The contract (abilities after the reveal) and the acquisition, as pure functions over a
small picture of the table, so the rules, the tests and the AI share one implementation.

`emps` maps a cell index to (owner seat, rank). Nothing here knows about hands or the deck.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from .data import ACTING, IMMUNE, REACH
from .grid import between, reach


class Step(NamedTuple):
    """One ability that acted: who, where, what it covered and whom it removed."""

    seat: int
    index: int
    rank: str
    reach: tuple[int, ...]
    removed: tuple[int, ...]


def priority(parent: int, seats: int) -> list[int]:
    """The parent, then clockwise: the order for equal ranks and for contested cards."""
    return [(parent + k) % seats for k in range(seats)]


def resolve(emps: dict[int, tuple[int, str]], parent: int, seats: int, rows: int, cols: int
            ) -> tuple[list[Step], dict[int, tuple[int, str]]]:
    """Run every ability in rank order (equal ranks from the parent clockwise, a seat's own
    copies in reading order, which cannot matter as nobody hits their own). Returns the steps
    that acted and the survivors. A removed employee never acts (digest 6.4)."""
    alive = dict(emps)
    steps: list[Step] = []
    order = priority(parent, seats)
    for rank in ACTING:
        kind = REACH[rank]
        if kind == "none":
            continue  # the star acts first, with nothing to do
        for seat in order:
            for idx in sorted(i for i, (s, r) in emps.items() if s == seat and r == rank):
                if idx not in alive:
                    continue
                cover = reach(kind, idx, rows, cols)
                hit = tuple(j for j in cover if j in alive and alive[j][0] != seat and alive[j][1] not in IMMUNE)
                for j in hit:
                    del alive[j]
                steps.append(Step(seat, idx, rank, cover, hit))
    return steps, alive


def eligible(alive: dict[int, tuple[int, str]], cols: int) -> dict[int, set[int]]:
    """Cell -> the seats eligible for it: their survivor stands on it, or it lies strictly
    between two of their survivors on a row, column or diagonal with no rival survivor
    between (own employees and empty cards between do not block; digest 7)."""
    out: dict[int, set[int]] = {}
    mine: dict[int, list[int]] = {}
    for i, (s, _r) in alive.items():
        out.setdefault(i, set()).add(s)
        mine.setdefault(s, []).append(i)
    for s, cells in mine.items():
        for a, b in combinations(sorted(cells), 2):
            btw = between(a, b, cols)
            if not btw:
                continue
            if any(j in alive and alive[j][0] != s for j in btw):
                continue
            for j in btw:
                out.setdefault(j, set()).add(s)
    return out


def acquire(alive: dict[int, tuple[int, str]], has_card: list[bool], parent: int, seats: int, cols: int
            ) -> dict[int, int]:
    """Cell -> winner: each card to its first eligible seat from the parent clockwise.
    Gaps (no card) are never won."""
    order = priority(parent, seats)
    won: dict[int, int] = {}
    for j, who in eligible(alive, cols).items():
        if not has_card[j]:
            continue
        for s in order:
            if s in who:
                won[j] = s
                break
    return won

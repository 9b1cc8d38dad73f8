"""The binder's geometry: four pages of 3x3 clear sleeves, stacked so that page v lies on top
of pages v-1..1 when it is open.

The binder in the state is `binder[page-1][slot-1]` = the sign whose ad card sits there, or
None. Slots are numbered row by row (1 2 3 / 4 5 6 / 7 8 9), as in the rulebook's example
where 1&4, 2&5 and 6&9 are vertical pairs. Everything here is pure and works on that list.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from .data import PAGES, SHAPES

Binder = list[list[Optional[str]]]


def slot_of(row: int, col: int) -> int:
    return 3 * row + col + 1


def rc(slot: int) -> tuple[int, int]:
    return divmod(slot - 1, 3)


def empty() -> Binder:
    return [[None] * 9 for _ in range(PAGES)]


@lru_cache(maxsize=None)
def placements(shape: str) -> tuple[tuple[int, ...], ...]:
    """Every way the shape fits on a 3x3 page, as sorted slot tuples, in anchor order.
    The shape is never rotated or mirrored (the ad keeps the picture on its card)."""
    out = []
    offs = SHAPES[shape]
    for r0 in range(3):
        for c0 in range(3):
            cells = [(r0 + dr, c0 + dc) for dr, dc in offs]
            if all(0 <= r < 3 and 0 <= c < 3 for r, c in cells):
                out.append(tuple(sorted(slot_of(r, c) for r, c in cells)))
    return tuple(out)


def top(binder: Binder, page: int, slot: int, ignore: str | None = None) -> tuple[int, str] | None:
    """The card showing in `slot` when `page` is open: the highest page p <= page with a card
    there, as (p, sign). `ignore` treats that sign's cards as lifted out (Moving Day)."""
    for p in range(page, 0, -1):
        sign = binder[p - 1][slot - 1]
        if sign is not None and sign != ignore:
            return p, sign
    return None


def view(binder: Binder, page: int) -> list[tuple[int, str] | None]:
    """The open page as players see it from above: top(page, s) for slots 1..9."""
    return [top(binder, page, s) for s in range(1, 10)]


def visible_cells(binder: Binder, page: int, sign: str) -> list[int]:
    """Slots where a card of `sign` shows on the open page (partial visibility counts)."""
    return [s for s in range(1, 10) if (t := top(binder, page, s)) is not None and t[1] == sign]


def cells_empty(binder: Binder, page: int, slots: tuple[int, ...] | list[int], ignore: str | None = None) -> bool:
    row = binder[page - 1]
    return all(row[s - 1] is None or row[s - 1] == ignore for s in slots)


def covered(binder: Binder, page: int, slot: int, ignore: str | None = None) -> tuple[int, str] | None:
    """The card a new ad card at (page, slot) directly covers: the nearest card below."""
    if page <= 1:
        return None
    return top(binder, page - 1, slot, ignore)


def neighbours(slot: int) -> list[int]:
    """Orthogonal neighbours inside the 3x3, in ascending slot order (up, left, right, down)."""
    r, c = rc(slot)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < 3 and 0 <= cc < 3:
            out.append(slot_of(rr, cc))
    return out


def row_of(slot: int) -> int:
    """1 = top row (slots 1-3), 2 = middle (4-6), 3 = bottom (7-9)."""
    return (slot - 1) // 3 + 1


def place(binder: Binder, page: int, slots, sign: str) -> None:
    for s in slots:
        binder[page - 1][s - 1] = sign


def lift(binder: Binder, sign: str) -> None:
    for row in binder:
        for i, v in enumerate(row):
            if v == sign:
                row[i] = None

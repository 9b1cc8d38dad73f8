"""Grid geometry: position names, reaches, the cells between two positions, compaction.

A grid is R rows x C columns stored as one list in reading order (index = row * C + col).
Positions are named by row letter and column number: "A1" is the top left, "B3" is row 2,
column 3. Everything here is pure and cached per grid shape, since the same few shapes
(4x4, 3x4, 3x3) come back all game long.
"""

from __future__ import annotations

from functools import lru_cache
from math import ceil, isqrt

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def pos_name(index: int, cols: int) -> str:
    return f"{LETTERS[index // cols]}{index % cols + 1}"


@lru_cache(maxsize=None)
def names(rows: int, cols: int) -> tuple[str, ...]:
    return tuple(pos_name(i, cols) for i in range(rows * cols))


@lru_cache(maxsize=None)
def index_of(rows: int, cols: int) -> dict[str, int]:
    return {n: i for i, n in enumerate(names(rows, cols))}


def parse(pos: object, rows: int, cols: int) -> int | None:
    """The index of a position name on this grid, or None (bad type, off the grid)."""
    if not isinstance(pos, str):
        return None
    return index_of(rows, cols).get(pos.strip().upper())


def _line(r: int, c: int, dr: int, dc: int, rows: int, cols: int) -> list[int]:
    out = []
    r, c = r + dr, c + dc
    while 0 <= r < rows and 0 <= c < cols:
        out.append(r * cols + c)
        r, c = r + dr, c + dc
    return out


@lru_cache(maxsize=None)
def reach(kind: str, index: int, rows: int, cols: int) -> tuple[int, ...]:
    """The positions an ability of `kind` covers from `index`, never `index` itself, sorted in
    reading order. Lines run to the grid edge (gaps do not stop them)."""
    r, c = divmod(index, cols)
    if kind == "none":
        cells: list[int] = []
    elif kind == "neighbours8":
        cells = [(r + dr) * cols + (c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                 if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols]
    elif kind == "row":
        cells = _line(r, c, 0, 1, rows, cols) + _line(r, c, 0, -1, rows, cols)
    elif kind == "column":
        cells = _line(r, c, 1, 0, rows, cols) + _line(r, c, -1, 0, rows, cols)
    elif kind == "diagonals":
        cells = [x for d in ((1, 1), (-1, -1), (1, -1), (-1, 1)) for x in _line(r, c, d[0], d[1], rows, cols)]
    else:
        raise ValueError(f"unknown reach kind {kind}")
    return tuple(sorted(cells))


@lru_cache(maxsize=None)
def between(a: int, b: int, cols: int) -> tuple[int, ...] | None:
    """The positions strictly between a and b when they share a row, column or diagonal
    (in order from a to b; empty when adjacent), else None."""
    ra, ca = divmod(a, cols)
    rb, cb = divmod(b, cols)
    dr, dc = rb - ra, cb - ca
    if a == b or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return None
    steps = max(abs(dr), abs(dc))
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return tuple((ra + sr * k) * cols + (ca + sc * k) for k in range(1, steps))


def layout(n: int) -> tuple[int, int]:
    """The compacted shape for n cards: C = ceil(sqrt n), R = ceil(n / C) (digest 8.2)."""
    if n <= 0:
        return 1, 1
    c = isqrt(n)
    if c * c < n:
        c += 1
    return ceil(n / c), c

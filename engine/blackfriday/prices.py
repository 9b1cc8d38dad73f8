"""Stock markers on the price table: single steps with the edge rules, WSJ moves, the level.

A marker is a cell [row, col], never a price: rows overlap in price, so the same $18 can sit on
rows 1, 2 and 4 and only the cell says where the next step goes.
"""

from __future__ import annotations

from .data import COLS, PRICE, ROWS, WSJ, WSJ_MAX, WSJ_MIN

TOP = ROWS - 1
RIGHT_EDGE = COLS - 1


def right(cell: list[int]) -> None:
    """col + 1; at the right edge go up instead; at the top-right corner stay."""
    r, c = cell
    if c < RIGHT_EDGE:
        cell[1] = c + 1
    elif r < TOP:
        cell[0] = r + 1


def left(cell: list[int]) -> None:
    """col - 1; at the left edge go down instead; at (0,0), the $4 floor, stay."""
    r, c = cell
    if c > 0:
        cell[1] = c - 1
    elif r > 0:
        cell[0] = r - 1


def up(cell: list[int]) -> None:
    """row + 1; on the top row go right instead; at the top-right corner stay."""
    r, c = cell
    if r < TOP:
        cell[0] = r + 1
    elif c < RIGHT_EDGE:
        cell[1] = c + 1


def down(cell: list[int]) -> None:
    """row - 1; on the bottom row go left instead; at (0,0) stay."""
    r, c = cell
    if r > 0:
        cell[0] = r - 1
    elif c > 0:
        cell[1] = c - 1


def wsj_steps(n: int) -> tuple[int, int]:
    """(vertical, horizontal) steps for n; beyond the table, the nearest entry."""
    return WSJ[max(WSJ_MIN, min(WSJ_MAX, n))]


def move(cell: list[int], vertical: int, horizontal: int) -> None:
    """A combined move: all vertical steps first, then the horizontal ones [house]."""
    step = up if vertical > 0 else down
    for _ in range(abs(vertical)):
        step(cell)
    step = right if horizontal > 0 else left
    for _ in range(abs(horizontal)):
        step(cell)


def price_of(cell) -> int:
    return PRICE[cell[0]][cell[1]]


def top_row(cells) -> int:
    """The row of the highest price (ties: the higher row). The level follows the price, not
    the highest row: a higher-row marker at a lower price does not count."""
    best = max(cells, key=lambda c: (PRICE[c[0]][c[1]], c[0]))
    return best[0]

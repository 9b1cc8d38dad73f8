"""Black Friday engine-test helpers (tests/engine/test_blackfriday_*.py): a game past its
set-up, acting as the active seat, and laying out the bag, markers and silver table to reach a
price adjustment on demand."""

from __future__ import annotations

from engine.blackfriday import GAME
from engine.blackfriday.prices import price_of

Y, B, R, G, O = range(5)


def new(n: int = 4, seed: int = 1) -> dict:
    st = GAME.setup(n, seed)
    while st["phase"] == "setup":
        GAME.apply(st, st["active"], GAME.legal(st, st["active"])[0])
    return st


def act(st: dict, action: dict, seat: int | None = None) -> list[dict]:
    return GAME.apply(st, st["active"] if seat is None else seat, action)


def types(events) -> list[str]:
    return [e["type"] for e in events]


def set_bag(st: dict, coloured=(0, 0, 0, 0, 0), black: int = 0) -> None:
    st["bag"] = list(coloured)
    st["bag_black"] = black


def cells(st: dict, *cell) -> None:
    st["cells"] = [list(c) for c in cell] if len(cell) == 5 else [list(cell[0]) for _ in range(5)]


def prices(st: dict) -> list[int]:
    return [price_of(c) for c in st["cells"]]


def pass_into_adjustment(st: dict, colour: str = "O") -> list[dict]:
    """Fill the silver table to one short of its trigger and pass the last bag onto it."""
    full = 6 if st["n"] == 5 else 5
    st["silver_table"] = [1, 1, 1, 1, full - 5] if colour == "O" else [0, 1, 1, 1, full - 3]
    c = "YBRGO".index(colour)
    st["silver_table"][c] = 0
    while sum(st["silver_table"]) < full - 1:
        st["silver_table"][(c + 1) % 5] += 1
    st["market"][c] = max(st["market"][c], 3)
    events = act(st, {"type": "pass", "colour": colour})
    assert "adjust" in types(events)
    return events

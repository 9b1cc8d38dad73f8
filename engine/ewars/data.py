"""E-Wars component data, loaded once from `data.json` and checked at import.

Every number and list the rules use comes from here (employee mix, deck, reach kinds, the
resolution order), so an owner of the printed game can correct a [house] value in the JSON
alone; the checks below fail at import if the data no longer holds together. Renderers may
import this module too (static data, no game state).
"""

from __future__ import annotations

import json
from itertools import combinations_with_replacement
from pathlib import Path

_PATH = Path(__file__).resolve().parent / "data.json"
RAW = json.loads(_PATH.read_text(encoding="utf-8"))

MARKS = ("confirmed", "house")

MIN_PLAYERS: int = RAW["players"]["min"]
MAX_PLAYERS: int = RAW["players"]["max"]
COLOURS: tuple[str, ...] = tuple(RAW["colours"]["value"])
DICE: int = RAW["dice_per_player"]["value"]
SIDES: int = RAW["die_sides"]["value"]
EMPLOYEES: int = RAW["employees_per_player"]["value"]
MIX: dict[str, int] = dict(RAW["employee_mix"]["value"])
REACH_KINDS: tuple[str, ...] = tuple(RAW["reach_kinds"]["value"])

#: The seat-filler's pace in a live dice time (see data.json's note and ai.py).
FILLER_GAP: float = float(RAW["seat_filler"]["move_gap"])
FILLER_ROLLS_MAX: int = RAW["seat_filler"]["rolls_max"]
FILLER_RING_ALONE: int = RAW["seat_filler"]["ring_alone_after"]

RANK_ROWS = RAW["ranks"]["value"]
#: Every rank key, in the data's order (star first, staff last).
RANKS: tuple[str, ...] = tuple(r["key"] for r in RANK_ROWS)
REACH: dict[str, str] = {r["key"]: r["reach"] for r in RANK_ROWS}
IMMUNE: frozenset[str] = frozenset(r["key"] for r in RANK_ROWS if r["immune"])
#: The contract resolution order: ranks that act, first to last.
ACTING: tuple[str, ...] = tuple(r["key"] for r in sorted((r for r in RANK_ROWS if r["order"] is not None),
                                                          key=lambda r: r["order"]))
#: Lowest first: what a dispatch timeout places, and the order hands are shown in (reversed).
LOW_TO_HIGH: tuple[str, ...] = tuple(RAW["default_placement_order"]["value"])
#: Strongest first, for showing hands and discards.
HIGH_TO_LOW: tuple[str, ...] = tuple(reversed(LOW_TO_HIGH))
RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(HIGH_TO_LOW)}

COPIES: int = RAW["deck"]["copies_per_pair"]
DECK_SIZE: int = RAW["deck"]["size"]
ROWS: int = RAW["grid"]["rows"]
COLS: int = RAW["grid"]["cols"]
END_AT: int = RAW["end_at_or_below"]["value"]
POINTS_PER_CARD: int = RAW["points_per_card"]["value"]

#: The 21 unordered face pairs, low face first.
PAIRS: tuple[tuple[int, int], ...] = tuple(combinations_with_replacement(range(1, SIDES + 1), 2))
_COPY_TAGS = "abcdefghij"


def card_ids() -> list[str]:
    """Every property card id, e.g. "35b" = faces 3 and 5, copy b. Ids never repeat."""
    return [f"{a}{b}{_COPY_TAGS[k]}" for a, b in PAIRS for k in range(COPIES)]


def faces(card: str) -> tuple[int, int]:
    """The two die faces a card shows (low first)."""
    return int(card[0]), int(card[1])


def employee_ids(seat: int) -> list[str]:
    """The nine employee ids of a seat, e.g. "red-staff-2". Ids exist for the leak tests and
    for conservation checks; actions name a rank, since copies of a rank are interchangeable."""
    colour = COLOURS[seat]
    out = []
    for rank in HIGH_TO_LOW:
        n = MIX[rank]
        out += [f"{colour}-{rank}-{k + 1}" for k in range(n)]
    return out


def rank_of(emp_id: str) -> str:
    return emp_id.split("-")[1]


def _check() -> None:
    for key, entry in RAW.items():
        if key.startswith("_"):
            continue
        if "mark" in entry:
            assert entry["mark"] in MARKS, f"{key}: bad mark {entry['mark']}"
        else:
            for row in entry["value"]:
                assert row["mark"] in MARKS, f"{key}/{row.get('key')}: bad mark"
    assert 2 <= MIN_PLAYERS <= MAX_PLAYERS <= len(COLOURS)
    assert len(set(COLOURS)) == len(COLOURS)
    assert DICE % 2 == 0 and DICE >= 2, "dice go down in pairs"
    assert sum(MIX.values()) == EMPLOYEES, "the employee mix must add up to the hand"
    assert set(MIX) == set(RANKS), "every rank has a count, and only ranks do"
    assert all(REACH[r] in REACH_KINDS for r in RANKS), "unknown reach kind"
    assert all(REACH[r] == "none" for r in IMMUNE), "an immune rank has no reach"
    orders = [r["order"] for r in RANK_ROWS if r["order"] is not None]
    assert len(orders) == len(set(orders)), "the resolution order has no ties between ranks"
    assert sorted(LOW_TO_HIGH) == sorted(RANKS), "the default placement order names every rank once"
    assert "-" not in "".join(RANKS) and "-" not in "".join(COLOURS), "ids split on '-'"
    assert len(PAIRS) * COPIES == DECK_SIZE, "deck size = pairs x copies"
    assert COPIES <= len(_COPY_TAGS)
    assert SIDES <= 9, "card ids hold one digit per face"
    assert 0 < END_AT < ROWS * COLS <= DECK_SIZE
    assert ROWS <= 26
    assert len(set(card_ids())) == DECK_SIZE


_check()

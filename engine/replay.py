"""A finished game replayed from its record: (title, seats, seed, options, moves) through the
rules, as the design promises ("a game is reproducible from (seed, options, action log)").

The record is the export format of `/game export` (docs/EXPORT.md), a JSON document:

    {"format": "boardroom-game", "version": 1, "title": "imtheboss", "seed": "<decimal>",
     "options": {...}, "seats": [{"seat": 0, "name": "Ann", "ai": false}, ...],
     "moves": [{"seq": 1, "seat": 0, "action": {...}}, ...],   # seat null: the system (a deadline)
     "result": {"places": [...], "scores": [...], "summary_key": "..."}}

`python -m engine replay FILE` replays one and says whether it reaches the same result. Pure,
like the rest of engine/: the caller reads the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

from . import get
from .core import Event, Outcome, RuleError, State

FORMAT = "boardroom-game"
VERSION = 1


class RecordError(ValueError):
    """The record is not one this engine can replay (what is wrong, in one line)."""


def _check(record: Any) -> None:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a Boardroom game record (format {FORMAT!r} expected)")
    if record.get("version") != VERSION:
        raise RecordError(f"record version {record.get('version')!r}; this engine reads version {VERSION}")
    for key, kind in (("title", str), ("seed", str), ("options", dict), ("seats", list), ("moves", list)):
        if not isinstance(record.get(key), kind):
            raise RecordError(f"the record's {key!r} is missing or not a {kind.__name__}")


def steps(title: str, seats: int, seed: int, options: dict[str, Any],
          moves: list[tuple[int | None, dict[str, Any]]]) -> Iterator[tuple[State, list[Event]]]:
    """The state after each move, with its events (the first: the state at the start, no
    events). The state is the live object: copy it to keep it."""
    game = get(title)
    state = game.setup(seats, seed, options)
    yield state, []
    for n, (seat, action) in enumerate(moves, 1):
        try:
            events = game.apply(state, seat, action)
        except RuleError as err:
            raise RecordError(f"move {n} ({action.get('type')!r} by seat {seat}) is refused by the rules: "
                              f"{err.key}") from None
        yield state, events


def moves_of(record: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
    out = []
    for move in record["moves"]:
        if not isinstance(move, dict) or not isinstance(move.get("action"), dict):
            raise RecordError("a move without an action")
        seat = move.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise RecordError("a move whose seat is not a number")
        out.append((seat, move["action"]))
    return out


def replay(record: dict[str, Any]) -> tuple[State, Outcome | None]:
    """The record replayed to its last move: the final state and the rules' outcome."""
    _check(record)
    try:
        seed = int(record["seed"])
    except ValueError:
        raise RecordError("the record's seed is not a whole number") from None
    final: State = {}
    for final, _ in steps(record["title"], len(record["seats"]), seed, record["options"], moves_of(record)):  # noqa: B007
        continue  # only the last state matters
    return final, get(record["title"]).outcome(final)


def result_of(outcome: Outcome | None) -> dict[str, Any] | None:
    """An outcome as the record (and the database) keeps it."""
    return None if outcome is None else asdict(outcome)


def same_result(record: dict[str, Any], outcome: Outcome | None) -> bool:
    """Whether the replay ended as the record says (places and scores)."""
    kept, got = record.get("result") or {}, result_of(outcome) or {}
    return all(kept.get(k) == got.get(k) for k in ("places", "scores", "summary_key") if k in kept) and \
        kept.get("places") is not None

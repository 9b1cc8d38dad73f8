"""A finished game as a file (`/game export`): the documented record that `python -m engine
replay FILE` replays (engine/replay.py, docs/EXPORT.md). Personal data is limited to display
names: no user ids, no server or channel, no times of day."""

from __future__ import annotations

from typing import Any

from engine.replay import FORMAT, VERSION
from store import GameRow, Store


async def log_of(store: Store, game: GameRow) -> list[dict[str, Any]] | None:
    """The game's log, or None when it was pruned to an archive (`python -m store prune`):
    a game that moved has a log unless it left the database."""
    entries = await store.actions(game.id)
    if not entries and game.version > 0:
        return None
    return entries


def record(game: GameRow, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The export record of a finished game and its log."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "title": game.title,
        "game": game.id,
        "lang": game.lang,
        # Decimal text: 128 bits, and JSON readers differ on big integers.
        "seed": str(game.seed),
        "options": game.options,
        "seats": [{"seat": s.seat, "name": s.name, "ai": bool(s.is_ai)} for s in sorted(game.seats, key=lambda s: s.seat)],
        "moves": [{"seq": e["seq"], "seat": e["seat"], "action": e["action"]} for e in entries],
        "result": {k: v for k, v in (game.result or {}).items() if k in ("places", "scores", "summary_key")},
    }

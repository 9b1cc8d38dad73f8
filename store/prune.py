"""Pruning finished games' logs (`python -m store prune --finished-before DAYS`).

The action log is most of a database's growth (docs/SCALING.md: about 63 million rows a day at
scale), and a finished game's log is read by nobody but `/game log` in its channel. Pruning
writes the logs of games finished (or cancelled) more than DAYS ago to a compressed archive,
makes that file durable, and only then deletes them from the database, a batch of games per
transaction. The games' rows and seats stay: `/game history`, `/game stats` and the results keep
working; each pruned game records when its log left (`log_archived_at`).

The archive is gzip-compressed JSON lines, one game a line: `{"game": {...}, "actions": [...],
"undone": [...]}` (the game's row without its snapshot, its seats, its log and the moves taken
back), so any tool can read it back; it is created 0600, like the database.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from .files import create_private, size_text
from .sql import SQLStore

#: Games per transaction: a large prune never holds the database for long.
BATCH = 200


@dataclass(frozen=True)
class Pruned:
    games: int
    actions: int
    archive: Path | None
    size: int
    seconds: float

    def line(self) -> str:
        if not self.games:
            return "nothing to prune: no finished game's log is that old"
        games = f"{self.games} finished game{'' if self.games == 1 else 's'}"
        return (f"pruned the logs of {games} ({self.actions} actions) into {self.archive} "
                f"({size_text(self.size)}) in {self.seconds:.2f} s")


async def candidates(store: SQLStore, before: float) -> list[int]:
    rows = await store.db.fetch(
        "SELECT id FROM games WHERE status IN ('finished', 'cancelled') AND finished_at < $1"
        " AND log_archived_at IS NULL ORDER BY id", before)
    return [r[0] for r in rows]


async def record(store: SQLStore, game_id: int) -> dict | None:
    """One archive line: the game (without its snapshot), its log and the moves taken back."""
    game = await store.get(game_id)
    if game is None:
        return None
    row = asdict(game)
    row.pop("state", None)  # the final snapshot stays in the database; the log is what leaves
    row["seed"] = str(game.seed)  # 128 bits: JSON readers differ on big integers
    return {"game": row, "actions": await store.actions(game_id), "undone": await store.undone(game_id)}


async def prune(store: SQLStore, before: float, folder: Path, *, now: float | None = None) -> Pruned:
    """Archive to `folder` and delete the logs of games finished before `before` (epoch seconds)."""
    started = time.perf_counter()
    ids = await candidates(store, before)
    if not ids:
        return Pruned(0, 0, None, 0, time.perf_counter() - started)
    archive = folder / f"boardroom-logs-{time.strftime('%Y%m%d-%H%M%S')}.jsonl.gz"
    partial = archive.with_name(f".{archive.name}.partial")
    out = await asyncio.to_thread(start_archive, partial)
    kept: list[tuple[int, int]] = []  # (game, actions) written to the archive
    try:
        for start in range(0, len(ids), BATCH):
            lines = []
            for game_id in ids[start:start + BATCH]:
                entry = await record(store, game_id)
                if entry is not None:
                    lines.append(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n")
                    kept.append((game_id, len(entry["actions"])))
            await asyncio.to_thread(out.writelines, lines)
        await asyncio.to_thread(finish_archive, out, partial, archive)
    finally:
        out.close()
        partial.unlink(missing_ok=True)
    when = time.time() if now is None else now
    for start in range(0, len(kept), BATCH):
        async with store.db.transaction() as tx:
            for game_id, _ in kept[start:start + BATCH]:
                await tx.execute("DELETE FROM actions WHERE game_id = $1", game_id)
                await tx.execute("DELETE FROM undone_actions WHERE game_id = $1", game_id)
                await tx.execute("UPDATE games SET log_archived_at = $1 WHERE id = $2", when, game_id)
    size = await asyncio.to_thread(lambda: archive.stat().st_size)
    return Pruned(len(kept), sum(n for _, n in kept), archive, size, time.perf_counter() - started)


def start_archive(partial: Path) -> IO[str]:
    partial.unlink(missing_ok=True)
    create_private(partial)
    return gzip.open(partial, "wt", encoding="utf-8")


def finish_archive(out: IO[str], partial: Path, archive: Path) -> None:
    """Close the archive and make it durable under its real name before anything is deleted."""
    out.close()
    fd = os.open(partial, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, archive)


def read_archive(path: Path) -> list[dict]:
    """Every line of an archive (tests, and anyone who wants an old log back)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]

"""The commit's statement alone: what SQLite spends on one move's INSERT into `commits` (the
trigger doing the rest), without the hand-off to aiosqlite's thread and back.

`python -m bench.commitsql` plays the click benchmark's games (bench/click.py) while recording
every statement the store sends, with a copy of the database taken before the first; then it
replays them, in order, on a plain `sqlite3` connection in this thread (the store's pragmas) and
times each commit's INSERT. The commits are grouped by what they do to the game's timer rows:
`--` writes none, `I-` writes some, `-D` deletes some, `ID` both. `--cold MB` copies that many
megabytes between two commits first, as the table pictures drawn between two clicks do to the
CPU's caches in place (docs/PERFORMANCE.md, sixth round: a statement of 0.02 ms here took 0.1 ms
there). Measure a change to the trigger with this before the whole click benchmark, whose
`House.act` moves by 10% between runs on a shared machine.

    python -m bench.commitsql --titles imtheboss,blackfriday --clicks 300 --rounds 3 --cold 64
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from bench import click
from bench.common import MAX_PLAYERS, median
from store.sqlite import conn as sqlite_conn

COMMIT = "INSERT INTO commits"
#: The replayed database, beside its recording.
REPLAYED = "replayed.db"


@contextmanager
def recording(into: Path, statements: list[tuple[str, tuple[Any, ...]]]) -> Iterator[None]:
    """Every statement the SQLite store sends, as SQLite receives it (placeholders numbered,
    values bound), appended to `statements`; the click benchmark's database copied to `into`
    once it is open, before its first game."""
    cls = sqlite_conn._Statements
    plain_fetch, plain_execute = cls.fetch, cls.execute
    plain_open, opener = click.Rig.open, vars(click.Rig)["open"]  # bound, and the classmethod itself

    def keep(sql: str, params: tuple[Any, ...]) -> None:
        statements.append((sqlite_conn.dialect(sql), sqlite_conn.bind(params)))

    async def fetch(self: Any, sql: str, *params: Any) -> Any:
        keep(sql, params)
        return await plain_fetch(self, sql, *params)

    async def execute(self: Any, sql: str, *params: Any) -> Any:
        keep(sql, params)
        return await plain_execute(self, sql, *params)

    async def open_rig(path: str | Path, **kwargs: Any) -> click.Rig:
        rig = await plain_open(path, **kwargs)
        copy_database(Path(path), into)
        statements.clear()
        return rig

    cls.fetch, cls.execute = fetch, execute  # type: ignore[method-assign]
    click.Rig.open = open_rig  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        cls.fetch, cls.execute = plain_fetch, plain_execute  # type: ignore[method-assign]
        click.Rig.open = opener  # type: ignore[method-assign]


def copy_database(source: Path, into: Path) -> None:
    """The file and its write-ahead log (the migrations may still be in it)."""
    for suffix in ("", "-wal"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{into}{suffix}")


def kind(params: tuple[Any, ...]) -> str:
    """What a commit does to the timer rows, from its parameters (store/sqlite/store.py)."""
    writes = params[9] not in (None, "[]")
    drops = params[11] not in (None, "[]")
    return ("I" if writes else "-") + ("D" if drops else "-")


def replay(recorded: Path, statements: list[tuple[str, tuple[Any, ...]]], cold_mb: int = 0) -> dict[str, list[float]]:
    """The statements again on a copy of `recorded`, in this thread: each commit's seconds, by kind."""
    work = recorded.with_name(REPLAYED)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{work}{suffix}").unlink(missing_ok=True)
        if suffix != "-shm" and Path(f"{recorded}{suffix}").exists():
            shutil.copy(f"{recorded}{suffix}", f"{work}{suffix}")
    spill = bytearray(cold_mb << 20)
    scratch = bytearray(len(spill))
    conn = sqlite3.connect(work, isolation_level=None)
    times: dict[str, list[float]] = {}
    try:
        for pragma in sqlite_conn.PRAGMAS:
            conn.execute(f"PRAGMA {pragma}").fetchall()
        for sql, params in statements:
            if not sql.startswith(COMMIT):
                try:
                    conn.execute(sql, params).fetchall()
                except sqlite3.Error:  # as in place: a refused statement (a stale claim) changes nothing
                    pass
                continue
            if spill:
                scratch[:] = spill
            t0 = time.perf_counter()
            conn.execute(sql, params).fetchall()
            times.setdefault(kind(params), []).append(time.perf_counter() - t0)
    finally:
        conn.close()
    return times


async def record(title: str, clicks: int, where: Path) -> list[tuple[str, tuple[Any, ...]]]:
    statements: list[tuple[str, tuple[Any, ...]]] = []
    with recording(where / f"{title}.db", statements):
        await click.click_title(title, clicks, workdir=where)
    return statements


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--titles", default=",".join(MAX_PLAYERS))
    parser.add_argument("--clicks", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3, help="replays of each recording")
    parser.add_argument("--cold", type=int, default=0, metavar="MB", help="megabytes copied before each commit")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        for title in args.titles.split(","):
            statements = asyncio.run(record(title, args.clicks, where))
            for n in range(args.rounds):
                times = replay(where / f"{title}.db", statements, args.cold)
                every = [x for xs in times.values() for x in xs]
                parts = "  ".join(f"{k} {len(v):>3} x {median(v) * 1000:.3f}" for k, v in sorted(times.items()))
                print(f"{title:<12} round {n + 1}: commit statement median {median(every) * 1000:.3f} ms"
                      f" ({len(every)} commits; by kind: {parts})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

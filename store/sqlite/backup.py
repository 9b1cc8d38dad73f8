"""Backups of an SQLite database through SQLite's online backup API, and restoring one.

Why not `cp`: in WAL mode the newest changes live in `<db>-wal` until a checkpoint copies them
into the main file, so a copy of the main file alone can miss minutes of games, or all of them
(issue 27 measured a copy with no tables at all). The backup API reads the database as one
consistent snapshot, the WAL included, while the bot goes on writing (a reader never blocks the
writer in WAL mode). A backup is one self-contained file (its journal mode set back to DELETE),
checked with `PRAGMA quick_check` before it is put in place, created 0600, written under a
temporary name and renamed, so a half-written backup never carries the real name.

These functions are synchronous (sqlite3): the command line runs them directly, the bot's
migration runs them in a thread.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import StartupError
from ..files import create_private, size_text, tighten
from ..schema import known_version
from . import lock


class BackupError(Exception):
    """A backup or restore that cannot be done: `str()` is one line for the operator."""


@dataclass(frozen=True)
class Copy:
    """What a backup or restore wrote."""
    path: Path
    games: int
    schema: int
    size: int
    seconds: float

    def line(self, verb: str) -> str:
        games = f"{self.games} game{'' if self.games == 1 else 's'}"
        return (f"{verb} {self.path}: {games}, schema version {self.schema}, {size_text(self.size)} "
                f"in {self.seconds:.2f} s")


def stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _read_only(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise BackupError(f"{path} does not exist (or is not a file).")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.Error as exc:
        raise BackupError(f"Cannot read {path} as an SQLite database (SQLite: {exc}).") from None


def _facts(conn: sqlite3.Connection, path: Path) -> tuple[int, int]:
    """(games, schema version) of a Boardroom database; BackupError if it is not one or is damaged."""
    try:
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise BackupError(f"{path} fails SQLite's check ({check}): it is damaged.")
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "games" not in tables:
            raise BackupError(f"{path} is an SQLite database but not Boardroom's (it has no games table).")
        (games,) = conn.execute("SELECT count(*) FROM games").fetchone()
        (schema,) = conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.Error as exc:
        raise BackupError(f"Cannot read {path} (SQLite: {exc}).") from None
    return games, schema


def backup(db: Path, dest: Path) -> Copy:
    """Copy the database `db` (which may be in use) to `dest` (a file, or a folder to put a dated
    file in). Nothing is left at `dest` unless the whole copy succeeded and checks out."""
    if dest.is_dir():
        dest = dest / f"{db.stem}-{stamp()}.db"
    if dest.resolve() == db.resolve():
        raise BackupError(f"The backup must go to another file than the database itself ({db}).")
    if not dest.parent.is_dir():
        raise BackupError(f"The folder of {dest} does not exist.")
    started = time.perf_counter()
    source = _read_only(db)
    partial = dest.with_name(f".{dest.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        create_private(partial)
        target = sqlite3.connect(partial)
        try:
            source.backup(target)  # every page in one step: one consistent snapshot
            target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            games, schema = _facts(target, dest)
        finally:
            target.close()
        _durable(partial)
        os.replace(partial, dest)
        _durable(dest.parent)
    except sqlite3.Error as exc:
        raise BackupError(f"The backup of {db} to {dest} failed (SQLite: {exc}); nothing was written.") from None
    except OSError as exc:
        raise BackupError(f"The backup of {db} to {dest} failed ({exc.strerror or exc}); nothing was written.") from None
    finally:
        source.close()
        partial.unlink(missing_ok=True)
    return Copy(dest, games, schema, dest.stat().st_size, time.perf_counter() - started)


def restore(src: Path, db: Path, migrations: Path) -> tuple[Copy, Path | None]:
    """Replace the database `db` with the backup `src`; the bot must be stopped (the writer's lock
    is taken here). The database as it was is kept first, beside it, as
    `<db>.before-restore-<time>` (returned). An older schema is fine: the bot migrates it at the
    next start; a newer one is refused."""
    source = _read_only(src)
    try:
        games, schema = _facts(source, src)
        known = known_version(migrations)
        if schema > known:
            raise BackupError(f"{src} has schema version {schema}, newer than this Boardroom knows ({known}): "
                              "restore it with the version that wrote it.")
        try:
            key = lock.acquire(db)
        except StartupError as exc:
            raise BackupError(f"{exc} (Restoring replaces the database: stop the bot first.)") from None
        try:
            kept = None
            if db.exists() and db.stat().st_size > 0:
                kept = backup(db, db.with_name(f"{db.name}.before-restore-{stamp()}")).path
            started = time.perf_counter()
            create_private(db)
            target = sqlite3.connect(db)
            try:
                source.backup(target)  # page by page through SQLite: the WAL, if any, stays consistent
                target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                target.close()
            tighten(db)
        finally:
            lock.release(key)
    except sqlite3.Error as exc:
        raise BackupError(f"Restoring {src} into {db} failed (SQLite: {exc}).") from None
    finally:
        source.close()
    return Copy(db, games, schema, db.stat().st_size, time.perf_counter() - started), kept


def _durable(path: Path) -> None:
    """fsync a file or a folder (the rename of a backup survives a power cut)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

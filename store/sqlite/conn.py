"""The SQLite connection, on aiosqlite (its public API only): one connection on aiosqlite's own
thread, the pragmas, the migrations, and the `Database` the shared SQL runs on.

Every statement is one hand-off to that thread, so the hot paths are single statements: reading a
game with its seats is one SELECT, and committing a move is one INSERT whose trigger does the rest
(migration 0006). Statements from different coroutines never interleave inside a transaction: one
asyncio lock guards the connection, held across a transaction's statements.

Errors that mean "the database refuses for now" (read-only, full disk, I/O error, busy, the file
deleted under the bot) become `StoreUnavailable`; a unique index's refusal becomes `Duplicate`,
the commit trigger's "stale" `Lost`; anything else (a bug) propagates as it is.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import aiosqlite

from ..database import Database, Outage, Row, Statements
from ..errors import Duplicate, Lost, MigrationFailed, StartupError, StoreUnavailable
from ..files import create_private, permission_hint, tighten, writable
from ..rows import dumps
from ..schema import pending_migrations
from .backup import BackupError, backup, stamp

log = logging.getLogger("store")

PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000")
#: What the shared SQL needs of SQLite: `IS NOT DISTINCT FROM` (3.39) and `->>` (3.38).
NEEDED_VERSION = (3, 39, 0)

#: SQLite's primary result codes that mean "not now": the database is sound, the write may work
#: later (https://sqlite.org/rescode.html).
PASSING = {
    5: "the database is busy",             # SQLITE_BUSY
    6: "a table is locked",                # SQLITE_LOCKED
    7: "out of memory",                    # SQLITE_NOMEM
    8: "the database file is read-only",   # SQLITE_READONLY
    10: "a disk I/O error",                # SQLITE_IOERR
    13: "the disk is full",                # SQLITE_FULL
    14: "the database file cannot be opened",  # SQLITE_CANTOPEN
}
CONSTRAINT_UNIQUE, CONSTRAINT_PRIMARYKEY, CONSTRAINT_TRIGGER = 2067, 1555, 1811
#: The message of the commit trigger's RAISE when the game moved on (migration 0006).
STALE = "boardroom:stale"
_NUMBERED = re.compile(r"\$(\d+)")
_INT64 = range(-(2 ** 63), 2 ** 63)


class FileGone(Exception):
    """The database file is not where it was opened (deleted or replaced)."""


@lru_cache(maxsize=1024)
def dialect(sql: str) -> str:
    """The shared SQL's `$1` placeholders as SQLite's numbered `?1` (bound by number)."""
    return _NUMBERED.sub(r"?\1", sql)


def bind(params: tuple[Any, ...]) -> tuple[Any, ...]:
    """Values as SQLite keeps them: JSON as text, integers beyond 64 bits (seeds) as decimal text."""
    return tuple(dumps(p) if isinstance(p, (dict, list)) else
                 str(p) if type(p) is int and p not in _INT64 else p for p in params)


def passing_reason(exc: BaseException) -> str | None:
    """Why SQLite refused, if it is a passing refusal (None for anything else)."""
    if isinstance(exc, FileGone):
        return str(exc)
    if isinstance(exc, ValueError) and "closed" in str(exc).lower():  # aiosqlite after close()
        return "the database is closed"
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None and (code & 0xFF) in PASSING:
            return f"{PASSING[code & 0xFF]}: {exc}"
    return None


def translated(exc: Exception, outage: Outage) -> Exception:
    """The store's own error for what SQLite raised (or the error itself: a bug)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, sqlite3.IntegrityError):
        if code == CONSTRAINT_TRIGGER and STALE in str(exc):
            return Lost()
        if code in (CONSTRAINT_UNIQUE, CONSTRAINT_PRIMARYKEY):
            return Duplicate(str(exc))
    why = passing_reason(exc)
    return exc if why is None else outage.refused(why)


class _Statements(Statements):
    """Statements on the connection, run by whoever holds its lock."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *params: Any) -> list[Row]:
        return list(await self.conn.execute_fetchall(dialect(sql), bind(params)))

    async def execute(self, sql: str, *params: Any) -> int:
        cursor = await self.conn.execute(dialect(sql), bind(params))
        return cursor.rowcount


class SQLiteDatabase(Database):
    def __init__(self, conn: aiosqlite.Connection, path: Path, schema: tuple[int, int] = (0, 0)) -> None:
        self.path = path
        #: The schema version found at start-up and the one after the migrations.
        self.schema = schema
        self.outage = Outage()
        self._conn: aiosqlite.Connection | None = conn
        self._on = _Statements(conn)
        self._lock = asyncio.Lock()
        st = os.stat(path)
        self._identity = (st.st_dev, st.st_ino)

    def _check_file(self) -> None:
        """Writes go only to the file at the path the bot was started with: once that file is
        deleted (or replaced), SQLite would go on writing into an inode nobody can find again."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise FileGone(f"the database file {self.path} was deleted while the bot ran; put it back "
                           "(or restart the bot to start a new one)") from None
        if (st.st_dev, st.st_ino) != self._identity:
            raise FileGone(f"the database file {self.path} was replaced while the bot ran; restart the bot "
                           "to use the new file") from None

    async def fetch(self, sql: str, *params: Any) -> list[Row]:
        try:
            async with self._lock:
                return await self._on.fetch(sql, *params)
        except (sqlite3.Error, ValueError) as exc:
            raise translated(exc, self.outage) from exc

    async def execute(self, sql: str, *params: Any) -> int:
        try:
            self._check_file()
            async with self._lock:
                changed = await self._on.execute(sql, *params)
        except (sqlite3.Error, ValueError, FileGone) as exc:
            raise translated(exc, self.outage) from exc
        self.outage.accepted()
        return changed

    async def returning(self, sql: str, *params: Any) -> list[Row]:
        try:
            self._check_file()
            async with self._lock:
                rows = await self._on.fetch(sql, *params)
        except (sqlite3.Error, ValueError, FileGone) as exc:
            raise translated(exc, self.outage) from exc
        self.outage.accepted()
        return rows

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Statements]:
        try:
            self._check_file()
        except FileGone as exc:
            raise translated(exc, self.outage) from exc
        async with self._lock:
            try:
                await self._on.execute("BEGIN IMMEDIATE")
            except (sqlite3.Error, ValueError) as exc:
                raise translated(exc, self.outage) from exc
            try:
                yield self._on
            except BaseException as exc:
                await self._rollback()
                if isinstance(exc, (sqlite3.Error, ValueError)):
                    raise translated(exc, self.outage) from exc
                raise
            try:
                await self._on.execute("COMMIT")
            except (sqlite3.Error, ValueError) as exc:
                await self._rollback()
                raise translated(exc, self.outage) from exc
        self.outage.accepted()

    async def _rollback(self) -> None:
        conn = self._conn
        if conn is not None and conn.in_transaction:  # SQLite may have rolled back already (a full disk)
            try:
                await conn.rollback()
            except (sqlite3.Error, ValueError):
                pass  # the connection is gone: nothing was committed

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            async with self._lock:
                await conn.close()


async def connect(path: Path, migrations: Path) -> SQLiteDatabase:
    """Connect, set the pragmas and migrate; on any failure close and raise `StartupError`."""
    if sqlite3.sqlite_version_info < NEEDED_VERSION:
        raise StartupError(f"Boardroom needs SQLite {'.'.join(map(str, NEEDED_VERSION))} or newer; this Python has "
                           f"{sqlite3.sqlite_version}. Use a newer Python build (3.11 from python.org or Debian 12 "
                           "and later have it).")
    if not writable(path):
        raise StartupError(f"Cannot write the database {path}. {permission_hint(path)}")
    # Created 0600 here, before SQLite would create it 0644: it holds every hand and every seed
    # (its -wal and -shm take the same mode). An older database of ours readable by others is
    # made private too, once it proved to be one (a file the bot refuses is left as it was).
    create_private(path)
    try:
        conn = await aiosqlite.connect(str(path), isolation_level=None)
    except sqlite3.Error as exc:
        raise StartupError(f"Cannot open the database {path} (SQLite: {exc}).") from None
    try:
        try:
            for pragma in PRAGMAS:
                await conn.execute_fetchall(f"PRAGMA {pragma}")
        except sqlite3.DatabaseError as exc:
            if (getattr(exc, "sqlite_errorcode", 0) & 0xFF) == 26:  # SQLITE_NOTADB
                raise StartupError(f"{path} is not an SQLite database (SQLite: {exc}). Point BOARDROOM_DB at "
                                   "Boardroom's database file, or at a new path to start a fresh one.") from None
            raise StartupError(f"Cannot open the database {path} (SQLite: {exc}).") from None
        schema = await migrate(conn, path, migrations)
        loose = [p for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")) if tighten(p)]
        if loose:  # left 0644 by an older version
            log.warning("the database %s was readable by other users; it is now private to its owner (0600)", path)
        return SQLiteDatabase(conn, path, schema)
    except BaseException as exc:
        await conn.close()
        if isinstance(exc, (StartupError, StoreUnavailable)):
            raise
        if isinstance(exc, sqlite3.Error):
            hint = f" {permission_hint(path)}" if (getattr(exc, "sqlite_errorcode", 0) & 0xFF) == 8 else ""
            raise StartupError(f"Cannot open the database {path} (SQLite: {exc}).{hint}") from None
        raise


async def backup_before_migrating(path: Path, target: int) -> Path:
    """A copy of the database as it is, beside it, before any migration touches it: the way back
    if the new version misbehaves (docs/OPERATIONS.md, "Rollback"). Said in the log once the
    migration is committed; removed if the migration fails (the database is then unchanged, and
    a refused start leaves nothing behind)."""
    dest = path.with_name(f"{path.name}.before-v{target}-{stamp()}")
    try:
        await asyncio.to_thread(backup, path, dest)
    except BackupError as exc:
        raise StartupError(f"Cannot back up the database before migrating it ({exc}); nothing was changed. Free "
                           "some disk space beside the database, or back it up yourself and try again.") from None
    return dest


async def migrate(conn: aiosqlite.Connection, path: Path, folder: Path) -> tuple[int, int]:
    """Every pending migration in one transaction: a failure leaves the database exactly as it
    was. Foreign keys are off meanwhile (SQLite's documented way to rebuild a table others refer
    to: dropping the old one would otherwise cascade to its children; the pragma only takes
    effect outside a transaction) and checked before COMMIT. A database that has a schema is
    backed up first. The schema versions before and after."""
    ((current,),) = await conn.execute_fetchall("PRAGMA user_version")
    pending = pending_migrations(folder, current, f"The database {path}")
    if not pending:
        return current, current
    saved = await backup_before_migrating(path, pending[-1][0]) if current > 0 else None
    name = "?"
    await conn.execute("PRAGMA foreign_keys=OFF")
    try:
        await conn.execute("BEGIN IMMEDIATE")
        for number, script in pending:
            name = script.name
            # executescript would COMMIT an open transaction first: run the script's statements
            # one by one inside ours instead.
            for statement in split_sql(script.read_text(encoding="utf-8")):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version={number}")
            log.info("migration %s applied to %s", name, path)
        broken = await conn.execute_fetchall("PRAGMA foreign_key_check")
        if broken:
            raise sqlite3.IntegrityError(f"foreign keys broken: {list(broken)[:3]}")
        await conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            await conn.rollback()
        if saved is not None:
            saved.unlink(missing_ok=True)
        if not isinstance(exc, sqlite3.Error):
            raise
        raise MigrationFailed(
            f"Migration {name} of {path} failed ({exc}); it was rolled back and the database is unchanged "
            f"(schema version {current}): the previous version of Boardroom still runs on it. Report the error.") from None
    finally:
        await conn.execute("PRAGMA foreign_keys=ON")
    if saved is not None:
        log.info("backed up the database before migrating it from schema %d: %s", current, saved)
    log.info("the database %s is migrated from schema %d to %d (%d migrations, one transaction)", path, current,
             pending[-1][0], len(pending))
    return current, pending[-1][0]


def split_sql(script: str) -> list[str]:
    """A migration script's statements (`sqlite3.complete_statement` finds where each ends, so a
    `;` inside a string, a comment or a trigger's body does not split one)."""
    out, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                out.append(current.strip())
            current = ""
    if current.strip() and not all(x.strip().startswith("--") or not x.strip() for x in current.splitlines()):
        out.append(current.strip())
    return out


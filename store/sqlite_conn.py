"""The SQLite connection and the one thread that owns it.

Every call of the store is one function run on that thread, in one hand-off: a commit (action,
snapshot, timers) costs the event loop one future and one wake-up, however many statements it
runs (docs/PERFORMANCE.md: awaiting each statement separately was most of an action's cost at
hundreds of actions a second). Each write is a transaction that commits, or rolls back on any
error, before the function returns: the connection is never left inside a transaction.

Errors that mean "the database refuses for now" (read-only, full disk, I/O error, busy, the file
deleted under the bot) become `StoreUnavailable`; others (a bug, a constraint) propagate as they are.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, TypeVar

from .base import MigrationFailed, StartupError, StoreUnavailable, pending_migrations

T = TypeVar("T")

PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000")

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


class FileGone(Exception):
    """The database file is not where it was opened (deleted or replaced)."""


def passing_reason(exc: BaseException) -> str | None:
    """Why SQLite refused, if it is a passing refusal (None for anything else)."""
    if isinstance(exc, FileGone):
        return str(exc)
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None and (code & 0xFF) in PASSING:
            return f"{PASSING[code & 0xFF]}: {exc}"
    return None


class Transaction:
    """`with Transaction(conn) as tx:` on the connection's thread: BEGIN IMMEDIATE, then COMMIT,
    or ROLLBACK if the block raised anything or set `tx.rollback`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.rollback = False

    def __enter__(self) -> "Transaction":
        self.conn.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None or self.rollback:
            if self.conn.in_transaction:  # SQLite may have rolled back already (a full disk)
                self.conn.execute("ROLLBACK")
            return
        try:
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise


class Connection:
    """A `sqlite3` connection used only from its own thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="boardroom-sqlite")
        self._conn: sqlite3.Connection | None = None
        self._identity: tuple[int, int] | None = None

    # -- on the thread ------------------------------------------------------------------------

    def _open(self) -> None:
        conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self._conn = conn
        try:
            for pragma in PRAGMAS:
                conn.execute(f"PRAGMA {pragma}").fetchall()
        except sqlite3.DatabaseError as exc:
            code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
            if code == 26:  # SQLITE_NOTADB
                raise StartupError(f"{self.path} is not an SQLite database (SQLite: {exc}). Point BOARDROOM_DB at "
                                   "Boardroom's database file, or at a new path to start a fresh one.") from None
            raise StartupError(f"Cannot open the database {self.path} (SQLite: {exc}).") from None
        st = os.stat(self.path)
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

    def _migrate(self, folder: Path) -> int:
        """Every pending migration in one transaction: a failure leaves the database exactly as it
        was. Foreign keys are off meanwhile (SQLite's documented way to rebuild a table others
        refer to: dropping the old one would otherwise cascade to its children; the pragma only
        takes effect outside a transaction) and checked before COMMIT."""
        conn = self._conn
        assert conn is not None
        (current,) = conn.execute("PRAGMA user_version").fetchone()
        pending = pending_migrations(folder, current, f"The database {self.path}")
        if not pending:
            return current
        name = "?"
        conn.execute("PRAGMA foreign_keys=OFF")
        try:
            conn.execute("BEGIN IMMEDIATE")
            for number, path in pending:
                name = path.name
                # executescript would COMMIT an open transaction first: run the script's
                # statements one by one inside ours instead.
                for statement in split_sql(path.read_text(encoding="utf-8")):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version={number}")
            broken = conn.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise sqlite3.IntegrityError(f"foreign keys broken: {broken[:3]}")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise MigrationFailed(
                f"Migration {name} of {self.path} failed ({exc}); it was rolled back and the database is unchanged "
                f"(schema version {current}). Restore a backup or report the error.") from None
        finally:
            conn.execute("PRAGMA foreign_keys=ON")
        return pending[-1][0]

    # -- from the event loop ------------------------------------------------------------------

    async def call(self, fn: Callable[[sqlite3.Connection], T], *, write: bool = False) -> T:
        """`fn(connection)` on the connection's thread. A write first checks that the file is
        still the one opened; it must run its statements in a `Transaction`."""
        conn = self._conn
        if conn is None:
            raise StoreUnavailable("the database is closed")

        def run() -> tuple[bool, Any]:
            # The outcome is handed back as a value and raised on the event loop's side: an
            # exception escaping an executor job reads, to a harness watching the loop (SimCord),
            # like an error nobody handled.
            try:
                if write:
                    self._check_file()
                return True, fn(conn)
            except Exception as exc:
                return False, exc

        ok, value = await asyncio.get_running_loop().run_in_executor(self._pool, run)
        if not ok:
            raise value
        return value

    async def open(self, folder: Path) -> None:
        """Connect, set the pragmas and migrate; on any failure close and raise `StartupError`."""
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._pool, self._open)
            await loop.run_in_executor(self._pool, self._migrate, folder)
        except BaseException as exc:
            await self.close()
            if isinstance(exc, StartupError):
                raise
            if isinstance(exc, sqlite3.Error):
                raise StartupError(f"Cannot open the database {self.path} (SQLite: {exc}).") from None
            raise

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await asyncio.get_running_loop().run_in_executor(self._pool, conn.close)
        self._pool.shutdown(wait=False)


def split_sql(script: str) -> list[str]:
    """A migration script's statements (`sqlite3.complete_statement` finds where each ends, so a
    `;` inside a string or a comment does not split one)."""
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


def run_statements(statements: list[tuple[str, tuple[Any, ...]]]) -> Callable[[sqlite3.Connection], None]:
    """A function running the statements in one transaction."""

    def run(conn: sqlite3.Connection) -> None:
        with Transaction(conn):
            for sql, params in statements:
                conn.execute(sql, params)

    return run

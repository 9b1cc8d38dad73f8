"""The PostgreSQL connection pool, on asyncpg: the `Database` the shared SQL runs on, the JSON
codecs and the migrations.

A statement outside a transaction is atomic by itself, and costs one round trip: the pool hands
out its connections without a reset on release (Boardroom never leaves session state on a pooled
connection: no LISTEN, no session locks, no cursors; the listener holds a connection of its own),
which would cost a round trip of its own on every release.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from ..database import Database, Outage, Row, Statements
from ..errors import Duplicate, MigrationFailed, StartupError
from ..rows import dumps
from ..schema import pending_migrations

#: SQLSTATE classes that mean "not now": connection trouble (08), insufficient resources such as a
#: full disk (53), operator intervention such as a shutdown (57), system I/O errors (58); and a
#: read-only transaction (25006), serialization failures and deadlocks (40001, 40P01).
PASSING_CLASSES = ("08", "53", "57", "58")
PASSING_STATES = ("25006", "40001", "40P01")
#: Serialises migrations of several processes starting at once (any constant works).
MIGRATION_LOCK = 0x626F617264  # "board"
#: How long a connection may take to open: an unresponsive server (a stopped VM, a firewall that
#: drops packets) is reported after this, not after asyncpg's default of 60 s.
CONNECT_TIMEOUT = 10.0
#: SQLSTATE of "permission denied" (insufficient_privilege).
NO_RIGHTS = "42501"

log = logging.getLogger("store")


class OneLine(logging.Filter):
    """asyncpg's pool logs a full traceback (about 30 lines) each time it fails to reconnect
    during an outage (attempts 1, 2, 4... 60 s apart): the reason fits on the line itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({exc.__class__.__name__}: {exc})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


_ONE_LINE = OneLine()


def short_reconnect_lines() -> None:
    """Install `OneLine` on asyncpg's pool logger (once; logging's public filter API)."""
    pool_log = logging.getLogger("asyncpg.pool")
    if _ONE_LINE not in pool_log.filters:
        pool_log.addFilter(_ONE_LINE)


def passing_reason(exc: BaseException) -> str | None:
    state = getattr(exc, "sqlstate", None)
    if isinstance(state, str) and (state[:2] in PASSING_CLASSES or state in PASSING_STATES):
        return f"PostgreSQL {state}: {exc}"
    if isinstance(exc, (OSError, ConnectionError, asyncio.TimeoutError, asyncpg.InterfaceError)):
        return f"the PostgreSQL connection failed: {exc.__class__.__name__}: {exc}"
    return None


def changed(status: str) -> int:
    """Rows changed, from asyncpg's command status ("UPDATE 1", "INSERT 0 1", "DELETE 3")."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


async def _codecs(conn: asyncpg.Connection) -> None:
    for kind in ("json", "jsonb"):
        await conn.set_type_codec(kind, encoder=dumps, decoder=json.loads, schema="pg_catalog")


async def _no_reset(conn: asyncpg.Connection) -> None:
    """Released connections carry no session state of ours: nothing to reset (see above)."""


class _Statements(Statements):
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *params: Any) -> list[Row]:
        return await self.conn.fetch(sql, *params)

    async def execute(self, sql: str, *params: Any) -> int:
        return changed(await self.conn.execute(sql, *params))


class PostgresDatabase(Database):
    def __init__(self, pool: asyncpg.Pool, schema: tuple[int, int] = (0, 0)) -> None:
        self.pool = pool
        #: The schema version found at start-up and the one after the migrations.
        self.schema = schema
        self.outage = Outage()
        self._any = _Statements(pool)  # a pool runs a statement on any free connection

    def _translated(self, exc: Exception) -> Exception:
        if isinstance(exc, asyncpg.UniqueViolationError):
            return Duplicate(str(exc))
        why = passing_reason(exc)
        return exc if why is None else self.outage.refused(why)

    async def fetch(self, sql: str, *params: Any) -> list[Row]:
        try:
            return await self._any.fetch(sql, *params)
        except Exception as exc:
            raise self._translated(exc) from exc

    async def returning(self, sql: str, *params: Any) -> list[Row]:
        rows = await self.fetch(sql, *params)
        self.outage.accepted()
        return rows

    async def execute(self, sql: str, *params: Any) -> int:
        try:
            done = await self._any.execute(sql, *params)
        except Exception as exc:
            raise self._translated(exc) from exc
        self.outage.accepted()
        return done

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Statements]:
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                yield _Statements(conn)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, asyncio.TimeoutError) as exc:
            raise self._translated(exc) from exc
        self.outage.accepted()

    async def close(self) -> None:
        await self.pool.close()


def unreachable(where: str, exc: BaseException) -> StartupError:
    """The one line for a server that cannot be reached or refuses us."""
    if isinstance(exc, asyncio.TimeoutError):
        why = (f"it did not answer within {CONNECT_TIMEOUT:.0f} s: check that the server runs and that the host "
               "and port are right (a firewall that drops packets looks like this)")
    else:
        why = f"{exc.__class__.__name__}: {exc}"
    return StartupError(f"Cannot connect to PostgreSQL at {where} ({why}). Check BOARDROOM_DB and that the server "
                        "runs.")


async def connect(url: str, where: str, migrations: Path, *, max_size: int = 10) -> PostgresDatabase:
    """A pool on `url`, migrated; a `StartupError` says why it cannot be used."""
    short_reconnect_lines()
    try:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=max_size, init=_codecs, reset=_no_reset,
                                         max_inactive_connection_lifetime=0, timeout=CONNECT_TIMEOUT)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncio.TimeoutError, ValueError) as exc:
        raise unreachable(where, exc) from None
    try:
        schema = await migrate(pool, where, migrations)
    except BaseException:
        pool.terminate()
        raise
    return PostgresDatabase(pool, schema)


async def migrate(pool: asyncpg.Pool, where: str, folder: Path) -> tuple[int, int]:
    """All pending migrations in one transaction, under an advisory lock so that processes
    starting together migrate once: a failure leaves the database exactly as it was. The
    schema versions before and after. (No automatic backup here, unlike SQLite's: the bot has no
    pg_dump of its own; the migration is one transaction, and docs/OPERATIONS.md says to pg_dump
    before an upgrade.)"""
    async with pool.acquire() as conn:
        current, name, pending = 0, "?", []
        try:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
                pending = pending_migrations(folder, current, f"The PostgreSQL database {where}")
                for number, path in pending:
                    name = path.name
                    await conn.execute(path.read_text(encoding="utf-8"))
                    await conn.execute("DELETE FROM schema_version")
                    await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                    log.info("migration %s applied to %s", name, where)
        except asyncpg.PostgresError as exc:
            if getattr(exc, "sqlstate", None) == NO_RIGHTS:
                raise MigrationFailed(
                    f"The PostgreSQL role of BOARDROOM_DB may not change the schema of {where} ({exc}); nothing was "
                    "changed. Make that role the database's owner (ALTER DATABASE ... OWNER TO ...), or grant it "
                    "CREATE on the schema public (GRANT CREATE ON SCHEMA public TO ...).") from None
            step = f"Migration {name}" if name != "?" else "Preparing the schema (before any migration)"
            raise MigrationFailed(
                f"{step} of {where} failed ({exc.__class__.__name__}: {exc}); it was rolled back "
                f"and the database is unchanged (schema version {current}): the previous version of Boardroom "
                "still runs on it. Report the error.") from None
    if pending:
        log.info("the database %s is migrated from schema %d to %d (%d migrations, one transaction)", where,
                 current, pending[-1][0], len(pending))
        return current, pending[-1][0]
    return current, current


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    head, sep, tail = url.partition("@")
    if not sep:
        return url
    scheme, _, cred = head.partition("://")
    return f"{scheme}://{cred.split(':')[0]}@{tail}"

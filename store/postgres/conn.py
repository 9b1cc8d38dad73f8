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
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
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


async def connect(url: str, where: str, migrations: Path, *, max_size: int = 10) -> PostgresDatabase:
    """A pool on `url`, migrated; a `StartupError` says why it cannot be used."""
    try:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=max_size, init=_codecs, reset=_no_reset,
                                         max_inactive_connection_lifetime=0)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncio.TimeoutError, ValueError) as exc:
        raise StartupError(f"Cannot connect to PostgreSQL at {where} ({exc.__class__.__name__}: {exc}). Check "
                           "BOARDROOM_DB and that the server runs.") from None
    try:
        await migrate(pool, where, migrations)
    except BaseException:
        pool.terminate()
        raise
    return PostgresDatabase(pool)


async def migrate(pool: asyncpg.Pool, where: str, folder: Path) -> None:
    """All pending migrations in one transaction, under an advisory lock so that processes
    starting together migrate once: a failure leaves the database exactly as it was."""
    async with pool.acquire() as conn:
        current, name = 0, "?"
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
        except asyncpg.PostgresError as exc:
            raise MigrationFailed(
                f"Migration {name} of {where} failed ({exc.__class__.__name__}: {exc}); it was rolled back "
                f"and the database is unchanged (schema version {current}). Restore a backup or report the "
                "error.") from None


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    head, sep, tail = url.partition("@")
    if not sep:
        return url
    scheme, _, cred = head.partition("://")
    return f"{scheme}://{cred.split(':')[0]}@{tail}"

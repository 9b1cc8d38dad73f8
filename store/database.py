"""What the shared SQL (store/sql.py) runs on: a backend's connection, with one dialect of
placeholders and one kind of answer for both backends.

Statements are written once, in PostgreSQL's numbered style (`$1`, `$2`...); the SQLite side turns
them into SQLite's numbered `?1`, `?2`... (which bind by number, not by order of appearance). A
write of one statement is atomic on both backends; several statements go in `transaction()`,
which commits, or rolls back on any exception (`Lost` among them: a compare-and-swap that lost).
Answers are rows (sequences) and, for writes, the number of rows changed.

Errors that mean "the database refuses for now" become `StoreUnavailable` here, said once in the
log until writes work again (`Outage`); a unique index's refusal becomes `Duplicate`.
"""

from __future__ import annotations

import abc
import logging
from contextlib import AbstractAsyncContextManager
from typing import Any, Sequence

from .errors import StoreUnavailable

log = logging.getLogger("store")

Row = Sequence[Any]


class Outage:
    """The outage log, written once for both backends: a refusal is said once, and its end."""

    def __init__(self) -> None:
        self.why: str | None = None

    def refused(self, why: str) -> StoreUnavailable:
        """Note that the database refused and return the error to raise."""
        if self.why is None:
            log.error("the database refuses writes (%s): nothing is changed until it accepts them again; "
                      "timers retry with growing delays, players who click are told", why)
        self.why = why
        return StoreUnavailable(why)

    def accepted(self) -> None:
        """A write went through: if the database had been refusing, say it is back."""
        if self.why is not None:
            log.warning("the database accepts writes again (it had refused: %s)", self.why)
            self.why = None


class Statements(abc.ABC):
    """Reads and writes of single statements (a connection, or a transaction in progress)."""

    @abc.abstractmethod
    async def fetch(self, sql: str, *params: Any) -> list[Row]: ...

    async def fetchrow(self, sql: str, *params: Any) -> Row | None:
        rows = await self.fetch(sql, *params)
        return rows[0] if rows else None

    @abc.abstractmethod
    async def execute(self, sql: str, *params: Any) -> int:
        """Run a write; the number of rows it changed."""


class Database(Statements):
    """A backend's connection (or pool)."""

    @abc.abstractmethod
    async def returning(self, sql: str, *params: Any) -> list[Row]:
        """Run a write of one statement whose RETURNING rows come back (claiming timers)."""

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Statements]:
        """`async with db.transaction() as tx:` statements that commit together, or not at all."""

    @abc.abstractmethod
    async def close(self) -> None: ...

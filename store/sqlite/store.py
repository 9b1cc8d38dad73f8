"""The SQLite backend, the embedded default: one file, one writing process (`lock.py`), WAL.

WAL mode keeps readers off the writer's back; `synchronous=NORMAL` is atomic and durable against
a killed process (only a power cut can lose the last commits, never corrupt). The contract's SQL
is the shared one (store/sql.py); what is SQLite's own is here: a game with its seats in one
SELECT, the timers written from one JSON parameter, the one-statement commit of a move (an INSERT
into the `commits` view, whose trigger does the rest), claiming timers, the integrity check.
Seeds are decimal text (128 bits do not fit SQLite's 64-bit integers); times are epoch seconds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..database import Statements
from ..errors import Lost
from ..rows import GAME_COLUMNS, GameRow, Shards, Timer, dumps, timer_changes
from ..schema import MIGRATIONS
from ..sql import TIMER_COLUMNS, SQLStore, shard_sql, timer_of
from . import lock, marker
from .conn import SQLiteDatabase, connect


class SQLiteStore(SQLStore):
    migrations = MIGRATIONS / "sqlite"
    backend = "SQLite"
    GET_SQL = (f"SELECT {GAME_COLUMNS}, (SELECT json_group_array(json_array(seat, user_id, name, is_ai, left_at))"
               " FROM (SELECT * FROM seats s WHERE s.game_id = games.id ORDER BY s.seat)) FROM games WHERE id = $1")

    def __init__(self, db: SQLiteDatabase, lock_key: str) -> None:
        super().__init__(db)
        self._lock_key = lock_key
        self.where = str(db.path)
        self.schema = db.schema
        self._held = False  # the marker beside the file says it held games (marker.py)

    @classmethod
    async def connect(cls, path: Path, *, new_database: bool = False) -> "SQLiteStore":
        key = lock.acquire(path)
        try:
            marker.check_missing(path, new_database=new_database)
            db = await connect(path, cls.migrations)
        except BaseException:
            lock.release(key)
            raise
        store = cls(db, key)
        try:
            if await db.fetchrow("SELECT 1 FROM games LIMIT 1") is not None:
                store._note_held()
        except BaseException:
            await store.close()
            raise
        return store

    def _note_held(self) -> None:
        if not self._held:
            marker.note_held(self.db.path)
            self._held = True

    async def create_lobby(self, **kwargs: Any) -> GameRow:
        game = await super().create_lobby(**kwargs)
        self._note_held()  # from the first game on, a missing file is noticed at start-up
        return game

    async def close(self) -> None:
        key, self._lock_key = self._lock_key, ""
        await self.db.close()
        if key:
            lock.release(key)

    async def write_timers(self, tx: Statements, game_id: int, version: int, rows: list[tuple]) -> None:
        # `rows` carry each payload as JSON text: `->> 3` takes that text as it is.
        given = dumps([[kind, ref, due, payload] for kind, ref, due, payload in rows])
        await tx.execute("UPDATE games SET planned_at = $2 WHERE id = $1", game_id, version)
        await tx.execute("DELETE FROM timers WHERE game_id = $1 AND NOT EXISTS (SELECT 1 FROM json_each($2) j"
                         " WHERE j.value ->> 0 = timers.kind AND j.value ->> 1 = timers.ref)", game_id, given)
        await tx.execute(
            "INSERT INTO timers (game_id, kind, ref, due_at, payload, version) SELECT $1, j.value ->> 0,"
            " j.value ->> 1, j.value ->> 2, j.value ->> 3, $3 FROM json_each($2) j WHERE 1 = 1"
            " ON CONFLICT (game_id, kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,"
            " version = excluded.version", game_id, given, version)

    async def commit_action(
        self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
        action: dict[str, Any], events: list[dict[str, Any]], state: dict[str, Any], now: float,
        finished: dict[str, Any] | None = None, timers: list[tuple[str, str, float, dict]] | None = None,
        notify: bool = False, clock: dict[str, Any] | None = None,
        known: list[tuple[str, str, float, dict]] | None = None,
    ) -> bool:
        # `notify` is for processes sharing a PostgreSQL database; an SQLite file has one writer.
        given = dropped = None
        if timers is not None and known is None:  # the whole plan: the trigger deletes the rest
            given = dumps([[k, r, d, p] for k, r, d, p in timers])
        elif timers is not None:  # only what changed (migration 0012)
            changed, gone = timer_changes(timers, known or [])
            given, dropped = dumps([[k, r, d, p] for k, r, d, p in changed]), dumps(gone)
        try:
            await self.db.execute(
                "INSERT INTO commits (game_id, expected, seat, user_id, action, events, state, at, finished, timers,"
                " clock, dropped) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)", game_id,
                expected_version, seat, user_id, action, events, state, now, finished, given, clock, dropped)
        except Lost:
            return False
        return True

    async def claim_timers(self, now: float, *, owner: str, lease: float, limit: int = 10,
                           shards: Shards | None = None) -> list[Timer]:
        rows = await self.db.returning(
            f"UPDATE timers SET owner = $1, lease_until = $2 WHERE timers.id IN (SELECT t.id FROM timers t"
            f" JOIN games g ON g.id = t.game_id WHERE t.due_at <= $3 AND (t.lease_until IS NULL OR t.lease_until <= $3)"
            f"{shard_sql(shards)} ORDER BY t.due_at, t.id LIMIT $4) RETURNING {TIMER_COLUMNS}",
            owner, now + lease, now, limit)
        return sorted((timer_of(r) for r in rows), key=lambda t: (t.due_at, t.id))

    async def integrity(self) -> str:
        row = await self.db.fetchrow("PRAGMA integrity_check")
        assert row is not None
        return row[0]

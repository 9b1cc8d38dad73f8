"""The PostgreSQL backend (`BOARDROOM_DB=postgresql://...`), on asyncpg: several bot processes
may share one database. The contract's SQL is the shared one (store/sql.py); what is PostgreSQL's
own is here: a game with its seats in one SELECT, the timers written from arrays, the commit of a
move as ONE statement (data-modifying CTEs: the compare-and-swap, the snapshot, the log, the timers
and the notice to the owner, one round trip), timers claimed with `FOR UPDATE SKIP LOCKED` (two
processes never claim the same row), and the integrity check. Times are epoch seconds (double
precision); seeds numeric; JSON columns as the migration says (`json` where key order must
survive, `jsonb` elsewhere).
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from ..base import Listening
from ..database import Statements
from ..rows import GAME_COLUMNS, Shards, Timer, timer_changes, timer_rows
from ..schema import MIGRATIONS
from ..sql import TIMER_COLUMNS, SQLStore, shard_sql, timer_of
from .conn import PostgresDatabase, connect, redacted
from . import listen
from .listen import NOTICE_SQL, NOTICES

#: The commit of a move in one statement. `g` is the compare-and-swap: every other part writes
#: only for the row it returns, so a lost race writes nothing. The timers' DELETE and upsert touch
#: disjoint rows (those not kept, those kept), as one statement requires. `$18`: the keys `$11`
#: are the rows to delete and the arrays only the rows that changed (`timer_changes`); else the
#: keys are the whole plan's and every other row goes. A row left as it was is not written: the
#: game's `planned_at` says the version its timers are planned for (migration 0010).
COMMIT_SQL = f"""
WITH g AS (
    UPDATE games SET state = $1, version = $2 + 1, updated_at = $3,
        status = CASE WHEN $4::jsonb IS NULL THEN status ELSE 'finished' END,
        result = COALESCE($4::jsonb, result),
        finished_at = CASE WHEN $4::jsonb IS NULL THEN finished_at ELSE $3 END,
        clock = COALESCE($17::jsonb, clock),
        planned_at = CASE WHEN $10 THEN $2 + 1 ELSE planned_at END
    WHERE id = $5 AND version = $2 AND status = 'active'
    RETURNING id, version, guild_id),
a AS (
    INSERT INTO actions (game_id, seq, seat, user_id, action, events, at)
    SELECT id, version, $6, $7, $8, $9, $3 FROM g),
d AS (
    DELETE FROM timers WHERE $10 AND game_id IN (SELECT id FROM g)
        AND (kind || chr(31) || ref = ANY($11::text[])) = $18::bool),
u AS (
    INSERT INTO timers (game_id, kind, ref, due_at, payload, version)
    SELECT g.id, x.k, x.r, x.d, x.p::jsonb, g.version
    FROM g, unnest($12::text[], $13::text[], $14::float8[], $15::text[]) AS x(k, r, d, p) WHERE $10
    ON CONFLICT (game_id, kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,
        version = excluded.version
        WHERE timers.due_at IS DISTINCT FROM excluded.due_at OR timers.payload IS DISTINCT FROM excluded.payload)
SELECT (SELECT count(*) FROM g),
       (SELECT pg_notify('{NOTICES}', id::text || ':' || version::text || ':' || COALESCE(guild_id, 0)::text)
        FROM g WHERE $16)
"""


#: The advisory lock key of rating transactions (any number no other lock of ours uses).
RATINGS_LOCK = 29_0001


def _arrays(rows: list[tuple]) -> tuple[list, list, list, list, list]:
    """A game's timers as the arrays the SQL unnests, and the keys of those that stay."""
    kinds, refs, dues, payloads = ([r[i] for r in rows] for i in range(4))
    return [f"{k}\x1f{r}" for k, r in zip(kinds, refs)], kinds, refs, dues, payloads


class PostgresStore(SQLStore):
    migrations = MIGRATIONS / "postgres"
    backend = "PostgreSQL"
    GET_SQL = (f"SELECT {GAME_COLUMNS}, (SELECT json_agg(json_build_array(s.seat, s.user_id, s.name, s.is_ai,"
               " s.left_at) ORDER BY s.seat) FROM seats s WHERE s.game_id = games.id) FROM games WHERE id = $1")

    def __init__(self, db: PostgresDatabase, url: str) -> None:
        super().__init__(db)
        self._url = url  # the listener's own connection (LISTEN holds one for good)
        self.where = redacted(url)
        self.schema = db.schema

    @classmethod
    async def connect(cls, url: str, *, max_size: int = 10) -> "PostgresStore":
        return cls(await connect(url, redacted(url), cls.migrations, max_size=max_size), url)

    async def listen(self, on_notice: Callable[[int, int, int | None], None],
                     on_gap: Callable[[], Awaitable[None]]) -> Listening:
        return await listen.Listening.start(self._url, on_notice, on_gap)

    async def locked_version(self, tx: Statements, game_id: int) -> int | None:
        # FOR UPDATE: a move racing this write waits for it, then loses its compare-and-swap.
        row = await tx.fetchrow("SELECT version FROM games WHERE id = $1 AND status = 'active' FOR UPDATE", game_id)
        return None if row is None else row[0]

    async def lock_ratings(self, tx: Statements) -> None:
        # Held to the end of the transaction: rating transactions of several processes queue.
        await tx.fetch("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)

    async def notice(self, tx: Statements, game_id: int) -> None:
        await tx.fetch(NOTICE_SQL, NOTICES, game_id)  # delivered at the commit, never for a rollback

    async def write_timers(self, tx: Statements, game_id: int, version: int, rows: list[tuple]) -> None:
        keys, kinds, refs, dues, payloads = _arrays(rows)
        await tx.execute("UPDATE games SET planned_at = $2 WHERE id = $1", game_id, version)
        await tx.execute("DELETE FROM timers WHERE game_id = $1 AND NOT (kind || chr(31) || ref = ANY($2::text[]))",
                         game_id, keys)
        if rows:
            await tx.execute(
                "INSERT INTO timers (game_id, kind, ref, due_at, payload, version)"
                " SELECT $1, k, r, d, p::jsonb, $2 FROM unnest($3::text[], $4::text[], $5::float8[], $6::text[])"
                " AS x(k, r, d, p) ON CONFLICT (game_id, kind, ref) DO UPDATE SET due_at = excluded.due_at,"
                " payload = excluded.payload, version = excluded.version",
                game_id, version, kinds, refs, dues, payloads)

    async def commit_action(
        self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
        action: dict[str, Any], events: list[dict[str, Any]], state: dict[str, Any], now: float,
        finished: dict[str, Any] | None = None, timers: list[tuple[str, str, float, dict]] | None = None,
        notify: bool = False, clock: dict[str, Any] | None = None,
        known: list[tuple[str, str, float, dict]] | None = None,
    ) -> bool:
        given, dropped = timers or [], None
        if timers is not None and known is not None:  # only what changed
            given, dropped = timer_changes(timers, known)
        keys, kinds, refs, dues, payloads = _arrays(timer_rows(given))
        if dropped is not None:
            keys = [f"{kind}\x1f{ref}" for kind, ref in dropped]
        rows = await self.db.returning(COMMIT_SQL, state, expected_version, now, finished, game_id, seat, user_id,
                                       action, events, timers is not None, keys, kinds, refs, dues, payloads,
                                       notify, clock, dropped is not None)
        return rows[0][0] == 1

    async def claim_timers(self, now: float, *, owner: str, lease: float, limit: int = 10,
                           shards: Shards | None = None) -> list[Timer]:
        rows = await self.db.returning(
            f"WITH due AS (SELECT t.id FROM timers t JOIN games g ON g.id = t.game_id WHERE t.due_at <= $1"
            f" AND (t.lease_until IS NULL OR t.lease_until <= $1){shard_sql(shards)}"
            f" ORDER BY t.due_at, t.id LIMIT $2 FOR UPDATE OF t SKIP LOCKED)"
            f" UPDATE timers SET owner = $3, lease_until = $4 FROM due WHERE timers.id = due.id"
            f" RETURNING {TIMER_COLUMNS}",
            now, limit, owner, now + lease)
        return sorted((timer_of(r) for r in rows), key=lambda t: (t.due_at, t.id))

    async def integrity(self) -> str:
        """PostgreSQL checks its own pages; what can be asked here is that every running game's
        log reaches its version (the snapshot and the log were written together; a move taken
        back and its taking back count two versions). A pruned game's log is in its archive file, not here."""
        rows = await self.db.fetch(
            "SELECT g.id FROM games g WHERE g.status <> 'lobby' AND g.log_archived_at IS NULL"
            " AND g.version <> (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
            " + 2 * (SELECT COUNT(*) FROM undone_actions u WHERE u.game_id = g.id) LIMIT 5")
        return "ok" if not rows else "games whose log does not reach their version: " + ", ".join(
            str(r[0]) for r in rows)

"""The PostgreSQL backend (`BOARDROOM_DB=postgresql://...`), on asyncpg: several bot processes
may share one database. Every write is one transaction on a pooled connection (`async with
conn.transaction()` rolls back on any error); the compare-and-swap is the same UPDATE ... WHERE
version = ... as on SQLite; timers are claimed with `FOR UPDATE SKIP LOCKED`, so two processes
never claim the same row. Times are epoch seconds (double precision); seeds numeric; JSON columns
as the migration says (`json` where key order must survive, `jsonb` elsewhere).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable, TypeVar

import asyncpg

from .base import MIGRATIONS, ChannelBusy, MigrationFailed, StartupError, Store, pending_migrations
from .listen import NOTICE_SQL, NOTICES, Listening
from .postgres_seats import SeatsAndAway
from .postgres_undo_digest import UndoDigestMixin
from .rows import GAME_COLUMNS, GameRow, Seat, Shards, Timer, dumps, timer_rows, user_stats

T = TypeVar("T")

_SEATS_SQL = "SELECT seat, user_id, name, is_ai, left_at FROM seats WHERE game_id = $1 ORDER BY seat"
_TIMER_COLUMNS = "id, game_id, kind, ref, due_at, payload, version, owner, lease_until"
#: SQLSTATE classes that mean "not now": connection trouble (08), insufficient resources such as a
#: full disk (53), operator intervention such as a shutdown (57), system I/O errors (58); and a
#: read-only transaction (25006), serialization failures and deadlocks (40001, 40P01).
PASSING_CLASSES = ("08", "53", "57", "58")
PASSING_STATES = ("25006", "40001", "40P01")
#: Serialises migrations of several processes starting at once (any constant works).
MIGRATION_LOCK = 0x626F617264  # "board"


class _Lost(Exception):
    """The compare-and-swap lost: roll the transaction back and report False."""


def passing_reason(exc: BaseException) -> str | None:
    state = getattr(exc, "sqlstate", None)
    if isinstance(state, str) and (state[:2] in PASSING_CLASSES or state in PASSING_STATES):
        return f"PostgreSQL {state}: {exc}"
    if isinstance(exc, (OSError, ConnectionError, asyncio.TimeoutError, asyncpg.InterfaceError)):
        return f"the PostgreSQL connection failed: {exc.__class__.__name__}: {exc}"
    return None


async def _codecs(conn: asyncpg.Connection) -> None:
    for kind in ("json", "jsonb"):
        await conn.set_type_codec(kind, encoder=dumps, decoder=json.loads, schema="pg_catalog")


def _seat(row: Any) -> Seat:
    return Seat(row[0], row[1], row[2], bool(row[3]), row[4])


def _timer(row: Any) -> Timer:
    return Timer(*row)


def _shard_sql(shards: Shards | None) -> str:
    if shards is None:
        return ""
    ids = ", ".join(str(int(i)) for i in shards.ids) or "NULL"
    return f" AND ((COALESCE(g.guild_id, 0) >> 22) % {int(shards.count)}) IN ({ids})"


async def _write_timers(conn: asyncpg.Connection, game_id: int, version: int, rows: list[tuple]) -> None:
    """Make the game's timers exactly `rows`, planned for `version`; a timer that stays keeps
    its row and claim (see the SQLite backend)."""
    kinds, refs, dues, payloads = ([r[i] for r in rows] for i in range(4))
    keys = [f"{k}\x1f{r}" for k, r in zip(kinds, refs)]
    await conn.execute("DELETE FROM timers WHERE game_id = $1 AND NOT (kind || chr(31) || ref = ANY($2::text[]))",
                       game_id, keys)
    if rows:
        await conn.execute(
            "INSERT INTO timers (game_id, kind, ref, due_at, payload, version)"
            " SELECT $1, k, r, d, p::jsonb, $2 FROM unnest($3::text[], $4::text[], $5::float8[], $6::text[])"
            " AS x(k, r, d, p)"
            " ON CONFLICT (game_id, kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,"
            " version = excluded.version",
            game_id, version, kinds, refs, dues, payloads)


class PostgresStore(SeatsAndAway, UndoDigestMixin, Store):
    migrations = MIGRATIONS / "postgres"
    _timers_to = staticmethod(_write_timers)
    _lost = _Lost

    def __init__(self, pool: asyncpg.Pool, where: str) -> None:
        super().__init__()
        self._pool = pool
        self._where = where
        self._url = ""

    @classmethod
    async def connect(cls, url: str, *, max_size: int = 10) -> "PostgresStore":
        where = _redacted(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=max_size, init=_codecs,
                                             max_inactive_connection_lifetime=0)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncio.TimeoutError, ValueError) as exc:
            raise StartupError(f"Cannot connect to PostgreSQL at {where} ({exc.__class__.__name__}: {exc}). Check "
                               "BOARDROOM_DB and that the server runs.") from None
        store = cls(pool, where)
        store._url = url  # the listener's own connection (LISTEN holds one for good)
        try:
            await store._migrate()
        except BaseException:
            pool.terminate()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    async def listen(self, on_notice: Callable[[int, int, int | None], None],
                     on_gap: Callable[[], Awaitable[None]]) -> Listening:
        return await Listening.start(self._url, on_notice, on_gap)

    async def _migrate(self) -> None:
        """All pending migrations in one transaction, under an advisory lock so that processes
        starting together migrate once: a failure leaves the database exactly as it was."""
        async with self._pool.acquire() as conn:
            current, name = 0, "?"
            try:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                    current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
                    pending = pending_migrations(self.migrations, current, f"The PostgreSQL database {self._where}")
                    for number, path in pending:
                        name = path.name
                        await conn.execute(path.read_text(encoding="utf-8"))
                        await conn.execute("DELETE FROM schema_version")
                        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
            except asyncpg.PostgresError as exc:
                raise MigrationFailed(
                    f"Migration {name} of {self._where} failed ({exc.__class__.__name__}: {exc}); it was rolled back "
                    f"and the database is unchanged (schema version {current}). Restore a backup or report the "
                    "error.") from None

    async def _run(self, fn: Callable[[asyncpg.Connection], Awaitable[T]], *, write: bool) -> T:
        try:
            async with self._pool.acquire() as conn:
                if write:
                    async with conn.transaction():
                        out = await fn(conn)
                else:
                    out = await fn(conn)
        except Exception as exc:
            why = passing_reason(exc)
            if why is None:
                raise
            raise self.refused(why) from exc
        if write:
            self.accepted()
        return out

    async def _read(self, fn: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        return await self._run(fn, write=False)

    async def _write(self, fn: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        return await self._run(fn, write=True)

    async def _cas(self, fn: Callable[[asyncpg.Connection], Awaitable[Any]]) -> bool:
        """A write that may lose its compare-and-swap (raise `_Lost` inside: rolled back, False)."""
        try:
            await self._write(fn)
        except _Lost:
            return False
        return True

    async def _all(self, sql: str, *params: Any) -> list[Any]:
        return await self._read(lambda conn: conn.fetch(sql, *params))

    async def _one(self, sql: str, *params: Any) -> Any:
        return await self._read(lambda conn: conn.fetchrow(sql, *params))

    async def _tx(self, statements: list[tuple[str, tuple]]) -> None:
        async def run(conn: asyncpg.Connection) -> None:
            for sql, params in statements:
                await conn.execute(sql, *params)

        await self._write(run)

    # -- games ------------------------------------------------------------------------------

    async def create_lobby(self, *, guild_id: int | None, channel_id: int, title: str, host_id: int,
                           host_name: str, lang: str, seed: int, settings: dict[str, Any], now: float) -> GameRow:
        async def run(conn: asyncpg.Connection) -> int:
            game_id = await conn.fetchval(
                "INSERT INTO games (guild_id, channel_id, title, status, host_id, lang, settings, seed, created_at,"
                " updated_at) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $8) RETURNING id",
                guild_id, channel_id, title, host_id, lang, settings, seed, now)
            await conn.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES ($1, 0, $2, $3)",
                               game_id, host_id, host_name)
            return game_id

        try:
            game_id = await self._write(run)
        except asyncpg.UniqueViolationError:
            raise ChannelBusy() from None
        game = await self.get(game_id)
        assert game is not None
        return game

    async def get(self, game_id: int) -> GameRow | None:
        async def read(conn: asyncpg.Connection):
            row = await conn.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
            seats = await conn.fetch(_SEATS_SQL, game_id) if row else []
            return row, seats

        row, seats = await self._read(read)
        if row is None:
            return None
        game = GameRow.from_row(row)
        game.seats = [_seat(s) for s in seats]
        return game

    async def live_in(self, channel_id: int) -> GameRow | None:
        row = await self._one("SELECT id FROM games WHERE channel_id = $1 AND status IN ('lobby', 'active')",
                              channel_id)
        return await self.get(row[0]) if row else None

    async def latest_in(self, channel_id: int) -> GameRow | None:
        row = await self._one("SELECT id FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", channel_id)
        return await self.get(row[0]) if row else None

    async def active_games(self, shards: Shards | None = None) -> list[tuple[int, int]]:
        rows = await self._all("SELECT g.id, g.channel_id FROM games g WHERE g.status IN ('lobby', 'active')"
                               f"{_shard_sql(shards)} ORDER BY g.id")
        return [(r[0], r[1]) for r in rows]

    async def games_of_member(self, guild_id: int, user_id: int) -> list[int]:
        rows = await self._all(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE g.guild_id = $1 AND g.status = 'active'"
            " AND s.user_id = $2 AND NOT s.is_ai AND s.left_at IS NULL ORDER BY g.id", guild_id, user_id)
        return [r[0] for r in rows]

    async def games_in_guild(self, guild_id: int) -> list[int]:
        rows = await self._all("SELECT id FROM games WHERE guild_id = $1 AND status = 'active' ORDER BY id", guild_id)
        return [r[0] for r in rows]

    async def untold_games(self, shards: Shards | None = None) -> list[int]:
        rows = await self._all("SELECT g.id FROM games g WHERE g.status IN ('active', 'finished')"
                               f" AND g.told_version < g.version{_shard_sql(shards)} ORDER BY g.id")
        return [r[0] for r in rows]

    async def mark_told(self, game_id: int, version: int) -> None:
        await self._tx([("UPDATE games SET told_version = GREATEST(told_version, $1) WHERE id = $2",
                         (version, game_id))])

    async def history(self, *, guild_id: int | None, limit: int = 10, offset: int = 0) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id IS NOT DISTINCT FROM $1 AND status = 'finished'"
            " ORDER BY finished_at DESC LIMIT $2 OFFSET $3", guild_id, limit, offset)
        games = [GameRow.from_row(r) for r in rows]
        for g in games:
            g.seats = await self.seats(g.id)
        return games

    async def user_stats(self, user_id: int, *, guild_id: int | None) -> dict[str, Any]:
        rows = await self._all(
            "SELECT g.title, g.result, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = $1 AND NOT s.is_ai AND g.status = 'finished'"
            " AND g.guild_id IS NOT DISTINCT FROM $2", user_id, guild_id)
        return user_stats([tuple(r) for r in rows])

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        cols, params = [], []
        for key, value in fields.items():
            params.append(value)
            cols.append(f"{key} = ${len(params)}")
        params.append(now)
        cols.append(f"updated_at = ${len(params)}")
        params.append(game_id)
        await self._tx([(f"UPDATE games SET {', '.join(cols)} WHERE id = ${len(params)}", tuple(params))])

    async def start(self, game_id: int, state: dict[str, Any], options: dict[str, Any], now: float) -> bool:
        async def run(conn: asyncpg.Connection) -> None:
            done = await conn.execute(
                "UPDATE games SET status = 'active', state = $1, options = $2, version = 0, updated_at = $3"
                " WHERE id = $4 AND status = 'lobby'", state, options, now, game_id)
            if done != "UPDATE 1":
                raise _Lost()

        return await self._cas(run)

    async def commit_action(
        self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
        action: dict[str, Any], events: list[dict[str, Any]], state: dict[str, Any], now: float,
        finished: dict[str, Any] | None = None, timers: list[tuple[str, str, float, dict]] | None = None,
        notify: bool = False,
    ) -> bool:
        new_version = expected_version + 1
        rows = None if timers is None else timer_rows(timers)

        async def run(conn: asyncpg.Connection) -> None:
            if finished is not None:
                done = await conn.execute(
                    "UPDATE games SET state = $1, version = $2, updated_at = $3, status = 'finished', result = $4,"
                    " finished_at = $3 WHERE id = $5 AND version = $6 AND status = 'active'",
                    state, new_version, now, finished, game_id, expected_version)
            else:
                done = await conn.execute(
                    "UPDATE games SET state = $1, version = $2, updated_at = $3 WHERE id = $4 AND version = $5"
                    " AND status = 'active'", state, new_version, now, game_id, expected_version)
            if done != "UPDATE 1":
                raise _Lost()
            await conn.execute(
                "INSERT INTO actions (game_id, seq, seat, user_id, action, events, at) VALUES ($1, $2, $3, $4, $5, $6,"
                " $7)", game_id, new_version, seat, user_id, action, events, now)
            if rows is not None:
                await _write_timers(conn, game_id, new_version, rows)
            if notify:  # delivered at the commit, never for a rolled-back move
                await conn.execute(NOTICE_SQL, NOTICES, game_id)

        return await self._cas(run)

    async def finish(self, game_id: int, status: str, now: float, result: dict[str, Any] | None = None) -> bool:
        async def run(conn: asyncpg.Connection) -> None:
            done = await conn.execute(
                "UPDATE games SET status = $1, result = $2, finished_at = $3, updated_at = $3 WHERE id = $4"
                " AND status IN ('lobby', 'active')", status, result, now, game_id)
            if done != "UPDATE 1":
                raise _Lost()
            await conn.execute("DELETE FROM timers WHERE game_id = $1", game_id)

        return await self._cas(run)

    async def actions(self, game_id: int, *, after: int = 0, limit: int | None = None,
                      newest_first: bool = False) -> list[dict[str, Any]]:
        order = "DESC" if newest_first else "ASC"
        sql = (f"SELECT seq, seat, user_id, action, events, at FROM actions WHERE game_id = $1 AND seq > $2"
               f" ORDER BY seq {order}")
        params: tuple = (game_id, after)
        if limit is not None:
            sql += " LIMIT $3"
            params += (limit,)
        rows = await self._all(sql, *params)
        return [{"seq": r[0], "seat": r[1], "user_id": r[2], "action": r[3], "events": r[4], "at": r[5]} for r in rows]

    async def action_count(self, game_id: int) -> int:
        return (await self._one("SELECT COUNT(*) FROM actions WHERE game_id = $1", game_id))[0]

    # -- seats ------------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[Seat]:
        return [_seat(r) for r in await self._all(_SEATS_SQL, game_id)]

    async def set_seats(self, game_id: int, seats: list[Seat], now: float) -> None:
        stmts: list[tuple[str, tuple]] = [("DELETE FROM seats WHERE game_id = $1", (game_id,))]
        for i, s in enumerate(seats):
            stmts.append(("INSERT INTO seats (game_id, seat, user_id, name, is_ai, left_at) VALUES ($1, $2, $3, $4,"
                          " $5, $6)", (game_id, i, s.user_id, s.name, bool(s.is_ai), s.left_at)))
        stmts.append(("UPDATE games SET updated_at = $1 WHERE id = $2", (now, game_id)))
        await self._tx(stmts)

    async def seat_left(self, game_id: int, seat: int, now: float) -> None:
        await self._tx([("UPDATE seats SET left_at = $1 WHERE game_id = $2 AND seat = $3", (now, game_id, seat))])

    # -- timers -----------------------------------------------------------------------------

    async def replace_timers(self, game_id: int, version: int, timers: list[tuple[str, str, float, dict]]) -> bool:
        rows = timer_rows(timers)

        async def run(conn: asyncpg.Connection) -> None:
            # FOR UPDATE: a commit racing this replan waits for it, then finds its own version.
            at = await conn.fetchval("SELECT version FROM games WHERE id = $1 AND status = 'active' FOR UPDATE",
                                     game_id)
            if at != version:
                raise _Lost()
            await _write_timers(conn, game_id, version, rows)

        return await self._cas(run)

    async def timers(self, game_id: int) -> list[Timer]:
        rows = await self._all(f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = $1 ORDER BY due_at, id", game_id)
        return [_timer(r) for r in rows]

    async def next_due(self, shards: Shards | None = None) -> float | None:
        row = await self._one(
            "SELECT MIN(GREATEST(t.due_at, COALESCE(t.lease_until, 0))) FROM timers t JOIN games g ON g.id = t.game_id"
            f" WHERE TRUE{_shard_sql(shards)}")
        return row[0]

    async def claim_timers(self, now: float, *, owner: str, lease: float, limit: int = 10,
                           shards: Shards | None = None) -> list[Timer]:
        sql = (f"WITH due AS (SELECT t.id FROM timers t JOIN games g ON g.id = t.game_id WHERE t.due_at <= $1"
               f" AND (t.lease_until IS NULL OR t.lease_until <= $1){_shard_sql(shards)}"
               f" ORDER BY t.due_at, t.id LIMIT $2 FOR UPDATE OF t SKIP LOCKED)"
               f" UPDATE timers SET owner = $3, lease_until = $4 FROM due WHERE timers.id = due.id"
               f" RETURNING {', '.join('timers.' + c for c in _TIMER_COLUMNS.split(', '))}")
        rows = await self._write(lambda conn: conn.fetch(sql, now, limit, owner, now + lease))
        return sorted((_timer(r) for r in rows), key=lambda t: (t.due_at, t.id))

    async def consume_timer(self, timer: Timer, *, rearm_at: float | None = None,
                            payload: dict[str, Any] | None = None) -> bool:
        at_version = ("version = $3 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = timers.game_id"
                      " AND g.status = 'active' AND g.version <> $3)")

        async def run(conn: asyncpg.Connection) -> bool:
            if rearm_at is None:
                done = await conn.execute(f"DELETE FROM timers WHERE id = $1 AND owner IS NOT DISTINCT FROM $2"
                                          f" AND {at_version}", timer.id, timer.owner, timer.version)
            else:
                done = await conn.execute(
                    f"UPDATE timers SET due_at = $4, payload = $5, owner = NULL, lease_until = NULL WHERE id = $1"
                    f" AND owner IS NOT DISTINCT FROM $2 AND {at_version}", timer.id, timer.owner, timer.version,
                    rearm_at, timer.payload if payload is None else payload)
            if done.endswith(" 1"):
                return True
            await conn.execute("UPDATE timers SET owner = NULL, lease_until = NULL WHERE id = $1 AND owner IS NOT"
                               " DISTINCT FROM $2", timer.id, timer.owner)
            return False

        return await self._write(run)

    async def retry_timer(self, timer: Timer, at: float) -> None:
        await self._tx([("UPDATE timers SET owner = NULL, lease_until = $1 WHERE id = $2 AND owner IS NOT DISTINCT"
                         " FROM $3", (at, timer.id, timer.owner))])

    # -- settings and preferences -----------------------------------------------------------

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return {}
        row = await self._one("SELECT settings FROM guild_settings WHERE guild_id = $1", guild_id)
        return row[0] if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._tx([("INSERT INTO guild_settings (guild_id, settings) VALUES ($1, $2)"
                         " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings", (guild_id, settings))])

    async def prefs(self, user_id: int) -> dict[str, bool]:
        row = await self._one("SELECT dm_panel, pings, dm_closed, digest FROM user_prefs WHERE user_id = $1", user_id)
        dm, pings, closed, digest = tuple(row) if row else (False, True, False, False)
        return {"dm_panel": bool(dm), "pings": bool(pings), "dm_closed": bool(closed), "digest": bool(digest)}

    async def set_prefs(self, user_id: int, **values: bool) -> dict[str, bool]:
        current = await self.prefs(user_id)
        current.update({k: bool(v) for k, v in values.items() if k in current and k != "digest"})  # set_digest's
        await self._tx([(
            "INSERT INTO user_prefs (user_id, dm_panel, pings, dm_closed) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (user_id) DO UPDATE SET dm_panel = excluded.dm_panel, pings = excluded.pings,"
            " dm_closed = excluded.dm_closed",
            (user_id, current["dm_panel"], current["pings"], current["dm_closed"]),
        )])
        return current

    async def dm_panel(self, game_id: int, user_id: int) -> tuple[int, int] | None:
        row = await self._one("SELECT channel_id, message_id FROM dm_panels WHERE game_id = $1 AND user_id = $2",
                              game_id, user_id)
        return (row[0], row[1]) if row else None

    async def set_dm_panel(self, game_id: int, user_id: int, channel_id: int, message_id: int) -> None:
        await self._tx([(
            "INSERT INTO dm_panels (game_id, user_id, channel_id, message_id) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id", (game_id, user_id, channel_id, message_id))])

    # -- meta -------------------------------------------------------------------------------

    async def game_counts(self) -> dict[tuple[str, str], int]:
        rows = await self._all("SELECT title, status, COUNT(*) FROM games GROUP BY title, status")
        return {(r[0], r[1]): r[2] for r in rows}

    async def timer_counts(self, now: float, late: float) -> tuple[int, int, int]:
        row = await self._one(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE due_at <= $1), COUNT(*) FILTER (WHERE due_at <= $2) FROM timers",
            now, now - late)
        return row[0], row[1], row[2]

    async def meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = $1", key)
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._tx([("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET"
                         " value = excluded.value", (key, value))])

    async def integrity(self) -> str:
        """PostgreSQL checks its own pages; what can be asked here is that every running game's
        log reaches its version (the snapshot and the log were written together; a move taken
        back and its taking back count two versions)."""
        rows = await self._all(
            "SELECT g.id FROM games g WHERE g.status <> 'lobby'"
            " AND g.version <> (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
            " + 2 * (SELECT COUNT(*) FROM undone_actions u WHERE u.game_id = g.id) LIMIT 5")
        return "ok" if not rows else "games whose log does not reach their version: " + ", ".join(
            str(r[0]) for r in rows)


def _redacted(url: str) -> str:
    """The URL without its password, for messages."""
    head, sep, tail = url.partition("@")
    if not sep:
        return url
    scheme, _, cred = head.partition("://")
    return f"{scheme}://{cred.split(':')[0]}@{tail}"

"""The SQLite backend, the embedded default: one file, one writing process (`store.lock`), WAL.

WAL mode keeps readers off the writer's back; `synchronous=NORMAL` is atomic and durable against
a killed process (only a power cut can lose the last commits, never corrupt). Every method is one
function run on the connection's own thread (`sqlite_conn.Connection`). Seeds are decimal text
(128 bits do not fit SQLite's 64-bit integers); times are epoch seconds (REAL).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Callable, TypeVar

from . import lock
from .base import MIGRATIONS, ChannelBusy, Store, StoreUnavailable
from .rows import GAME_COLUMNS, JSON_FIELDS, GameRow, Seat, Shards, Timer, dumps, timer_rows, user_stats
from .sqlite_conn import Connection, Transaction, passing_reason, run_statements
from .sqlite_undo_digest import UndoDigestMixin

T = TypeVar("T")

_SEATS_SQL = "SELECT seat, user_id, name, is_ai, left_at FROM seats WHERE game_id = ? ORDER BY seat"
_TIMER_COLUMNS = "id, game_id, kind, ref, due_at, payload, version, owner, lease_until"
#: The row is still the timer's version and its game is not running at another one (a correlated
#: subquery on `timers`; the version is bound twice).
_AT_VERSION = ("version = ? AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = timers.game_id AND g.status = 'active'"
               " AND g.version <> ?)")


def _timer(row: Any) -> Timer:
    i, g, k, r, d, p, v, o, lease = row
    # float(): SQLite hands a REAL that holds a whole number back as an int through RETURNING.
    return Timer(i, g, k, r, float(d), json.loads(p), v, o, None if lease is None else float(lease))


def _seat(row: Any) -> Seat:
    s, u, n, ai, left = row
    return Seat(s, u, n, bool(ai), left)


def _shard_sql(shards: Shards | None) -> str:
    if shards is None:
        return ""
    ids = ", ".join(str(int(i)) for i in shards.ids) or "NULL"
    return f" AND ((COALESCE(g.guild_id, 0) >> 22) % {int(shards.count)}) IN ({ids})"


def _write_timers(conn: sqlite3.Connection, game_id: int, version: int, rows: list[tuple]) -> None:
    """Make the game's timers exactly `rows`, planned for `version` (inside a transaction). A
    timer that stays (same kind and ref) keeps its row and its claim: the process firing it is
    still at work (a deadline's AI moves are commits too), and nobody else may pick it up."""
    keep = [(kind, ref) for kind, ref, _due, _payload in rows]
    existing = conn.execute("SELECT kind, ref FROM timers WHERE game_id = ?", (game_id,)).fetchall()
    gone = [(game_id, k, r) for k, r in existing if (k, r) not in keep]
    if gone:
        conn.executemany("DELETE FROM timers WHERE game_id = ? AND kind = ? AND ref = ?", gone)
    conn.executemany(
        "INSERT INTO timers (game_id, kind, ref, due_at, payload, version) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,"
        " version = excluded.version",
        [(game_id, kind, ref, due, payload, version) for kind, ref, due, payload in rows],
    )


class SQLiteStore(UndoDigestMixin, Store):
    migrations = MIGRATIONS / "sqlite"
    _timers_to = staticmethod(_write_timers)

    def __init__(self, conn: Connection, lock_key: str) -> None:
        super().__init__()
        self._db = conn
        self._lock_key = lock_key

    @classmethod
    async def connect(cls, path: Path) -> "SQLiteStore":
        key = lock.acquire(path)
        conn = Connection(path)
        try:
            await conn.open(cls.migrations)
        except BaseException:
            lock.release(key)
            raise
        return cls(conn, key)

    async def close(self) -> None:
        key, self._lock_key = self._lock_key, ""
        await self._db.close()
        if key:
            lock.release(key)

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return await self._db.call(fn)
        except Exception as exc:
            why = passing_reason(exc)
            if why is None:
                raise
            raise self.refused(why) from exc

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        try:
            out = await self._db.call(fn, write=True)
        except StoreUnavailable:
            raise
        except Exception as exc:
            why = passing_reason(exc)
            if why is None:
                raise
            raise self.refused(why) from exc
        self.accepted()
        return out

    async def _all(self, sql: str, params: tuple = ()) -> list[Any]:
        return await self._read(lambda conn: conn.execute(sql, params).fetchall())

    async def _one(self, sql: str, params: tuple = ()) -> Any:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _tx(self, statements: list[tuple[str, tuple]]) -> None:
        await self._write(run_statements(statements))

    # -- games ------------------------------------------------------------------------------

    async def create_lobby(self, *, guild_id: int | None, channel_id: int, title: str, host_id: int,
                           host_name: str, lang: str, seed: int, settings: dict[str, Any], now: float) -> GameRow:
        def run(conn: sqlite3.Connection) -> int | None:
            with Transaction(conn) as tx:
                try:
                    cur = conn.execute(
                        "INSERT INTO games (guild_id, channel_id, title, status, host_id, lang, settings, seed,"
                        " created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                        (guild_id, channel_id, title, host_id, lang, dumps(settings), str(seed), now, now),
                    )
                except sqlite3.IntegrityError:  # the one-live-game-per-channel index
                    tx.rollback = True
                    return None
                conn.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                             (cur.lastrowid, host_id, host_name))
                return cur.lastrowid

        game_id = await self._write(run)
        if game_id is None:
            raise ChannelBusy()
        game = await self.get(game_id)
        assert game is not None
        return game

    async def get(self, game_id: int) -> GameRow | None:
        def read(conn: sqlite3.Connection):
            row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            seats = conn.execute(_SEATS_SQL, (game_id,)).fetchall() if row else []
            return row, seats

        row, seats = await self._read(read)
        if row is None:
            return None
        game = GameRow.from_row(row)
        game.seats = [_seat(s) for s in seats]
        return game

    async def live_in(self, channel_id: int) -> GameRow | None:
        row = await self._one("SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                              (channel_id,))
        return await self.get(row[0]) if row else None

    async def latest_in(self, channel_id: int) -> GameRow | None:
        row = await self._one("SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        return await self.get(row[0]) if row else None

    async def active_games(self, shards: Shards | None = None) -> list[tuple[int, int]]:
        rows = await self._all("SELECT g.id, g.channel_id FROM games g WHERE g.status IN ('lobby', 'active')"
                               f"{_shard_sql(shards)}")
        return [tuple(r) for r in rows]

    async def games_of_member(self, guild_id: int, user_id: int) -> list[int]:
        rows = await self._all(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE g.guild_id = ? AND g.status = 'active'"
            " AND s.user_id = ? AND s.is_ai = 0 AND s.left_at IS NULL", (guild_id, user_id))
        return [r[0] for r in rows]

    async def games_of_user(self, user_id: int) -> list[int]:
        rows = await self._all(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE g.status = 'active'"
            " AND s.user_id = ? AND s.is_ai = 0 AND s.left_at IS NULL ORDER BY g.id", (user_id,))
        return [r[0] for r in rows]

    async def games_in_guild(self, guild_id: int) -> list[int]:
        rows = await self._all("SELECT id FROM games WHERE guild_id = ? AND status = 'active'", (guild_id,))
        return [r[0] for r in rows]

    async def untold_games(self, shards: Shards | None = None) -> list[int]:
        rows = await self._all("SELECT g.id FROM games g WHERE g.status IN ('active', 'finished')"
                               f" AND g.told_version < g.version{_shard_sql(shards)}")
        return [r[0] for r in rows]

    async def mark_told(self, game_id: int, version: int) -> None:
        await self._tx([("UPDATE games SET told_version = MAX(told_version, ?) WHERE id = ?", (version, game_id))])

    async def history(self, *, guild_id: int | None, limit: int = 10, offset: int = 0) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id IS ? AND status = 'finished'"
            " ORDER BY finished_at DESC LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )
        games = [GameRow.from_row(r) for r in rows]
        for g in games:
            g.seats = await self.seats(g.id)
        return games

    async def user_stats(self, user_id: int, *, guild_id: int | None) -> dict[str, Any]:
        rows = await self._all(
            "SELECT g.title, g.result, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND s.is_ai = 0 AND g.status = 'finished' AND g.guild_id IS ?",
            (user_id, guild_id),
        )
        return user_stats(rows)

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        cols, params = [], []
        for key, value in fields.items():
            cols.append(f"{key} = ?")
            if key == "seed":
                value = str(value)  # decimal text: 128 bits do not fit SQLite's integers
            params.append(dumps(value) if key in JSON_FIELDS and value is not None else value)
        cols.append("updated_at = ?")
        params.append(now)
        await self._tx([(f"UPDATE games SET {', '.join(cols)} WHERE id = ?", (*params, game_id))])

    async def start(self, game_id: int, state: dict[str, Any], options: dict[str, Any], now: float) -> bool:
        def run(conn: sqlite3.Connection) -> bool:
            with Transaction(conn) as tx:
                cur = conn.execute(
                    "UPDATE games SET status = 'active', state = ?, options = ?, version = 0, updated_at = ?"
                    " WHERE id = ? AND status = 'lobby'",
                    (dumps(state), dumps(options), now, game_id),
                )
                tx.rollback = cur.rowcount != 1
                return not tx.rollback

        return await self._write(run)

    async def commit_action(
        self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
        action: dict[str, Any], events: list[dict[str, Any]], state: dict[str, Any], now: float,
        finished: dict[str, Any] | None = None, timers: list[tuple[str, str, float, dict]] | None = None,
        notify: bool = False,
    ) -> bool:
        new_version = expected_version + 1
        if finished is not None:
            update = (("UPDATE games SET state = ?, version = ?, updated_at = ?, status = 'finished', result = ?,"
                       " finished_at = ? WHERE id = ? AND version = ? AND status = 'active'"),
                      (dumps(state), new_version, now, dumps(finished), now, game_id, expected_version))
        else:
            update = (("UPDATE games SET state = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?"
                       " AND status = 'active'"),
                      (dumps(state), new_version, now, game_id, expected_version))
        logged = (game_id, new_version, seat, user_id, dumps(action), dumps(events), now)
        rows = None if timers is None else timer_rows(timers)

        def run(conn: sqlite3.Connection) -> bool:
            with Transaction(conn) as tx:
                if conn.execute(*update).rowcount != 1:
                    tx.rollback = True
                    return False
                conn.execute("INSERT INTO actions (game_id, seq, seat, user_id, action, events, at)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?)", logged)
                if rows is not None:
                    _write_timers(conn, game_id, new_version, rows)
            return True

        return await self._write(run)

    async def finish(self, game_id: int, status: str, now: float, result: dict[str, Any] | None = None) -> bool:
        def run(conn: sqlite3.Connection) -> bool:
            with Transaction(conn) as tx:
                cur = conn.execute(
                    "UPDATE games SET status = ?, result = ?, finished_at = ?, updated_at = ? WHERE id = ?"
                    " AND status IN ('lobby', 'active')",
                    (status, dumps(result) if result is not None else None, now, now, game_id),
                )
                if cur.rowcount != 1:
                    tx.rollback = True
                    return False
                conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
            return True

        return await self._write(run)

    async def actions(self, game_id: int, *, after: int = 0, limit: int | None = None,
                      newest_first: bool = False) -> list[dict[str, Any]]:
        order = "DESC" if newest_first else "ASC"
        sql = (f"SELECT seq, seat, user_id, action, events, at FROM actions WHERE game_id = ? AND seq > ?"
               f" ORDER BY seq {order}")
        params: tuple = (game_id, after)
        if limit is not None:
            sql += " LIMIT ?"
            params += (limit,)
        rows = await self._all(sql, params)
        return [
            {"seq": s, "seat": seat, "user_id": u, "action": json.loads(a), "events": json.loads(e), "at": at}
            for s, seat, u, a, e, at in rows
        ]

    async def action_count(self, game_id: int) -> int:
        (n,) = await self._one("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return n

    # -- seats ------------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[Seat]:
        return [_seat(r) for r in await self._all(_SEATS_SQL, (game_id,))]

    async def set_seats(self, game_id: int, seats: list[Seat], now: float) -> None:
        stmts: list[tuple[str, tuple]] = [("DELETE FROM seats WHERE game_id = ?", (game_id,))]
        for i, s in enumerate(seats):
            stmts.append(("INSERT INTO seats (game_id, seat, user_id, name, is_ai, left_at) VALUES (?, ?, ?, ?, ?, ?)",
                          (game_id, i, s.user_id, s.name, int(s.is_ai), s.left_at)))
        stmts.append(("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id)))
        await self._tx(stmts)

    async def seat_left(self, game_id: int, seat: int, now: float) -> None:
        await self._tx([("UPDATE seats SET left_at = ? WHERE game_id = ? AND seat = ?", (now, game_id, seat))])

    async def hand_seat(self, game_id: int, seat: int, user_id: int, name: str, now: float) -> bool:
        def run(conn: sqlite3.Connection) -> bool:
            with Transaction(conn) as tx:
                # One statement: the member must not hold another present seat of a running game.
                cur = conn.execute(
                    "UPDATE seats SET user_id = ?, name = ?, is_ai = 0, left_at = NULL WHERE game_id = ? AND seat = ?"
                    " AND EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'active')"
                    " AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.game_id = ? AND o.user_id = ? AND o.is_ai = 0"
                    " AND o.left_at IS NULL)", (user_id, name, game_id, seat, game_id, game_id, user_id))
                tx.rollback = cur.rowcount != 1
                if not tx.rollback:
                    conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
                return not tx.rollback

        return await self._write(run)

    # -- timers -----------------------------------------------------------------------------

    async def replace_timers(self, game_id: int, version: int, timers: list[tuple[str, str, float, dict]]) -> bool:
        rows = timer_rows(timers)

        def run(conn: sqlite3.Connection) -> bool:
            with Transaction(conn) as tx:
                now_at = conn.execute("SELECT version FROM games WHERE id = ? AND status = 'active'",
                                      (game_id,)).fetchone()
                if now_at is None or now_at[0] != version:
                    tx.rollback = True
                    return False
                _write_timers(conn, game_id, version, rows)
            return True

        return await self._write(run)

    async def timers(self, game_id: int) -> list[Timer]:
        rows = await self._all(f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ? ORDER BY due_at, id",
                               (game_id,))
        return [_timer(r) for r in rows]

    async def next_due(self, shards: Shards | None = None) -> float | None:
        (due,) = await self._one(
            "SELECT MIN(MAX(t.due_at, COALESCE(t.lease_until, 0))) FROM timers t JOIN games g ON g.id = t.game_id"
            f" WHERE 1 = 1{_shard_sql(shards)}")
        return due

    async def claim_timers(self, now: float, *, owner: str, lease: float, limit: int = 10,
                           shards: Shards | None = None) -> list[Timer]:
        sql = (f"UPDATE timers SET owner = ?, lease_until = ? WHERE id IN ("
               f"SELECT t.id FROM timers t JOIN games g ON g.id = t.game_id WHERE t.due_at <= ?"
               f" AND (t.lease_until IS NULL OR t.lease_until <= ?){_shard_sql(shards)}"
               f" ORDER BY t.due_at, t.id LIMIT ?) RETURNING {_TIMER_COLUMNS}")

        def run(conn: sqlite3.Connection) -> list[Any]:
            with Transaction(conn):
                return conn.execute(sql, (owner, now + lease, now, now, limit)).fetchall()

        rows = await self._write(run)
        return sorted((_timer(r) for r in rows), key=lambda t: (t.due_at, t.id))

    async def consume_timer(self, timer: Timer, *, rearm_at: float | None = None,
                            payload: dict[str, Any] | None = None) -> bool:
        mine = (timer.id, timer.owner, timer.version, timer.version)
        if rearm_at is None:
            done = (f"DELETE FROM timers WHERE id = ? AND owner IS ? AND {_AT_VERSION}", mine)
        else:
            done = (f"UPDATE timers SET due_at = ?, payload = ?, owner = NULL, lease_until = NULL WHERE id = ?"
                    f" AND owner IS ? AND {_AT_VERSION}",
                    (rearm_at, dumps(timer.payload if payload is None else payload), *mine))

        def run(conn: sqlite3.Connection) -> bool:
            with Transaction(conn):
                if conn.execute(*done).rowcount == 1:
                    return True
                conn.execute("UPDATE timers SET owner = NULL, lease_until = NULL WHERE id = ? AND owner IS ?",
                             (timer.id, timer.owner))
                return False

        return await self._write(run)

    async def retry_timer(self, timer: Timer, at: float) -> None:
        await self._tx([("UPDATE timers SET owner = NULL, lease_until = ? WHERE id = ? AND owner IS ?",
                         (at, timer.id, timer.owner))])

    # -- settings and preferences -----------------------------------------------------------

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return {}
        row = await self._one("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row[0]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._tx([("INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
                         " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                         (guild_id, dumps(settings)))])

    async def prefs(self, user_id: int) -> dict[str, bool]:
        row = await self._one("SELECT dm_panel, pings, dm_closed, digest FROM user_prefs WHERE user_id = ?",
                              (user_id,))
        dm, pings, closed, digest = row if row else (0, 1, 0, 0)
        return {"dm_panel": bool(dm), "pings": bool(pings), "dm_closed": bool(closed), "digest": bool(digest)}

    async def set_prefs(self, user_id: int, **values: bool) -> dict[str, bool]:
        current = await self.prefs(user_id)
        current.update({k: bool(v) for k, v in values.items() if k in current and k != "digest"})  # set_digest's
        await self._tx([(
            "INSERT INTO user_prefs (user_id, dm_panel, pings, dm_closed) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET dm_panel = excluded.dm_panel, pings = excluded.pings,"
            " dm_closed = excluded.dm_closed",
            (user_id, int(current["dm_panel"]), int(current["pings"]), int(current["dm_closed"])),
        )])
        return current

    async def away(self, after: float) -> dict[int, float]:
        rows = await self._all("SELECT user_id, until FROM user_away WHERE until > ?", (after,))
        return {r[0]: float(r[1]) for r in rows}

    async def set_away(self, user_id: int, until: float | None) -> None:
        if until is None:
            await self._tx([("DELETE FROM user_away WHERE user_id = ?", (user_id,))])
        else:
            await self._tx([("INSERT INTO user_away (user_id, until) VALUES (?, ?)"
                             " ON CONFLICT (user_id) DO UPDATE SET until = excluded.until", (user_id, float(until)))])

    async def dm_panel(self, game_id: int, user_id: int) -> tuple[int, int] | None:
        row = await self._one("SELECT channel_id, message_id FROM dm_panels WHERE game_id = ? AND user_id = ?",
                              (game_id, user_id))
        return (row[0], row[1]) if row else None

    async def set_dm_panel(self, game_id: int, user_id: int, channel_id: int, message_id: int) -> None:
        await self._tx([(
            "INSERT INTO dm_panels (game_id, user_id, channel_id, message_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id",
            (game_id, user_id, channel_id, message_id),
        )])

    # -- meta -------------------------------------------------------------------------------

    async def game_counts(self) -> dict[tuple[str, str], int]:
        rows = await self._all("SELECT title, status, COUNT(*) FROM games GROUP BY title, status")
        return {(title, status): n for title, status, n in rows}

    async def timer_counts(self, now: float, late: float) -> tuple[int, int, int]:
        scheduled, due, overdue = await self._one(
            "SELECT COUNT(*), COALESCE(SUM(due_at <= ?), 0), COALESCE(SUM(due_at <= ?), 0) FROM timers",
            (now, now - late))
        return scheduled, due, overdue

    async def meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._tx([("INSERT INTO meta (key, value) VALUES (?, ?)"
                         " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))])

    async def integrity(self) -> str:
        (result,) = await self._one("PRAGMA integrity_check")
        return result

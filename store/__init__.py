"""Persistence: games per channel, the action log, timers, settings and preferences, in SQLite
through aiosqlite.

Every applied action is written with its new snapshot in one transaction guarded by the game's
version (compare-and-swap): two racing clicks can never both apply, and a crash can never leave
half an action. WAL mode keeps readers off the writer's back; `synchronous=NORMAL` is atomic and
durable against a killed process (only a power cut can lose the last commits, never corrupt).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Self

import aiosqlite

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
LIVE = ("lobby", "active")


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or running."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_SEATS_SQL = "SELECT seat, user_id, name, is_ai, left_at FROM seats WHERE game_id = ? ORDER BY seat"


class _transaction:
    """`with _transaction(conn) as tx:` on the connection's thread: BEGIN IMMEDIATE, then
    COMMIT, or ROLLBACK if the block raised or set `tx.rollback`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.rollback = False

    def __enter__(self) -> Self:
        self.conn.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None or self.rollback:
            if self.conn.in_transaction:  # SQLite may have rolled back already (a full disk)
                self.conn.execute("ROLLBACK")
        else:
            self.conn.execute("COMMIT")


def _timer_rows(game_id: int, timers: list[tuple[str, str, float, dict]]) -> list[tuple]:
    return [(game_id, kind, ref, due, _dumps(payload)) for kind, ref, due, payload in timers]


def _write_timers(conn: sqlite3.Connection, game_id: int, rows: list[tuple]) -> None:
    """Replace a game's timers (inside a transaction, on the connection's thread)."""
    conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
    conn.executemany("INSERT INTO timers (game_id, kind, ref, due_at, payload) VALUES (?, ?, ?, ?, ?)", rows)


@dataclass
class Seat:
    seat: int
    user_id: int | None
    name: str
    is_ai: bool = False
    left_at: float | None = None

    @property
    def human(self) -> bool:
        return not self.is_ai and self.left_at is None and self.user_id is not None

    @property
    def ai_plays(self) -> bool:
        return self.is_ai or self.left_at is not None


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    title: str
    status: str
    host_id: int
    lang: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    lobby_message_id: int | None
    table_message_id: int | None
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    finished_at: float | None
    told_version: int = 0
    seats: list[Seat] = field(default_factory=list)

    _COLUMNS = (
        "id, guild_id, channel_id, title, status, host_id, lang, options, settings, seed, state, version, "
        "lobby_message_id, table_message_id, result, created_at, updated_at, finished_at, told_version"
    )

    @classmethod
    def from_row(cls, row: Iterable[Any]) -> "GameRow":
        r = list(row)
        for i in (7, 8):
            r[i] = json.loads(r[i]) if r[i] else {}
        for i in (10, 14):
            r[i] = json.loads(r[i]) if r[i] else None
        return cls(*r)

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and not s.is_ai and s.left_at is None:
                return s.seat
        return None

    @property
    def names(self) -> list[str]:
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat)]

    @property
    def live(self) -> bool:
        return self.status in LIVE


@dataclass
class Timer:
    id: int
    game_id: int
    kind: str
    ref: str
    due_at: float
    payload: dict[str, Any]


class Store:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        # One connection, so transactions must not interleave: writers take this lock.
        self._write = asyncio.Lock()

    # -- lifecycle --------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path) -> "Store":
        db = await aiosqlite.connect(str(path), isolation_level=None)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
            await db.execute_fetchall(f"PRAGMA {pragma}")
        store = cls(db)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    async def _all(self, sql: str, params: tuple = ()) -> list[Any]:
        """Rows of a query (the cursor is closed at once: an open cursor blocks COMMIT)."""
        return list(await self.db.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: tuple = ()) -> Any:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def migrate(self) -> int:
        """Run the numbered migrations newer than the database's `user_version`."""
        (current,) = await self._one("PRAGMA user_version")
        applied = current
        for path in sorted(MIGRATIONS.glob("*.sql")):
            number = int(path.name.split("_")[0])
            if number <= current:
                continue
            script = path.read_text(encoding="utf-8")
            async with self._write:
                await self.db.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
            applied = number
        return applied

    async def _in_thread(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run `fn(connection)` on the connection's own thread, in one hand-off. Each statement
        awaited on its own costs the event loop a future, a wake-up and a Cursor; a commit was
        eight of them, most of its cost at hundreds of actions a second (docs/PERFORMANCE.md).
        `_execute` and `_conn` are aiosqlite's internals: it is pinned exactly in requirements.txt."""
        db = self.db
        return await db._execute(lambda: fn(db._conn))

    async def _tx(self, statements: list[tuple[str, tuple]]) -> None:
        """The statements in one transaction, in one hand-off to the connection's thread."""

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                for sql, params in statements:
                    conn.execute(sql, params)

        async with self._write:
            await self._in_thread(run)

    # -- games ------------------------------------------------------------------------------

    async def create_lobby(
        self, *, guild_id: int | None, channel_id: int, title: str, host_id: int, host_name: str,
        lang: str, seed: int, settings: dict[str, Any], now: float,
    ) -> GameRow:
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = await self.db.execute(
                    "INSERT INTO games (guild_id, channel_id, title, status, host_id, lang, settings, seed, created_at,"
                    " updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, title, host_id, lang, _dumps(settings), seed, now, now),
                )
                game_id = cur.lastrowid
                await self.db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)", (game_id, host_id, host_name)
                )
            except sqlite3.IntegrityError:
                await self.db.execute("ROLLBACK")
                raise ChannelBusy() from None
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")
        game = await self.get(game_id)
        assert game is not None
        return game

    async def get(self, game_id: int) -> GameRow | None:
        def read(conn: sqlite3.Connection):
            rows = conn.execute(f"SELECT {GameRow._COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchall()
            seats = conn.execute(_SEATS_SQL, (game_id,)).fetchall() if rows else []
            return (rows[0] if rows else None), seats

        row, seats = await self._in_thread(read)
        if row is None:
            return None
        game = GameRow.from_row(row)
        game.seats = [Seat(s, u, n, bool(ai), left) for s, u, n, ai, left in seats]
        return game

    async def live_in(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        )
        return await self.get(row[0]) if row else None

    async def latest_in(self, channel_id: int) -> GameRow | None:
        row = await self._one("SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        return await self.get(row[0]) if row else None

    async def active_games(self) -> list[tuple[int, int]]:
        rows = await self._all("SELECT id, channel_id FROM games WHERE status IN ('lobby', 'active')")
        return [tuple(r) for r in rows]

    async def games_of_member(self, guild_id: int, user_id: int) -> list[int]:
        """Running games of a server in which the user holds a seat."""
        rows = await self._all(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE g.guild_id = ? AND g.status = 'active'"
            " AND s.user_id = ? AND s.is_ai = 0 AND s.left_at IS NULL", (guild_id, user_id))
        return [r[0] for r in rows]

    async def games_in_guild(self, guild_id: int) -> list[int]:
        """Running games of a server."""
        rows = await self._all("SELECT id FROM games WHERE guild_id = ? AND status = 'active'", (guild_id,))
        return [r[0] for r in rows]

    async def untold_games(self) -> list[int]:
        """Running or finished games with moves the channel was not told about (a crash came
        between the commit and the table update)."""
        rows = await self._all("SELECT id FROM games WHERE status IN ('active', 'finished') AND told_version < version")
        return [r[0] for r in rows]

    async def mark_told(self, game_id: int, version: int) -> None:
        await self._tx([("UPDATE games SET told_version = MAX(told_version, ?) WHERE id = ?", (version, game_id))])

    async def history(self, *, guild_id: int | None, limit: int = 10, offset: int = 0) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {GameRow._COLUMNS} FROM games WHERE guild_id IS ? AND status = 'finished'"
            " ORDER BY finished_at DESC LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )
        games = [GameRow.from_row(r) for r in rows]
        for g in games:
            g.seats = await self.seats(g.id)
        return games

    async def user_stats(self, user_id: int, *, guild_id: int | None) -> dict[str, Any]:
        """A player's finished games in one server (a server's stats never show another's)."""
        rows = await self._all(
            "SELECT g.title, g.result, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND s.is_ai = 0 AND g.status = 'finished' AND g.guild_id IS ?",
            (user_id, guild_id),
        )
        stats: dict[str, dict[str, int]] = {}
        for title, result, seat in rows:
            entry = stats.setdefault(title, {"played": 0, "won": 0})
            entry["played"] += 1
            places = (json.loads(result) if result else {}).get("places") or []
            if seat < len(places) and places[seat] == 1:
                entry["won"] += 1
        return stats

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        cols, params = [], []
        for key, value in fields.items():
            cols.append(f"{key} = ?")
            params.append(_dumps(value) if key in ("options", "settings", "state", "result") and value is not None else value)
        cols.append("updated_at = ?")
        params.append(now)
        await self._tx([(f"UPDATE games SET {', '.join(cols)} WHERE id = ?", (*params, game_id))])

    async def start(self, game_id: int, state: dict[str, Any], options: dict[str, Any], now: float) -> bool:
        """Lobby -> active, with the first snapshot. False if the lobby was no longer there."""
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = await self.db.execute(
                    "UPDATE games SET status = 'active', state = ?, options = ?, version = 0, updated_at = ?"
                    " WHERE id = ? AND status = 'lobby'",
                    (_dumps(state), _dumps(options), now, game_id),
                )
                ok = cur.rowcount == 1
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT" if ok else "ROLLBACK")
            return ok

    async def commit_action(
        self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
        action: dict[str, Any], events: list[dict[str, Any]], state: dict[str, Any], now: float,
        finished: dict[str, Any] | None = None, timers: list[tuple[str, str, float, dict]] | None = None,
    ) -> bool:
        """Append the action and write the new snapshot, only if the game is still at
        `expected_version`. `timers`, if given, replaces the game's deadline/reminder/AI timers
        in the same transaction. Returns False (and writes nothing) when another action won."""
        new_version = expected_version + 1
        if finished is not None:
            update = (("UPDATE games SET state = ?, version = ?, updated_at = ?, status = 'finished', result = ?,"
                       " finished_at = ? WHERE id = ? AND version = ? AND status = 'active'"),
                      (_dumps(state), new_version, now, _dumps(finished), now, game_id, expected_version))
        else:
            update = (("UPDATE games SET state = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?"
                       " AND status = 'active'"),
                      (_dumps(state), new_version, now, game_id, expected_version))
        logged = (game_id, new_version, seat, user_id, _dumps(action), _dumps(events), now)
        timer_rows = None if timers is None else _timer_rows(game_id, timers)

        def run(conn: sqlite3.Connection) -> bool:
            with _transaction(conn) as tx:
                if conn.execute(*update).rowcount != 1:
                    tx.rollback = True
                    return False
                conn.execute(
                    "INSERT INTO actions (game_id, seq, seat, user_id, action, events, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    logged,
                )
                if timer_rows is not None:
                    _write_timers(conn, game_id, timer_rows)
            return True

        async with self._write:
            return await self._in_thread(run)

    async def finish(self, game_id: int, status: str, now: float, result: dict[str, Any] | None = None) -> bool:
        """End a live game without an action (cancelled, abandoned, ended by the host)."""
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            cur = await self.db.execute(
                "UPDATE games SET status = ?, result = ?, finished_at = ?, updated_at = ? WHERE id = ?"
                " AND status IN ('lobby', 'active')",
                (status, _dumps(result) if result is not None else None, now, now, game_id),
            )
            ok = cur.rowcount == 1
            if ok:
                await self.db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
            await self.db.execute("COMMIT")
            return ok

    async def actions(self, game_id: int, *, after: int = 0, limit: int | None = None, newest_first: bool = False):
        order = "DESC" if newest_first else "ASC"
        sql = f"SELECT seq, seat, user_id, action, events, at FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq {order}"
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
        rows = await self._all(_SEATS_SQL, (game_id,))
        return [Seat(s, u, n, bool(ai), left) for s, u, n, ai, left in rows]

    async def set_seats(self, game_id: int, seats: list[Seat], now: float) -> None:
        """Replace the lobby's seat list (join, leave, add or remove an AI, shuffle)."""
        stmts: list[tuple[str, tuple]] = [("DELETE FROM seats WHERE game_id = ?", (game_id,))]
        for i, s in enumerate(seats):
            stmts.append(
                ("INSERT INTO seats (game_id, seat, user_id, name, is_ai, left_at) VALUES (?, ?, ?, ?, ?, ?)",
                 (game_id, i, s.user_id, s.name, int(s.is_ai), s.left_at))
            )
        stmts.append(("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id)))
        await self._tx(stmts)

    async def seat_left(self, game_id: int, seat: int, now: float) -> None:
        await self._tx([("UPDATE seats SET left_at = ? WHERE game_id = ? AND seat = ?", (now, game_id, seat))])

    # -- timers -----------------------------------------------------------------------------

    async def replace_timers(self, game_id: int, timers: list[tuple[str, str, float, dict]]) -> None:
        rows = _timer_rows(game_id, timers)

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                _write_timers(conn, game_id, rows)

        async with self._write:
            await self._in_thread(run)

    async def set_timer(self, game_id: int, kind: str, ref: str, due: float, payload: dict | None = None) -> None:
        await self._tx([(
            "INSERT INTO timers (game_id, kind, ref, due_at, payload) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload",
            (game_id, kind, ref, due, _dumps(payload or {})),
        )])

    async def delete_timer(self, timer_id: int) -> None:
        await self._tx([("DELETE FROM timers WHERE id = ?", (timer_id,))])

    async def timers(self, game_id: int) -> list[Timer]:
        rows = await self._all(
            "SELECT id, game_id, kind, ref, due_at, payload FROM timers WHERE game_id = ? ORDER BY due_at", (game_id,)
        )
        return [Timer(i, g, k, r, d, json.loads(p)) for i, g, k, r, d, p in rows]

    async def next_due(self) -> float | None:
        (due,) = await self._one("SELECT MIN(due_at) FROM timers")
        return due

    async def due_timers(self, now: float, limit: int = 50) -> list[Timer]:
        rows = await self._all(
            "SELECT id, game_id, kind, ref, due_at, payload FROM timers WHERE due_at <= ? ORDER BY due_at, id LIMIT ?",
            (now, limit),
        )
        return [Timer(i, g, k, r, d, json.loads(p)) for i, g, k, r, d, p in rows]

    # -- figures for the metrics endpoint (read-only) ---------------------------------------

    async def game_counts(self) -> dict[tuple[str, str], int]:
        """How many games there are, by (title, status)."""
        rows = await self._all("SELECT title, status, COUNT(*) FROM games GROUP BY title, status")
        return {(title, status): n for title, status, n in rows}

    async def timer_counts(self, now: float, late: float) -> tuple[int, int, int]:
        """Timers (scheduled, due by `now`, due more than `late` seconds before `now`)."""
        (scheduled, due, overdue) = await self._one(
            "SELECT COUNT(*), COALESCE(SUM(due_at <= ?), 0), COALESCE(SUM(due_at <= ?), 0) FROM timers",
            (now, now - late),
        )
        return scheduled, due, overdue

    # -- settings and preferences -----------------------------------------------------------

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return {}
        row = await self._one("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row[0]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._tx([(
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
            (guild_id, _dumps(settings)),
        )])

    async def prefs(self, user_id: int) -> dict[str, bool]:
        row = await self._one("SELECT dm_panel, pings, dm_closed FROM user_prefs WHERE user_id = ?", (user_id,))
        dm, pings, closed = row if row else (0, 1, 0)
        return {"dm_panel": bool(dm), "pings": bool(pings), "dm_closed": bool(closed)}

    async def set_prefs(self, user_id: int, **values: bool) -> dict[str, bool]:
        current = await self.prefs(user_id)
        current.update({k: bool(v) for k, v in values.items() if k in current})
        await self._tx([(
            "INSERT INTO user_prefs (user_id, dm_panel, pings, dm_closed) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET dm_panel = excluded.dm_panel, pings = excluded.pings,"
            " dm_closed = excluded.dm_closed",
            (user_id, int(current["dm_panel"]), int(current["pings"]), int(current["dm_closed"])),
        )])
        return current

    async def dm_panel(self, game_id: int, user_id: int) -> tuple[int, int] | None:
        row = await self._one("SELECT channel_id, message_id FROM dm_panels WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        return (row[0], row[1]) if row else None

    async def set_dm_panel(self, game_id: int, user_id: int, channel_id: int, message_id: int) -> None:
        await self._tx([(
            "INSERT INTO dm_panels (game_id, user_id, channel_id, message_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id",
            (game_id, user_id, channel_id, message_id),
        )])

    async def drop_dm_panel(self, game_id: int, user_id: int) -> None:
        await self._tx([("DELETE FROM dm_panels WHERE game_id = ? AND user_id = ?", (game_id, user_id))])

    # -- meta -------------------------------------------------------------------------------

    async def meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._tx([(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )])

    async def integrity(self) -> str:
        (result,) = await self._one("PRAGMA integrity_check")
        return result

"""The store contract in SQL, written once for both backends (`SQLStore`). A backend gives it a
`Database` (store/database.py) and the few statements where the two dialects differ: reading a
game with its seats in one statement, writing a game's timers, the one-statement commit of a move,
claiming timers, and the integrity check."""

from __future__ import annotations

import abc
from typing import Any

from .base import Store
from .database import Database, Row, Statements
from .errors import ChannelBusy, Duplicate, Lost
from .ratings import Judged, Player, Skill, Standing, book
from .rows import GAME_COLUMNS, GameRow, Seat, Shards, Timer, loads, timer_rows, user_stats

#: A timer's columns; its version is its game's `planned_at` (every row of a game is planned at once,
#: and a commit that leaves a row as it was does not write it: migration 0012).
TIMER_COLUMNS = ("timers.id, timers.game_id, timers.kind, timers.ref, timers.due_at, timers.payload,"
                 " (SELECT g.planned_at FROM games g WHERE g.id = timers.game_id), timers.owner, timers.lease_until")
SEATS_SQL = "SELECT seat, user_id, name, is_ai, left_at FROM seats WHERE game_id = $1 ORDER BY seat"
#: A claimed timer is still the claimer's, its game's timers are still planned for the version
#: it was claimed at, and a running game is still at that version.
MINE_AT_VERSION = ("id = $1 AND owner IS NOT DISTINCT FROM $2 AND EXISTS (SELECT 1 FROM games g"
                   " WHERE g.id = timers.game_id AND g.planned_at = $3 AND (g.status <> 'active' OR g.version = $3))")


def seat_of(row: Row) -> Seat:
    return Seat(row[0], row[1], row[2], bool(row[3]), None if row[4] is None else float(row[4]))


def timer_of(row: Row) -> Timer:
    i, g, k, r, due, payload, v, owner, lease = row
    # float(): SQLite hands a REAL that holds a whole number back as an int through RETURNING.
    return Timer(i, g, k, r, float(due), loads(payload), v, owner, None if lease is None else float(lease))


def shard_sql(shards: Shards | None) -> str:
    """Discord's shard rule for a game's guild (`Shards.holds`), as an SQL condition on `g`."""
    if shards is None:
        return ""
    ids = ", ".join(str(int(i)) for i in shards.ids) or "NULL"
    return f" AND ((COALESCE(g.guild_id, 0) >> 22) % {int(shards.count)}) IN ({ids})"


def entry_of(row: Row) -> dict[str, Any]:
    return {"seq": row[0], "seat": row[1], "user_id": row[2], "action": loads(row[3]), "events": loads(row[4]),
            "at": row[5]}


class SQLStore(Store):
    """Every method of the contract that both backends run the same way."""

    #: A game's row and, last, its seats as one JSON array of [seat, user_id, name, is_ai, left_at].
    GET_SQL: str

    def __init__(self, db: Database) -> None:
        super().__init__()
        self.db = db

    # -- what each backend says in its own dialect -------------------------------------------

    @abc.abstractmethod
    async def write_timers(self, tx: Statements, game_id: int, version: int, rows: list[tuple]) -> None:
        """Make the game's timers exactly `rows` (kind, ref, due, payload JSON), planned for
        `version` (the game's `planned_at`), inside a transaction. A timer that stays (same kind and ref) keeps its row and
        its claim: the process firing it is still at work, and nobody else may pick it up."""

    async def locked_version(self, tx: Statements, game_id: int) -> int | None:
        """The running game's version, read in a transaction so that a move racing it waits."""
        row = await tx.fetchrow("SELECT version FROM games WHERE id = $1 AND status = 'active'", game_id)
        return None if row is None else row[0]

    async def close(self) -> None:
        await self.db.close()

    # -- games ------------------------------------------------------------------------------

    async def create_lobby(self, *, guild_id: int | None, channel_id: int, title: str, host_id: int,
                           host_name: str, lang: str, seed: int, settings: dict[str, Any], now: float) -> GameRow:
        try:
            async with self.db.transaction() as tx:
                row = await tx.fetchrow(
                    "INSERT INTO games (guild_id, channel_id, title, status, host_id, lang, settings, seed, created_at,"
                    " updated_at) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $8) RETURNING id",
                    guild_id, channel_id, title, host_id, lang, settings, seed, now)
                assert row is not None
                await tx.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES ($1, 0, $2, $3)",
                                 row[0], host_id, host_name)
        except Duplicate:  # the one-live-game-per-channel index
            raise ChannelBusy() from None
        game = await self.get(row[0])
        assert game is not None
        return game

    async def get(self, game_id: int) -> GameRow | None:
        row = await self.db.fetchrow(self.GET_SQL, game_id)
        if row is None:
            return None
        game = GameRow.from_row(row[:-1])
        game.seats = [seat_of(s) for s in loads(row[-1]) or []]
        return game

    async def _game_where(self, sql: str, *params: Any) -> GameRow | None:
        row = await self.db.fetchrow(sql, *params)
        return await self.get(row[0]) if row else None

    async def live_in(self, channel_id: int) -> GameRow | None:
        return await self._game_where("SELECT id FROM games WHERE channel_id = $1 AND status IN ('lobby', 'active')",
                                      channel_id)

    async def latest_in(self, channel_id: int) -> GameRow | None:
        return await self._game_where("SELECT id FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
                                      channel_id)

    async def _ids(self, sql: str, *params: Any) -> list[int]:
        return [r[0] for r in await self.db.fetch(sql, *params)]

    async def active_games(self, shards: Shards | None = None) -> list[tuple[int, int]]:
        rows = await self.db.fetch("SELECT g.id, g.channel_id FROM games g WHERE g.status IN ('lobby', 'active')"
                                   f"{shard_sql(shards)} ORDER BY g.id")
        return [(r[0], r[1]) for r in rows]

    async def games_of_member(self, guild_id: int, user_id: int, status: str = "active") -> list[int]:
        return await self._ids(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE g.guild_id = $1 AND g.status = $3"
            " AND s.user_id = $2 AND NOT s.is_ai AND s.left_at IS NULL ORDER BY g.id", guild_id, user_id, status)

    async def games_of_user(self, user_id: int) -> list[int]:
        return await self._ids(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE g.status = 'active'"
            " AND s.user_id = $1 AND NOT s.is_ai AND s.left_at IS NULL ORDER BY g.id", user_id)

    async def games_in_guild(self, guild_id: int) -> list[int]:
        return await self._ids("SELECT id FROM games WHERE guild_id = $1 AND status = 'active' ORDER BY id", guild_id)

    async def untold_games(self, shards: Shards | None = None) -> list[int]:
        return await self._ids("SELECT g.id FROM games g WHERE g.status IN ('active', 'finished')"
                               f" AND g.told_version < g.version{shard_sql(shards)} ORDER BY g.id")

    async def mark_told(self, game_id: int, version: int) -> None:
        await self.db.execute("UPDATE games SET told_version = $1 WHERE id = $2 AND told_version < $1",
                              version, game_id)

    async def history(self, *, guild_id: int | None, limit: int = 10, offset: int = 0) -> list[GameRow]:
        rows = await self.db.fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id IS NOT DISTINCT FROM $1 AND status = 'finished'"
            " ORDER BY finished_at DESC LIMIT $2 OFFSET $3", guild_id, limit, offset)
        games = [GameRow.from_row(r) for r in rows]
        for g in games:
            g.seats = await self.seats(g.id)
        return games

    async def user_stats(self, user_id: int, *, guild_id: int | None) -> dict[str, Any]:
        rows = await self.db.fetch(
            "SELECT g.title, g.result, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = $1 AND NOT s.is_ai AND g.status = 'finished'"
            " AND g.guild_id IS NOT DISTINCT FROM $2", user_id, guild_id)
        return user_stats([tuple(r) for r in rows])

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        cols, params = [], []
        for key, value in fields.items():
            params.append(value)
            cols.append(f"{key} = ${len(params)}")
        params += [now, game_id]
        await self.db.execute(f"UPDATE games SET {', '.join(cols + [f'updated_at = ${len(params) - 1}'])}"
                              f" WHERE id = ${len(params)}", *params)

    async def start(self, game_id: int, state: dict[str, Any], options: dict[str, Any], now: float) -> bool:
        return await self.db.execute(
            "UPDATE games SET status = 'active', state = $1, options = $2, version = 0, updated_at = $3"
            " WHERE id = $4 AND status = 'lobby'", state, options, now, game_id) == 1

    async def undo_action(self, game_id: int, *, version: int, state: dict[str, Any], now: float,
                          timers: list[tuple[str, str, float, dict]], notify: bool = False,
                          clock: dict[str, Any] | None = None) -> bool:
        rows = timer_rows(timers)
        try:
            async with self.db.transaction() as tx:
                if await self.locked_version(tx, game_id) != version:
                    raise Lost()
                moved = await tx.execute(
                    "INSERT INTO undone_actions (game_id, seq, seat, user_id, action, events, at, undone_at,"
                    " undone_seq) SELECT game_id, seq, seat, user_id, action, events, at, $3, $2 + 1 FROM actions"
                    " WHERE game_id = $1 AND seq = $2", game_id, version, now)
                if moved != 1:
                    raise Lost()
                await tx.execute("DELETE FROM actions WHERE game_id = $1 AND seq = $2", game_id, version)
                await tx.execute("UPDATE games SET state = $1, version = $2, updated_at = $3 WHERE id = $4",
                                 state, version + 1, now, game_id)
                if clock is not None:
                    await tx.execute("UPDATE games SET clock = $1 WHERE id = $2", clock, game_id)
                await self.write_timers(tx, game_id, version + 1, rows)
                if notify:  # the owner drops its copy and tells its channel (delivered at the commit)
                    await self.notice(tx, game_id)
        except Lost:
            return False
        return True

    async def notice(self, tx: Statements, game_id: int) -> None:
        """Tell the other processes, at the commit, that the game moved (PostgreSQL only: an
        SQLite file has one writer)."""

    async def undone(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self.db.fetch("SELECT seq, seat, user_id, action, events, at, undone_at, undone_seq"
                                   " FROM undone_actions WHERE game_id = $1 ORDER BY seq", game_id)
        return [{**entry_of(r), "undone_at": r[6], "undone_seq": r[7]} for r in rows]

    async def finish(self, game_id: int, status: str, now: float, result: dict[str, Any] | None = None) -> bool:
        try:
            async with self.db.transaction() as tx:
                done = await tx.execute(
                    "UPDATE games SET status = $1, result = $2, finished_at = $3, updated_at = $3 WHERE id = $4"
                    " AND status IN ('lobby', 'active')", status, result, now, game_id)
                if done != 1:
                    raise Lost()
                await tx.execute("DELETE FROM timers WHERE game_id = $1", game_id)
        except Lost:
            return False
        return True

    async def actions(self, game_id: int, *, after: int = 0, limit: int | None = None,
                      newest_first: bool = False, through: int | None = None) -> list[dict[str, Any]]:
        sql = "SELECT seq, seat, user_id, action, events, at FROM actions WHERE game_id = $1 AND seq > $2"
        params: tuple = (game_id, after)
        if through is not None:
            params += (through,)
            sql += f" AND seq <= ${len(params)}"
        sql += f" ORDER BY seq {'DESC' if newest_first else 'ASC'}"
        if limit is not None:
            params += (limit,)
            sql += f" LIMIT ${len(params)}"
        return [entry_of(r) for r in await self.db.fetch(sql, *params)]

    async def action_count(self, game_id: int) -> int:
        row = await self.db.fetchrow("SELECT COUNT(*) FROM actions WHERE game_id = $1", game_id)
        assert row is not None
        return row[0]

    # -- seats ------------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[Seat]:
        return [seat_of(r) for r in await self.db.fetch(SEATS_SQL, game_id)]

    async def set_seats(self, game_id: int, seats: list[Seat], now: float) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("DELETE FROM seats WHERE game_id = $1", game_id)
            for i, s in enumerate(seats):
                await tx.execute("INSERT INTO seats (game_id, seat, user_id, name, is_ai, left_at)"
                                 " VALUES ($1, $2, $3, $4, $5, $6)", game_id, i, s.user_id, s.name, bool(s.is_ai),
                                 s.left_at)
            await tx.execute("UPDATE games SET updated_at = $1 WHERE id = $2", now, game_id)

    async def seat_left(self, game_id: int, seat: int, now: float) -> None:
        await self.db.execute("UPDATE seats SET left_at = $1 WHERE game_id = $2 AND seat = $3", now, game_id, seat)

    async def hand_seat(self, game_id: int, seat: int, user_id: int, name: str, now: float) -> bool:
        try:
            async with self.db.transaction() as tx:
                # One statement: the member must not hold another present seat of a running game.
                done = await tx.execute(
                    "UPDATE seats SET user_id = $1, name = $2, is_ai = FALSE, left_at = NULL WHERE game_id = $3"
                    " AND seat = $4 AND EXISTS (SELECT 1 FROM games WHERE id = $3 AND status = 'active')"
                    " AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.game_id = $3 AND o.user_id = $1 AND NOT o.is_ai"
                    " AND o.left_at IS NULL)", user_id, name, game_id, seat)
                if done != 1:
                    raise Lost()
                await tx.execute("UPDATE games SET updated_at = $1 WHERE id = $2", now, game_id)
        except Lost:
            return False
        return True

    # -- timers -----------------------------------------------------------------------------

    async def replace_timers(self, game_id: int, version: int, timers: list[tuple[str, str, float, dict]],
                             clock: dict[str, Any] | None = None) -> bool:
        rows = timer_rows(timers)
        try:
            async with self.db.transaction() as tx:
                if await self.locked_version(tx, game_id) != version:
                    raise Lost()
                await self.write_timers(tx, game_id, version, rows)
                if clock is not None:
                    await tx.execute("UPDATE games SET clock = $1 WHERE id = $2", clock, game_id)
        except Lost:
            return False
        return True

    async def timers(self, game_id: int) -> list[Timer]:
        rows = await self.db.fetch(f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = $1 ORDER BY due_at, id",
                                   game_id)
        return [timer_of(r) for r in rows]

    async def next_due(self, shards: Shards | None = None) -> float | None:
        row = await self.db.fetchrow(
            "SELECT MIN(CASE WHEN t.lease_until > t.due_at THEN t.lease_until ELSE t.due_at END) FROM timers t"
            f" JOIN games g ON g.id = t.game_id WHERE 1 = 1{shard_sql(shards)}")
        return None if row is None or row[0] is None else float(row[0])

    async def consume_timer(self, timer: Timer, *, rearm_at: float | None = None,
                            payload: dict[str, Any] | None = None) -> bool:
        mine = (timer.id, timer.owner, timer.version)
        async with self.db.transaction() as tx:
            if rearm_at is None:
                done = await tx.execute(f"DELETE FROM timers WHERE {MINE_AT_VERSION}", *mine)
            else:
                done = await tx.execute(
                    f"UPDATE timers SET due_at = $4, payload = $5, owner = NULL, lease_until = NULL"
                    f" WHERE {MINE_AT_VERSION}", *mine, rearm_at, timer.payload if payload is None else payload)
            if done == 1:
                return True
            await tx.execute("UPDATE timers SET owner = NULL, lease_until = NULL WHERE id = $1"
                             " AND owner IS NOT DISTINCT FROM $2", timer.id, timer.owner)
            return False

    async def retry_timer(self, timer: Timer, at: float) -> None:
        await self.db.execute("UPDATE timers SET owner = NULL, lease_until = $1 WHERE id = $2"
                              " AND owner IS NOT DISTINCT FROM $3", at, timer.id, timer.owner)

    # -- ratings (store/ratings/book.py) -------------------------------------------------------

    async def lock_ratings(self, tx: Statements) -> None:
        """Keep rating transactions apart (two games finishing at once must not both read a
        player's old rating). SQLite's transactions take the one write lock at BEGIN already."""

    async def rate_game(self, game: GameRow, now: float) -> Judged | None:
        return await book.rate_game(self, game, now)

    async def judged(self, game_id: int) -> Judged | None:
        return await book.judged(self, game_id)

    async def leaderboard(self, scope: int, title: str, *, offset: int = 0,
                          limit: int = 10) -> tuple[list[Standing], int]:
        return await book.board(self, scope, title, offset=offset, limit=limit)

    async def standing(self, scope: int, title: str, player: Player) -> Standing | None:
        return await book.standing(self, scope, title, player)

    async def rating_history(self, scope: int, title: str, player: Player, limit: int = 200) -> list[Skill]:
        return await book.history(self, scope, title, player, limit)

    async def rated_titles(self, scope: int, player: Player) -> list[str]:
        return await book.titles_of(self, scope, player)

    # -- settings and preferences -----------------------------------------------------------

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return {}
        row = await self.db.fetchrow("SELECT settings FROM guild_settings WHERE guild_id = $1", guild_id)
        return loads(row[0]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self.db.execute("INSERT INTO guild_settings (guild_id, settings) VALUES ($1, $2)"
                              " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings", guild_id, settings)

    async def prefs(self, user_id: int) -> dict[str, bool]:
        row = await self.db.fetchrow("SELECT dm_panel, pings, dm_closed, digest FROM user_prefs WHERE user_id = $1",
                                     user_id)
        dm, pings, closed, digest = tuple(row) if row else (False, True, False, False)
        return {"dm_panel": bool(dm), "pings": bool(pings), "dm_closed": bool(closed), "digest": bool(digest)}

    async def set_prefs(self, user_id: int, **values: bool) -> dict[str, bool]:
        current = await self.prefs(user_id)
        current.update({k: bool(v) for k, v in values.items() if k in current and k != "digest"})  # set_digest's
        await self.db.execute(
            "INSERT INTO user_prefs (user_id, dm_panel, pings, dm_closed) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (user_id) DO UPDATE SET dm_panel = excluded.dm_panel, pings = excluded.pings,"
            " dm_closed = excluded.dm_closed", user_id, current["dm_panel"], current["pings"], current["dm_closed"])
        return current

    async def set_digest(self, user_id: int, on: bool, lang: str) -> dict[str, bool]:
        await self.db.execute("INSERT INTO user_prefs (user_id, digest, digest_lang) VALUES ($1, $2, $3)"
                              " ON CONFLICT (user_id) DO UPDATE SET digest = excluded.digest,"
                              " digest_lang = excluded.digest_lang", user_id, on, lang)
        return await self.prefs(user_id)

    async def digest_users(self, before: float) -> list[tuple[int, str]]:
        rows = await self.db.fetch("SELECT user_id, digest_lang FROM user_prefs WHERE digest"
                                   " AND (digest_at IS NULL OR digest_at <= $1) ORDER BY user_id", before)
        return [(r[0], r[1]) for r in rows]

    async def claim_digest(self, user_id: int, now: float, every: float) -> bool:
        return await self.db.execute("UPDATE user_prefs SET digest_at = $1 WHERE user_id = $2 AND digest"
                                     " AND (digest_at IS NULL OR digest_at <= $3)", now, user_id, now - every) == 1

    async def quiet(self, user_ids: list[int]) -> dict[int, tuple[str | None, str | None]]:
        if not user_ids:
            return {}
        marks = ", ".join(f"${i + 1}" for i in range(len(user_ids)))
        rows = await self.db.fetch(f"SELECT user_id, quiet, tz FROM user_prefs WHERE user_id IN ({marks})", *user_ids)
        return {r[0]: (r[1], r[2]) for r in rows}

    async def set_quiet(self, user_id: int, quiet: str | None, tz: str | None) -> None:
        await self.db.execute("INSERT INTO user_prefs (user_id, quiet, tz) VALUES ($1, $2, $3)"
                              " ON CONFLICT (user_id) DO UPDATE SET quiet = excluded.quiet,"
                              " tz = COALESCE(excluded.tz, user_prefs.tz)", user_id, quiet, tz)

    async def langs(self, user_ids: list[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        marks = ", ".join(f"${i + 1}" for i in range(len(user_ids)))
        rows = await self.db.fetch(f"SELECT user_id, lang FROM user_prefs WHERE user_id IN ({marks})"
                                   " AND lang IS NOT NULL", *user_ids)
        return {r[0]: r[1] for r in rows}

    async def set_lang(self, user_id: int, lang: str) -> None:
        await self.db.execute("INSERT INTO user_prefs (user_id, lang) VALUES ($1, $2)"
                              " ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang", user_id, lang)

    async def away(self, after: float) -> dict[int, float]:
        rows = await self.db.fetch("SELECT user_id, until FROM user_away WHERE until > $1", after)
        return {r[0]: float(r[1]) for r in rows}

    async def set_away(self, user_id: int, until: float | None) -> None:
        if until is None:
            await self.db.execute("DELETE FROM user_away WHERE user_id = $1", user_id)
        else:
            await self.db.execute("INSERT INTO user_away (user_id, until) VALUES ($1, $2)"
                                  " ON CONFLICT (user_id) DO UPDATE SET until = excluded.until", user_id, float(until))

    async def dm_panel(self, game_id: int, user_id: int) -> tuple[int, int] | None:
        row = await self.db.fetchrow("SELECT channel_id, message_id FROM dm_panels WHERE game_id = $1"
                                     " AND user_id = $2", game_id, user_id)
        return (row[0], row[1]) if row else None

    async def set_dm_panel(self, game_id: int, user_id: int, channel_id: int, message_id: int) -> None:
        await self.db.execute(
            "INSERT INTO dm_panels (game_id, user_id, channel_id, message_id) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id", game_id, user_id, channel_id, message_id)

    # -- meta -------------------------------------------------------------------------------

    async def game_counts(self) -> dict[tuple[str, str], int]:
        rows = await self.db.fetch("SELECT title, status, COUNT(*) FROM games GROUP BY title, status")
        return {(r[0], r[1]): r[2] for r in rows}

    async def timer_counts(self, now: float, late: float) -> tuple[int, int, int]:
        row = await self.db.fetchrow(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE due_at <= $1), COUNT(*) FILTER (WHERE due_at <= $2) FROM timers",
            now, now - late)
        assert row is not None
        return row[0], row[1], row[2]

    async def meta(self, key: str) -> str | None:
        row = await self.db.fetchrow("SELECT value FROM meta WHERE key = $1", key)
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.db.execute("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET"
                              " value = excluded.value", key, value)

"""What the SQLite backend keeps for players over hours (issue 19): taking back a move and the
daily digest's bookkeeping. A mixin of `SQLiteStore` (which
gives it `_write`, `_all`), kept apart so the backend's file keeps one job."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .rows import dumps, timer_rows
from .sqlite_conn import Transaction


class UndoDigestMixin:
    # From `SQLiteStore`: the timer writer.
    _timers_to: Any
    _write: Any
    _all: Any
    prefs: Any
    _tx: Any

    async def undo_action(self, game_id: int, *, version: int, state: dict[str, Any], now: float,
                          timers: list[tuple[str, str, float, dict]], notify: bool = False) -> bool:
        # `notify` is for processes sharing a PostgreSQL database; an SQLite file has one writer.
        rows = timer_rows(timers)

        def run(conn: sqlite3.Connection) -> bool:
            with Transaction(conn) as tx:
                moved = conn.execute(
                    "INSERT INTO undone_actions (game_id, seq, seat, user_id, action, events, at, undone_at, undone_seq)"
                    " SELECT a.game_id, a.seq, a.seat, a.user_id, a.action, a.events, a.at, ?, ? FROM actions a"
                    " JOIN games g ON g.id = a.game_id WHERE a.game_id = ? AND a.seq = ? AND g.version = ?"
                    " AND g.status = 'active'", (now, version + 1, game_id, version, version)).rowcount
                if moved != 1:
                    tx.rollback = True
                    return False
                conn.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, version))
                conn.execute("UPDATE games SET state = ?, version = ?, updated_at = ? WHERE id = ?",
                             (dumps(state), version + 1, now, game_id))
                self._timers_to(conn, game_id, version + 1, rows)
            return True

        return await self._write(run)

    async def undone(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self._all("SELECT seq, seat, user_id, action, events, at, undone_at, undone_seq FROM undone_actions"
                               " WHERE game_id = ? ORDER BY seq", (game_id,))
        return [{"seq": s, "seat": seat, "user_id": u, "action": json.loads(a), "events": json.loads(e), "at": at,
                 "undone_at": gone, "undone_seq": back} for s, seat, u, a, e, at, gone, back in rows]

    async def set_digest(self, user_id: int, on: bool, lang: str) -> dict[str, bool]:
        await self._tx([("INSERT INTO user_prefs (user_id, digest, digest_lang) VALUES (?, ?, ?)"
                         " ON CONFLICT (user_id) DO UPDATE SET digest = excluded.digest,"
                         " digest_lang = excluded.digest_lang", (user_id, int(on), lang))])
        return await self.prefs(user_id)

    async def digest_users(self, before: float) -> list[tuple[int, str]]:
        rows = await self._all("SELECT user_id, digest_lang FROM user_prefs WHERE digest = 1"
                               " AND (digest_at IS NULL OR digest_at <= ?) ORDER BY user_id", (before,))
        return [(r[0], r[1]) for r in rows]

    async def claim_digest(self, user_id: int, now: float, every: float) -> bool:
        def run(conn: sqlite3.Connection) -> bool:
            with Transaction(conn):
                return conn.execute("UPDATE user_prefs SET digest_at = ? WHERE user_id = ? AND digest = 1"
                                    " AND (digest_at IS NULL OR digest_at <= ?)",
                                    (now, user_id, now - every)).rowcount == 1

        return await self._write(run)

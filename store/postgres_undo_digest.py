"""What the PostgreSQL backend keeps for players over hours (issue 19): taking back a move and
the daily digest's bookkeeping. A mixin of `PostgresStore` (which gives it `_write`, `_cas`,
`_all`), kept apart so the backend's file keeps one job."""

from __future__ import annotations

from typing import Any

import asyncpg

from .listen import NOTICE_SQL, NOTICES
from .rows import timer_rows


class UndoDigestMixin:
    # From `PostgresStore`: the timer writer, and the exception that makes `_cas` roll back.
    _timers_to: Any
    _lost: Any
    _write: Any
    _cas: Any
    _all: Any
    prefs: Any
    _tx: Any

    async def undo_action(self, game_id: int, *, version: int, state: dict[str, Any], now: float,
                          timers: list[tuple[str, str, float, dict]], notify: bool = False) -> bool:
        rows = timer_rows(timers)

        async def run(conn: asyncpg.Connection) -> None:
            # FOR UPDATE: a move racing the undo waits for it, then loses its compare-and-swap.
            at = await conn.fetchval("SELECT version FROM games WHERE id = $1 AND status = 'active' FOR UPDATE",
                                     game_id)
            if at != version:
                raise self._lost()
            moved = await conn.execute(
                "INSERT INTO undone_actions (game_id, seq, seat, user_id, action, events, at, undone_at, undone_seq)"
                " SELECT game_id, seq, seat, user_id, action, events, at, $3, $2 + 1 FROM actions WHERE game_id = $1"
                " AND seq = $2", game_id, version, now)
            if moved != "INSERT 0 1":
                raise self._lost()
            await conn.execute("DELETE FROM actions WHERE game_id = $1 AND seq = $2", game_id, version)
            await conn.execute("UPDATE games SET state = $1, version = $2, updated_at = $3 WHERE id = $4",
                               state, version + 1, now, game_id)
            await self._timers_to(conn, game_id, version + 1, rows)
            if notify:  # the owner drops its copy and tells its channel (delivered at the commit)
                await conn.execute(NOTICE_SQL, NOTICES, game_id)

        return await self._cas(run)

    async def undone(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self._all("SELECT seq, seat, user_id, action, events, at, undone_at, undone_seq FROM undone_actions"
                               " WHERE game_id = $1 ORDER BY seq", game_id)
        return [{"seq": r[0], "seat": r[1], "user_id": r[2], "action": r[3], "events": r[4], "at": r[5],
                 "undone_at": r[6], "undone_seq": r[7]} for r in rows]

    async def set_digest(self, user_id: int, on: bool, lang: str) -> dict[str, bool]:
        await self._tx([("INSERT INTO user_prefs (user_id, digest, digest_lang) VALUES ($1, $2, $3)"
                         " ON CONFLICT (user_id) DO UPDATE SET digest = excluded.digest,"
                         " digest_lang = excluded.digest_lang", (user_id, on, lang))])
        return await self.prefs(user_id)

    async def digest_users(self, before: float) -> list[tuple[int, str]]:
        rows = await self._all("SELECT user_id, digest_lang FROM user_prefs WHERE digest"
                               " AND (digest_at IS NULL OR digest_at <= $1) ORDER BY user_id", before)
        return [(r[0], r[1]) for r in rows]

    async def claim_digest(self, user_id: int, now: float, every: float) -> bool:
        done = await self._write(lambda conn: conn.execute(
            "UPDATE user_prefs SET digest_at = $1 WHERE user_id = $2 AND digest"
            " AND (digest_at IS NULL OR digest_at <= $3)", now, user_id, now - every))
        return done == "UPDATE 1"

"""PostgreSQL: who holds a seat during a game and who is away (issue 19's seat handover and away
mode), kept apart from `postgres.py` (which holds the rest of the contract) so each file has one
job. A mixin of `PostgresStore`: it uses that class's `_all`, `_tx` and `_write`."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

import asyncpg


class SeatsAndAway:
    _all: Callable[..., Awaitable[list[Any]]]
    _tx: Callable[[list[tuple[str, tuple]]], Awaitable[None]]
    _write: Callable[..., Awaitable[Any]]

    async def games_of_user(self, user_id: int) -> list[int]:
        rows = await self._all(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE g.status = 'active'"
            " AND s.user_id = $1 AND NOT s.is_ai AND s.left_at IS NULL ORDER BY g.id", user_id)
        return [r[0] for r in rows]

    async def hand_seat(self, game_id: int, seat: int, user_id: int, name: str, now: float) -> bool:
        async def run(conn: asyncpg.Connection) -> bool:
            # One statement: the member must not hold another present seat of a running game.
            done = await conn.execute(
                "UPDATE seats SET user_id = $1, name = $2, is_ai = FALSE, left_at = NULL WHERE game_id = $3"
                " AND seat = $4 AND EXISTS (SELECT 1 FROM games WHERE id = $3 AND status = 'active')"
                " AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.game_id = $3 AND o.user_id = $1 AND NOT o.is_ai"
                " AND o.left_at IS NULL)", user_id, name, game_id, seat)
            if done != "UPDATE 1":
                return False
            await conn.execute("UPDATE games SET updated_at = $1 WHERE id = $2", now, game_id)
            return True

        return await self._write(run)

    async def away(self, after: float) -> dict[int, float]:
        rows = await self._all("SELECT user_id, until FROM user_away WHERE until > $1", after)
        return {r[0]: float(r[1]) for r in rows}

    async def set_away(self, user_id: int, until: float | None) -> None:
        if until is None:
            await self._tx([("DELETE FROM user_away WHERE user_id = $1", (user_id,))])
        else:
            await self._tx([("INSERT INTO user_away (user_id, until) VALUES ($1, $2)"
                             " ON CONFLICT (user_id) DO UPDATE SET until = excluded.until", (user_id, float(until)))])

"""A seat changing hands during a game: its player leaves, loses access to the game's channel or
server, or is replaced by another member the host chooses. The seat-filler plays a seat nobody
holds; a game with no human left ends as abandoned."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from store import GameRow

from .clock import now

if TYPE_CHECKING:
    from .house import House

log = logging.getLogger(__name__)


class Seats:
    def __init__(self, house: "House") -> None:
        self.house = house

    async def leave(self, game: GameRow, seat: int) -> None:
        """The player left of their own accord."""
        await self._to_ai(game, seat, "left")

    async def lost_access(self, game: GameRow, seat: int) -> None:
        """The player left the server, was banned, or can no longer see the game's channel."""
        if game.status == "active" and game.seats[seat].human:
            log.info("game %s: seat %s lost access; the seat-filler takes it", game.id, seat)
            await self._to_ai(game, seat, "lost_access")

    async def _to_ai(self, game: GameRow, seat: int, why: str) -> None:
        house = self.house
        async with house.lock(game.id):
            await house.store.seat_left(game.id, seat, now())
            house.forget(game.id)
            fresh = await house.game(game.id, fresh=True)
            if fresh is None or fresh.status != "active":
                return
            if not any(not s.ai_plays for s in fresh.seats):
                await house.store.finish(game.id, "cancelled", now(), {"reason": "abandoned"})
                house.forget(game.id)
                if house.table is not None:
                    house.table.note(game.id, "abandoned")
                return
            if house.table is not None:
                house.table.note(game.id, why, seat=seat)
            await house.replan(fresh, locked=True)

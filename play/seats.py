"""A seat changing hands during a game: its player leaves, loses access to the game's channel or
server, or the host hands it to another member. The seat-filler plays a seat nobody holds; a
game with no human left ends as abandoned. The seat passes with its hand and its obligations: the
engine's state is per seat, so nothing in it moves; only who holds the seat changes."""

from __future__ import annotations

import logging

from store import GameRow, Store

from .games import GameCache
from .names import clean_name
from .orders import orders_of, with_orders
from .plan import Planner, owing
from .ports import Clock, Notifier

log = logging.getLogger(__name__)


class Seats:
    def __init__(self, store: Store, games: GameCache, planner: Planner, notifier: Notifier, clock: Clock) -> None:
        self.store = store
        self.games = games
        self.planner = planner
        self.notifier = notifier
        self.clock = clock

    async def leave(self, game: GameRow, seat: int) -> None:
        """The player left of their own accord."""
        await self._to_ai(game, seat, "left")

    async def lost_access(self, game: GameRow, seat: int) -> None:
        """The player left the server, was banned, or can no longer see the game's channel."""
        if game.status == "active" and game.seats[seat].human:
            log.info("game %s: seat %s lost access; the seat-filler takes it", game.id, seat)
            await self._to_ai(game, seat, "lost_access")

    async def left_finished(self, game: GameRow, seat: int) -> None:
        """The player of a finished game was banned or left the server: the seat is marked left,
        so a rematch of it does not seat them again (the ranking keeps them)."""
        if game.status == "finished" and game.seats[seat].human:
            await self.store.seat_left(game.id, seat, self.clock())
            self.games.forget(game.id)

    async def _to_ai(self, game: GameRow, seat: int, why: str) -> None:
        async with self.games.lock(game.id):
            await self.store.seat_left(game.id, seat, self.clock())
            self.games.forget(game.id)
            fresh = await self.games.game(game.id, fresh=True)
            if fresh is None or fresh.status != "active":
                return
            if not any(not s.ai_plays for s in fresh.seats):
                await self.store.finish(game.id, "cancelled", self.clock(), {"reason": "abandoned"})
                self.games.forget(game.id)
                self.notifier.note(game.id, "abandoned")
                return
            self.notifier.note(game.id, why, seat=seat)
            await self.planner.replan(fresh, locked=True, clock=self.without_orders(fresh, seat))

    @staticmethod
    def without_orders(game: GameRow, seat: int) -> dict | None:
        """The game's clock without the seat's standing orders (None: it had none): whoever
        holds the seat next never set them."""
        return with_orders(game, seat, []) if orders_of(game, seat) else None

    async def hand(self, game: GameRow, seat: int, user_id: int, name: str) -> tuple[GameRow | None, str | None]:
        """Hand `seat` to the member (who may see the game: the caller checked): the game as it
        is now and None, or the key saying why not. The table says so; the new holder is pinged
        if the seat owes something now."""
        name = clean_name(name)
        async with self.games.lock(game.id):
            fresh = await self.games.game(game.id, fresh=True)
            if fresh is None or fresh.status != "active":
                return None, "core.error.game_over"
            if fresh.seat_of(user_id) is not None:
                return None, "seat.handover.already_seated"
            before = fresh.seats[seat]
            if not await self.store.hand_seat(game.id, seat, user_id, name, self.clock()):
                return None, "seat.handover.already_seated"
            self.games.forget(game.id)
            fresh = await self.games.game(game.id, fresh=True)
            if fresh is None:
                return None, "core.error.game_over"
            await self.planner.replan(fresh, locked=True, clock=self.without_orders(fresh, seat))
        log.info("game %s: seat %s handed from %s to %s", game.id, seat, before.user_id, user_id)
        self.notifier.note(game.id, "handed", seat=seat, old=before.name, new=name)
        self.notifier.refresh(game.id)
        if seat in owing(fresh):
            self.notifier.changed(fresh, [], ping=[seat])
        return fresh, None

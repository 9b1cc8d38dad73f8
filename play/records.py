"""What the table writes about a running game besides its moves: where its table and DM panels
are, how far its channel was told, that its results were announced. Kept here so that every
write to a game goes through the runtime."""

from __future__ import annotations

from typing import Any

from store import GameRow, Store

from .games import GameCache
from .ports import Clock


class Records:
    def __init__(self, store: Store, games: GameCache, clock: Clock) -> None:
        self.store = store
        self.games = games
        self.clock = clock

    async def table_posted(self, game: GameRow, message_id: int, settings: dict[str, Any] | None = None) -> None:
        """The game's table is now message `message_id` (`settings`: with the layout it was
        posted in, when that changed)."""
        fields: dict[str, Any] = {"table_message_id": message_id}
        if settings is not None:
            fields["settings"] = settings
        await self.store.update_game(game.id, self.clock(), **fields)
        self.games.note_table(game.id, message_id)

    async def told(self, game_id: int, version: int) -> None:
        """The channel was told up to `version`: a restart has nothing to catch up before it."""
        await self.store.mark_told(game_id, version)

    async def announced(self, game: GameRow, result: dict[str, Any]) -> None:
        """The results went out (they are never posted twice)."""
        await self.store.update_game(game.id, self.clock(), result=result)

    async def finish_lost(self, game: GameRow) -> bool:
        """The game's channel or thread is gone: the game cannot be shown any more, so it ends.
        False if it had ended already."""
        done = await self.store.finish(game.id, "cancelled", self.clock(), {"reason": "channel_deleted"})
        self.games.forget(game.id)
        return done

    async def dm_panel(self, game_id: int, user_id: int, channel_id: int, message_id: int) -> None:
        await self.store.set_dm_panel(game_id, user_id, channel_id, message_id)

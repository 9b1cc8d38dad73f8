"""The games this process keeps in memory, and one lock per game.

A game's row is cached after every commit this process makes, so a click is judged without a
read; a cached copy never decides a move on its own (a commit is a compare-and-swap on the
store's row). With several processes (PostgreSQL), each keeps only the games of its own shards
(`owns`): another process may still apply a move to one of them (a DM click arrives on shard 0),
always on the store's row, and tells the owner (crossing.py).
"""

from __future__ import annotations

import asyncio

from store import GameRow, Shards, Store


class GameCache:
    def __init__(self, store: Store, shards: Shards | None = None) -> None:
        self.store = store
        #: The games this process owns (None: all, a lone process).
        self.shards = shards
        self._locks: dict[int, asyncio.Lock] = {}
        self._rows: dict[int, GameRow] = {}

    def owns(self, game: GameRow) -> bool:
        """The game's guild is on this process's shards: it keeps the game's cache, fires its
        timers and updates its table."""
        return self.shards is None or self.shards.holds(game.guild_id)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def game(self, game_id: int, fresh: bool = False) -> GameRow | None:
        """The game's row: cached, or read (always read with `fresh`)."""
        game = None if fresh else self._rows.get(game_id)
        if game is None:
            game = await self.store.get(game_id)
            cached = self._rows.get(game_id)
            # A read that raced a commit may bring an older row than the one a move just cached.
            if game is not None and game.status == "active" and self.owns(game) \
                    and (cached is None or cached.version < game.version):
                self._rows[game_id] = game
        return game

    async def live_in(self, channel_id: int) -> GameRow | None:
        """The channel's game in its lobby or running (the cached row when there is one)."""
        game = await self.store.live_in(channel_id)
        if game is not None and game.id in self._rows:
            return self._rows[game.id]
        return game

    def keep(self, game: GameRow) -> None:
        """A move this process committed: its row wins over any read that raced it."""
        if game.status == "active" and self.owns(game):
            self._rows[game.id] = game
        else:
            self._rows.pop(game.id, None)

    def cached(self, game_id: int) -> GameRow | None:
        """The game as this process last knew it, without asking the store (bookkeeping only:
        nothing is decided on it)."""
        return self._rows.get(game_id)

    def forget(self, game_id: int) -> None:
        self._rows.pop(game_id, None)

    def forget_all(self) -> None:
        self._rows.clear()

    def __len__(self) -> int:
        return len(self._rows)

    def note_table(self, game_id: int, message_id: int) -> None:
        """The game's table message moved (the store has it already)."""
        cached = self._rows.get(game_id)
        if cached is not None:
            cached.table_message_id = message_id

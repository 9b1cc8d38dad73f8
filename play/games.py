"""The games this process keeps in memory, and one lock per game.

A game's row is cached after every commit this process makes, so a click is judged without a
read; a cached copy never decides a move on its own (a commit is a compare-and-swap on the
store's row). With several processes (PostgreSQL), each keeps only the games of its own shards
(`owns`): another process may still apply a move to one of them (a DM click arrives on shard 0),
always on the store's row, and tells the owner (crossing.py).

A lone process also keeps each game's timer rows as its last commit planned them (`timers`): the
commit makes the rows exactly those, so the next move plans from them without reading them back
(a round trip through the database thread per move). Any other write to a game's timers goes
through `consume` or is followed by `forget`; with several processes (shards) the rows are read,
since another process may plan them again at the same version.
"""

from __future__ import annotations

import asyncio

from typing import Any

from store import GameRow, Shards, Store, Timer


class GameCache:
    def __init__(self, store: Store, shards: Shards | None = None) -> None:
        self.store = store
        #: The games this process owns (None: all, a lone process).
        self.shards = shards
        self._locks: dict[int, asyncio.Lock] = {}
        self._rows: dict[int, GameRow] = {}
        #: Per game, the version its timer rows were planned for and the rows (a lone process).
        self._timers: dict[int, tuple[int, list[Timer]]] = {}

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
            self.forget(game.id)

    def cached(self, game_id: int) -> GameRow | None:
        """The game as this process last knew it, without asking the store (bookkeeping only:
        nothing is decided on it)."""
        return self._rows.get(game_id)

    def forget(self, game_id: int) -> None:
        self._rows.pop(game_id, None)
        self._timers.pop(game_id, None)

    def forget_all(self) -> None:
        self._rows.clear()
        self._timers.clear()

    async def timers(self, game_id: int, version: int) -> list[Timer]:
        """The game's timer rows at `version`: those its last commit here planned, else read."""
        kept = self._timers.get(game_id)
        if kept is not None and kept[0] == version:
            return kept[1]
        return await self.store.timers(game_id)

    def known(self, game_id: int, rows: list[Timer]) -> list[tuple] | None:
        """`rows` (kind, ref, due, payload), when they are still the game's kept rows: this
        process's last commit wrote them and nothing touched them since (`consume` and `forget`
        drop the kept rows before the store hears of it). The commit then writes only the rows
        a move changes. None for rows read from the store (a timer may have fired meanwhile)."""
        kept = self._timers.get(game_id)
        if kept is None or kept[1] is not rows:
            return None
        return [(t.kind, t.ref, t.due_at, t.payload) for t in rows]

    def planned(self, game_id: int, version: int, rows: list[tuple]) -> None:
        """This process committed `version` with exactly these timer rows (kind, ref, due, payload)."""
        if self.shards is not None:
            return
        # In the store's order (due time first), as a read would give them.
        kept = [Timer(0, game_id, kind, ref, due, payload, version) for kind, ref, due, payload in rows]
        self._timers[game_id] = (version, sorted(kept, key=lambda x: x.due_at))

    async def consume(self, timer: Timer, **how: Any) -> bool:
        """The store's `consume_timer` (a fired row deleted or re-armed): the kept rows are
        read again next time."""
        self._timers.pop(timer.game_id, None)
        return await self.store.consume_timer(timer, **how)

    def __len__(self) -> int:
        return len(self._rows)

    def note_table(self, game_id: int, message_id: int) -> None:
        """The game's table message moved (the store has it already)."""
        cached = self._rows.get(game_id)
        if cached is not None:
            cached.table_message_id = message_id

"""Moves that cross processes: several bot processes on one PostgreSQL split Discord's shards, and
a game belongs to the process that runs its guild's shard (its cache, lock, timers and table live
there). A click in a DM arrives on shard 0, in whichever process runs it: that process applies the
move on the store's row (compare-and-swap, never a cached copy; `House.act`) and its commit
carries a notice (store/postgres/listen.py). The owner hears it here, drops what it cached, tells the
channel the moves it did not make itself (the log has their events), pings whoever must act now,
and wakes its timer loop (the move planned new timers).

With one process (SQLite, or every shard in one process) nothing crosses and nothing listens.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from service import metrics
from store import GameRow, Listening, Store

from .alarm import Alarm
from .games import GameCache
from .plan import obligations
from .ports import Notifier

log = logging.getLogger(__name__)

#: How many ended games' told versions are remembered.
ENDED_MEMORY = 4096


class Crossing:
    def __init__(self, store: Store, games: GameCache, notifier: Notifier, alarm: Alarm) -> None:
        self.store = store
        self.games = games
        self.notifier = notifier
        self.alarm = alarm
        self.listening: Listening | None = None
        self.starting: asyncio.Task | None = None
        self.tasks: set[asyncio.Task] = set()
        #: Moves made elsewhere that this process told its channels about (tests, metrics).
        self.told = 0
        #: The version up to which this process has told each of its live games' channels: a move
        #: is told once, by whichever path learns of it first. Every path reads and moves it under
        #: the game's lock, and reads the log only up to the version it read the row at.
        self.through: dict[int, int] = {}
        #: The same for the games that ended lately: a notice of a move that the ending move
        #: told already may still be on its way, and the table's `told_version` is written only
        #: after the send (a bounded memory: by then that notice has long been taken in).
        self.ended: OrderedDict[int, int] = OrderedDict()

    @property
    def listens(self) -> bool:
        """Whether this process listens at all (it shares a PostgreSQL with others)."""
        return self.games.shards is not None

    def listening_now(self) -> bool:
        """Whether the notice connection is up now (metrics)."""
        return self.listening is not None and self.listening.up

    def start(self) -> None:
        if self.games.shards is None or self.starting is not None:
            return  # a lone process makes every move itself
        self.starting = asyncio.create_task(self._listen(), name="boardroom-crossing")

    async def ready(self) -> None:
        """Wait until this process listens (the start-up catch-up reads what is untold only then,
        so no move falls between the two)."""
        if self.starting is not None:
            await asyncio.shield(self.starting)

    async def _listen(self) -> None:
        try:
            self.listening = await self.store.listen(self.noticed, self.gap)
        except Exception:
            # Moves still commit safely (compare-and-swap); only the owner's table would lag.
            log.exception("cannot listen for moves made by other processes; tables of games moved from DMs lag")

    async def stop(self) -> None:
        tasks = [t for t in (self.starting, *self.tasks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.listening is not None:
            await self.listening.close()
            self.listening = None

    def noticed(self, game_id: int, version: int | None, guild_id: int | None = None) -> None:
        """A notice (every process hears every one): taken up only by the game's owner."""
        shards = self.games.shards
        if version is not None and shards is not None and not shards.holds(guild_id):
            return
        task = asyncio.create_task(self.tell(game_id, version), name=f"crossing-{game_id}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def gap(self) -> None:
        """The notice connection came back: notices may have been lost meanwhile. Nothing cached
        is trusted, and the games whose channel is behind are told from their log."""
        self.games.forget_all()
        for game_id in await self.store.untold_games(self.games.shards):
            self.noticed(game_id, None)
        self.alarm.ring()

    def note(self, game_id: int, version: int, status: str) -> None:
        """The game's channel is told up to `version` (called under the game's lock); a game
        that ended moves to the bounded memory of ended games."""
        if status in ("active", "lobby"):
            self.through[game_id] = version
            return
        self.through.pop(game_id, None)
        self.ended[game_id] = version
        self.ended.move_to_end(game_id)
        while len(self.ended) > ENDED_MEMORY:
            self.ended.popitem(last=False)

    def told_through(self, game: GameRow) -> int:
        """The version up to which the game's channel is told (under the game's lock): what this
        process told, or what the table marked told before (a restart, an earlier owner)."""
        return max(self.through.get(game.id, self.ended.get(game.id, 0)), game.told_version)

    async def untold(self, game_id: int) -> tuple[GameRow, list[dict], int] | None:
        """Under the game's lock: the game's row as it is now, the events of its moves not told
        yet and the version told before them (None: nothing to tell, or not this process's
        game); they count as told from now. The log is read only up to the row's version: a
        move committed elsewhere meanwhile is left to its own notice."""
        game = await self.games.game(game_id, fresh=True)
        if game is None or game.state is None or not self.games.owns(game):
            return None
        after = self.told_through(game)
        if game.version <= after:
            return None
        entries = await self.store.actions(game_id, after=after, limit=game.version - after)
        self.note(game_id, game.version, game.status)
        return game, [e for a in entries for e in a["events"]], after

    async def missed(self, game: GameRow, version: int, *, over: bool = False) -> list[dict]:
        """Called by the house under the game's lock as it commits `version` of a game it owns:
        the events of moves made elsewhere since the last one it told (their notices not yet
        taken in), to be told with its own; `version` counts as told from now (`over`: it ended
        the game)."""
        if self.games.shards is None or not self.games.owns(game):
            return []  # a lone process makes every move itself
        # A game this process never told (its first move here) is told from the table's mark.
        through = self.told_through(game)
        self.note(game.id, version, "finished" if over else game.status)
        if through >= version - 1:
            return []
        try:
            entries = await self.store.actions(game.id, after=through, limit=version - 1 - through)
        except Exception:  # the move is committed; only its narration is short
            log.exception("could not read the moves of game %s made by another process", game.id)
            return []
        return [e for a in entries for e in a["events"]]

    async def tell(self, game_id: int, version: int | None) -> None:
        """Another process committed `version` of the game (None: some version not told yet)."""
        try:
            async with self.games.lock(game_id):
                through = self.through.get(game_id, self.ended.get(game_id))
                if through is not None and version is not None and through >= version:
                    return  # already told (two notices, one read; or a move of its own after it)
                known = self.games.cached(game_id)
                self.games.forget(game_id)
                found = await self.untold(game_id)
                if found is None:
                    return
                game, events, after = found
                fits = known is not None and known.version == after and known.state
                before = obligations(known, known.state) if fits else set()
                owed = obligations(game, game.state) if game.status == "active" else set()
                self.alarm.ring()  # the move planned the game's timers afresh
            self.told += 1
            metrics.crossing("taken")
            self.notifier.changed(game, events, ping=sorted({seat for _, seat in owed - before}))
        except Exception:  # the channel lags until the next move or restart; nothing is lost
            log.exception("could not take in game %s's move made by another process", game_id)

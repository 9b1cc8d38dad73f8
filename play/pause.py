"""A game whose channel the bot can no longer use pauses, rather than being played to its end by
deadlines nobody can see: it moves for nobody (no deadline, no seat-filler, no click), counts in
no statistics, and resumes by itself when access comes back. The pause is kept in the game's
settings (`paused`: why and since when), so it survives a restart like everything else. What
counts as losing the channel is the Discord side's to judge (cogs/table/pause.py)."""

from __future__ import annotations

import logging

from store import GameRow, Store

from .games import GameCache
from .plan import Planner
from .ports import Clock
from .settings import paused

log = logging.getLogger(__name__)


class Pauses:
    def __init__(self, store: Store, games: GameCache, planner: Planner, clock: Clock) -> None:
        self.store = store
        self.games = games
        self.planner = planner
        self.clock = clock

    async def pause(self, game: GameRow, missing: list[str]) -> GameRow | None:
        """Pause the game (the bot lacks `missing` in its channel): its timers go. The game as
        paused when it was running before (its players are to be told), else None."""
        async with self.games.lock(game.id):
            fresh = await self.games.game(game.id, fresh=True)
            if fresh is None or fresh.status != "active":
                return None
            was = paused(fresh)
            if was is not None and was.get("missing") == missing:
                return None
            fresh.settings = {**fresh.settings, "paused": {"missing": missing, "since": self.clock()}}
            await self.store.update_game(game.id, self.clock(), settings=fresh.settings)
            await self.store.replace_timers(game.id, fresh.version, [])
            self.games.forget(game.id)
        log.warning("game %s paused: the bot lacks %s in channel %s", game.id, missing, game.channel_id)
        return fresh if was is None else None

    async def resume(self, game: GameRow) -> GameRow | None:
        """Resume the game (its timers planned again): the game as resumed, or None if it was
        not paused (its players are to be told)."""
        async with self.games.lock(game.id):
            fresh = await self.games.game(game.id, fresh=True)
            if fresh is None or fresh.status != "active" or paused(fresh) is None:
                return None
            fresh.settings = {k: v for k, v in fresh.settings.items() if k != "paused"}
            await self.store.update_game(game.id, self.clock(), settings=fresh.settings)
            self.games.forget(game.id)
            await self.planner.replan(fresh, locked=True)
        log.info("game %s resumed: the bot can use channel %s again", game.id, game.channel_id)
        return fresh

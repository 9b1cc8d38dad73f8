"""The house: applies actions to games, keeps timers (timer_loop.py), and keeps the table up to date.

One `House` per bot. It is the only place that changes a running game:
  load (cached) -> engine.apply on the snapshot -> commit with the version compare-and-swap and
  the game's new timers in one transaction -> after-effects (table edit, narration and pings,
  DM panels, results), coalesced per game so a burst of clicks costs one table edit.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import socket
from dataclasses import dataclass, field
from typing import Any

import discord

from engine.core import RuleError
from locales import Translator
from service import metrics
from store import GameRow, Shards, Store, Timer

from . import away as away_mod
from .access import Access
from .clock import now
from .crossing import Crossing
from .names import text_names
from .pause import Pauser, paused
from .seats import Seats
from .timer_loop import TimerLoop
from .titles import PanelContext, ui_for

log = logging.getLogger(__name__)

def outcome_json(outcome: Any) -> dict[str, Any]:
    return {"places": list(outcome.places), "scores": list(outcome.scores), "summary_key": outcome.summary_key}


@dataclass
class Result:
    """What became of an action: applied, refused (with the rule's reason), stale (the game moved
    on), or over/missing (no running game)."""

    kind: str
    game: GameRow | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    error: RuleError | None = None
    #: For an applied move: the snapshot and the timers before it (what taking it back needs).
    before: dict[str, Any] | None = None
    timers: list[Timer] = field(default_factory=list)

    @property
    def applied(self) -> bool:
        return self.kind == "applied"


def error_key(title: str, err: RuleError) -> str:
    return err.key if err.key.startswith("core.") else f"{title}.error.{err.key}"


class House(TimerLoop):
    def __init__(self, bot: discord.Client, store: Store) -> None:
        self.bot = bot
        self.store = store
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, GameRow] = {}
        self._scheduler: asyncio.Task | None = None
        self.catching_up: asyncio.Task | None = None  # telling what a crash kept from the channels
        self._sleeping = False
        self.table: Any = None  # the TableKeeper, set by the game cog
        self.access = Access(self)
        self.seats = Seats(self)
        self.away = away_mod.Away(self)
        self.pauser = Pauser(self)
        self.closed = False
        #: Who claims timers: unique per running house, readable in the database.
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        #: The games this process owns: their timers, cache and table (None: all; set from the
        #: shard configuration by the bot, see `owns`).
        self.shards: Shards | None = None
        self.crossing = Crossing(self)
        self._failures: dict[tuple[int, str, str], int] = {}  # timers whose work failed, how often

    # -- games ------------------------------------------------------------------------------

    def owns(self, game: GameRow) -> bool:
        """The game's guild is on this process's shards: it keeps the game's cache, fires its
        timers and updates its table. Others may still apply a move to it (a DM click arrives on
        shard 0), always on the store's row, and tell the owner (`Crossing`)."""
        return self.shards is None or self.shards.holds(game.guild_id)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def game(self, game_id: int, fresh: bool = False) -> GameRow | None:
        game = None if fresh else self._cache.get(game_id)
        if game is None:
            game = await self.store.get(game_id)
            cached = self._cache.get(game_id)
            # A read that raced a commit may bring an older row than the one `act` just cached.
            if game is not None and game.status == "active" and self.owns(game) \
                    and (cached is None or cached.version < game.version):
                self._cache[game_id] = game
        return game

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    def forget_all(self) -> None:
        self._cache.clear()

    @property
    def cached_games(self) -> int:
        """How many games this process keeps in memory (benchmarks, metrics)."""
        return len(self._cache)

    def cached(self, game_id: int) -> GameRow | None:
        """The game as this process last knew it, without asking the store (for bookkeeping
        only: nothing is decided on it)."""
        return self._cache.get(game_id)

    def note_table(self, game_id: int, message_id: int) -> None:
        """The game's table message moved (the store has it already)."""
        cached = self._cache.get(game_id)
        if cached is not None:
            cached.table_message_id = message_id

    def obligations(self, game: GameRow, state: dict[str, Any]) -> set[tuple[str, int]]:
        """Who owes what now: (window id, seat) for each open window, and (`act`, seat) for a
        seat that must act outside any window. A pair that is new after a move is a new
        obligation, and its seat is told, even if it was already waiting for something else."""
        engine = ui_for(game.title).game
        owed = {(w.id, seat) for w in engine.windows(state) for seat in w.seats}
        covered = {seat for _, seat in owed}
        owed |= {("act", seat) for seat in engine.to_act(state) if seat not in covered}
        return owed

    async def live_in(self, channel_id: int) -> GameRow | None:
        game = await self.store.live_in(channel_id)
        if game is not None and game.id in self._cache:
            return self._cache[game.id]
        return game

    def owing(self, game: GameRow) -> list[int]:
        """The seats that owe something now."""
        return sorted({seat for _, seat in self.obligations(game, game.state)}) if game.state else []

    def panel_context(self, game: GameRow, seat: int, t: Translator) -> PanelContext:
        ui = ui_for(game.title)
        state = game.state or {}
        return PanelContext(
            game_id=game.id, version=game.version, seat=seat, view=ui.game.view(state, seat),
            legal=ui.game.legal(state, seat), t=t, names=text_names(game.names), title=game.title,
            raw_names=game.names,
        )

    # -- applying actions ---------------------------------------------------------------------

    async def act(self, game_id: int, seat: int | None, action: dict[str, Any], *, user_id: int | None = None,
                  version: int | None = None) -> Result:
        """Apply one action for `seat` (None: the system). With `version`, only if the game is
        still at that version (a click drawn for an earlier moment is refused as stale). When
        another process moved the game after this one read it, the move is judged once more on
        the store's row: a cached copy never decides it."""
        result = await self._act(game_id, seat, action, user_id=user_id, version=version)
        if result.kind == "lost":
            result = await self._act(game_id, seat, action, user_id=user_id, version=version, fresh=True)
        return Result("stale", result.game) if result.kind == "lost" else result

    async def _act(self, game_id: int, seat: int | None, action: dict[str, Any], *, user_id: int | None,
                   version: int | None, fresh: bool = False) -> Result:
        async with self.lock(game_id):
            game = await self.game(game_id, fresh=fresh)
            if game is not None and version is not None and version > game.version:
                game = await self.game(game_id, fresh=True)  # drawn after a move made elsewhere
            if game is None:
                return Result("missing")
            if game.status != "active" or game.state is None:
                return Result("over", game)
            if version is not None and version != game.version:
                return Result("stale", game)
            if paused(game) is not None:  # the channel is out of the bot's reach: nothing moves
                return Result("paused", game)
            ui = ui_for(game.title)
            engine = ui.game
            # A new top-level dict is enough: `Game.apply` runs the rules on its own deep copy and
            # on success replaces this dict's keys, so the cached snapshot (and anything drawn from
            # it meanwhile) never changes. A second deep copy here cost 5% of an action's CPU.
            state = dict(game.state)
            before = self.obligations(game, state)
            try:
                events = engine.apply(state, seat, action)
            except RuleError as err:
                if self.shards is not None and not fresh:  # judged on a copy another process may
                    return Result("lost", game)             # have outdated: judge it on the store's
                metrics.action(game.title, "refused")
                return Result("refused", game, error=err)
            outcome = engine.outcome(state)
            t = now()
            existing = await self.store.timers(game_id)
            timers = [] if outcome is not None else self.plan_timers(game, state, existing, t,
                                                                     await self.away.of(game))
            ok = await self.store.commit_action(
                game_id, expected_version=game.version, seat=seat, user_id=user_id, action=action, events=events,
                state=state, now=t, finished=outcome_json(outcome) if outcome is not None else None, timers=timers,
                notify=not self.owns(game),
            )
            if not ok:  # someone else (another process?) moved the game: reload next time
                self.forget(game_id)
                return Result("lost", game)
            # Moves made elsewhere that this process has not told yet go out with this one.
            missed = await self.crossing.missed(game, game.version + 1, over=outcome is not None)
            previous = game.state  # never changed in place (see above): safe to keep for an undo
            game.state, game.version, game.updated_at = state, game.version + 1, t
            if outcome is not None:
                game.status, game.result, game.finished_at = "finished", outcome_json(outcome), t
                self.forget(game_id)
            elif self.owns(game):
                self._cache[game_id] = game  # the committed row wins over any read that raced it
            self.kick()
        metrics.action(game.title, "applied")
        if not self.owns(game):
            metrics.crossing("sent")
        if self.table is not None and self.owns(game):  # else the owner hears of it and tells
            after = self.obligations(game, state) if outcome is None else set()
            self.table.changed(game, missed + events, ping=sorted({seat for _, seat in after - before}))
        return Result("applied", game, events, before=previous, timers=existing)

    async def replan(self, game: GameRow, *, locked: bool = False) -> None:
        """Recompute a game's timers outside an action (start, settings change, a seat left).
        `locked`: the caller already holds the game's lock."""
        if not locked:
            async with self.lock(game.id):
                return await self.replan(game, locked=True)
        fresh = await self.game(game.id, fresh=True)
        if fresh is None or fresh.status != "active" or fresh.state is None:
            return
        existing = await self.store.timers(game.id)
        # Only for the version it was planned from: a move committed meanwhile planned its own.
        await self.store.replace_timers(game.id, fresh.version, self.plan_timers(fresh, fresh.state, existing, now(),
                                                                                 await self.away.of(fresh)))
        self.kick()

    # -- the AI seat-filler -------------------------------------------------------------------

    def ai_choice(self, game: GameRow, seat: int) -> dict[str, Any] | None:
        """The seat-filler's move for `seat`, or None when it chooses to wait. Its randomness is
        seeded from the game and version, so a replayed game makes the same choices."""
        engine = ui_for(game.title).game
        state = game.state or {}
        legal = engine.legal(state, seat)
        if not legal:
            return None
        rng = random.Random(f"{game.seed}/ai/{seat}/{game.version}")
        return engine.ai_action(engine.view(state, seat), legal, rng)

    async def ai_move(self, game_id: int, seat: int) -> Result | None:
        game = await self.game(game_id)
        if game is None or game.status != "active" or paused(game) is not None:
            return None
        version = game.version
        try:
            action = await asyncio.to_thread(self.ai_choice, game, seat)
        except Exception:  # a seat-filler bug: the seat waits, and its deadline moves the game on
            log.exception("the seat-filler failed in game %s for seat %s", game_id, seat)
            return None
        if action is None:
            return None
        result = await self.act(game_id, seat, action, version=version)
        if result.kind == "refused":  # a seat-filler bug must not stall the table
            log.error("AI move %s refused in game %s: %s", action, game_id, result.error)
        return result

    def start_scheduler(self) -> None:
        if self._scheduler is None or self._scheduler.done():
            self._scheduler = asyncio.create_task(self._run_timers(), name="boardroom-timers")
        if self.catching_up is None:
            self.catching_up = asyncio.create_task(self.catch_up(), name="boardroom-catch-up")
        self.crossing.start()

    async def catch_up(self) -> None:
        """Tell the channels what a crash kept from them: moves committed just before it whose
        narration, pings and table update never went out (the game's `told_version` is behind
        its version). The events come from the action log; the players who must act now are
        pinged."""
        await self.bot.wait_until_ready()
        if self.table is None:
            return
        await self.crossing.ready()
        for game_id in await self.store.untold_games(self.shards):
            try:
                # Under the game's lock, as a move made meanwhile (here, or elsewhere and noticed)
                # tells what it tells: each move is told once.
                async with self.lock(game_id):
                    found = await self.crossing.untold(game_id)
                if found is None:
                    continue
                game, events, told = found
                ping = self.owing(game) if game.status == "active" else []
                log.info("game %s: telling moves %s..%s again after a restart", game_id, told + 1, game.version)
                self.table.changed(game, events, ping=ping)
            except Exception:  # one game's trouble must not keep the others untold
                log.exception("could not catch up game %s after a restart", game_id)
        # Tables posted before the current message layout are posted once again in it (the
        # older message becomes a pointer to the new one).
        for game_id, _ in await self.store.active_games(self.shards):
            game = await self.game(game_id, fresh=True)
            if game is not None and game.status == "active" and game.table_message_id \
                    and (game.settings or {}).get("layout") != self.table.LAYOUT:
                self.table.refresh(game_id, repost=True)

    async def stop(self) -> None:
        self.closed = True
        tasks = [t for t in (self._scheduler, self.catching_up) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.crossing.stop()
        if self.table is not None:
            await self.table.stop()

"""A game before it starts, and its start: opening a lobby (or a rematch), its seats, host,
options and settings, cancelling it, and starting the game (the engine's setup, the first
snapshot, the first timers and the first call to act). The Discord side (cogs/lobby/) decides
who may do what; every write is here, under the game's lock where a game row changes."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

import engine
from store import GameRow, Seat, Store

from .games import GameCache
from .names import clean_name
from .plan import Planner, owing
from .ports import Clock, Notifier

SEED_BITS = 128


def new_seed() -> int:
    """A game's seed: 128 random bits from the operating system, so that no player can work it
    out from their own hand by trying every seed (a 31-bit seed fell to a few core-hours), nor,
    with it, the other hands, the draw pile or the seat-filler's choices."""
    return secrets.randbits(SEED_BITS)


def cleaned(seats: list[Seat]) -> list[Seat]:
    """The seats with their names as the house keeps them (names.py)."""
    return [replace(s, name=clean_name(s.name)) for s in seats]


class Lobbies:
    def __init__(self, store: Store, games: GameCache, planner: Planner, notifier: Notifier, clock: Clock) -> None:
        self.store = store
        self.games = games
        self.planner = planner
        self.notifier = notifier
        self.clock = clock

    async def open(self, *, guild_id: int | None, channel_id: int, title: str, host_id: int, host_name: str,
                   lang: str, settings: dict[str, Any]) -> GameRow:
        """A new lobby with the host in seat 0 (`ChannelBusy` if the channel has a game)."""
        return await self.store.create_lobby(guild_id=guild_id, channel_id=channel_id, title=title, host_id=host_id,
                                             host_name=clean_name(host_name), lang=lang, seed=new_seed(), settings=settings,
                                             now=self.clock())

    async def rematch(self, old: GameRow, *, host_id: int, host_name: str, seats: list[Seat],
                      settings: dict[str, Any], options: dict[str, Any]) -> GameRow:
        """A new lobby in the old game's channel, with these seats (the host first) and options."""
        game = await self.open(guild_id=old.guild_id, channel_id=old.channel_id, title=old.title, host_id=host_id,
                               host_name=host_name, lang=old.lang, settings=settings)
        await self.store.set_seats(game.id, cleaned(seats), self.clock())
        await self.store.update_game(game.id, self.clock(), options=options)
        return await self.store.get(game.id) or game

    async def posted(self, game: GameRow, message_id: int) -> None:
        """The lobby's message is now `message_id`."""
        await self.store.update_game(game.id, self.clock(), lobby_message_id=message_id)

    async def seat(self, game: GameRow, seats: list[Seat]) -> list[Seat]:
        """The lobby's seats become `seats` (renumbered in order); the seats as stored."""
        await self.store.set_seats(game.id, cleaned(seats), self.clock())
        return await self.store.seats(game.id)

    async def set_host(self, game: GameRow, host_id: int) -> None:
        await self.store.update_game(game.id, self.clock(), host_id=host_id)

    async def configure(self, game: GameRow, *, options: dict[str, Any], lang: str, settings: dict[str, Any]) -> None:
        await self.store.update_game(game.id, self.clock(), options=options, lang=lang, settings=settings)

    async def cancel(self, game: GameRow) -> bool:
        return await self.store.finish(game.id, "cancelled", self.clock())

    async def start(self, game: GameRow, state: dict[str, Any], options: dict[str, Any]) -> GameRow | None:
        """Lobby -> running, with the engine's first snapshot (the caller holds the game's lock);
        its timers are planned and whoever must act first is called. None if the lobby was no
        longer there."""
        if not await self.store.start(game.id, state, options, self.clock()):
            return None
        self.games.forget(game.id)
        started = await self.games.game(game.id, fresh=True)
        if started is None:
            return None
        await self.planner.replan(started, locked=True)
        self.notifier.changed(started, [], ping=owing(started))
        return started

    @staticmethod
    def setup(game: GameRow, options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """The engine's first snapshot for the lobby's seats and options (a `RuleError` if the
        options do not fit), and the options as resolved."""
        game_rules = engine.get(game.title)
        resolved = game_rules.resolve_options(len(game.seats), options)
        return game_rules.setup(len(game.seats), game.seed, resolved), resolved

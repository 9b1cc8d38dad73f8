"""The runtime put together, in two floors: the parts below the notifier (`Parts`: the cache, away
times, the planner, the undo memory, the records, pauses), which the notifier itself may use, and
the parts that tell it (`Runtime`: the house and its timer loop, moves across processes, seats,
lobbies). app.py builds the Discord bot's this way, with the table keeper as the notifier between
the two floors; tools, benchmarks and tests build theirs with a notifier of their own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from store import Shards, Store

from .alarm import Alarm
from .away import Away
from .crossing import Crossing
from .games import GameCache
from .house import House
from .lobby import Lobbies
from .pause import Pauses
from .people import People
from .plan import Planner
from .ports import Clock, Notifier, Ready
from .records import Records
from .seats import Seats
from .undo import UndoMemory


async def _at_once() -> None:
    """Ready now (no gateway to wait for)."""


@dataclass
class Parts:
    store: Store
    clock: Clock
    games: GameCache
    away: Away
    planner: Planner
    undo: UndoMemory
    records: Records
    pauses: Pauses

    @classmethod
    def build(cls, store: Store, *, shards: Shards | None = None, clock: Clock = time.time) -> "Parts":
        games = GameCache(store, shards)
        away = Away(store, clock)
        planner = Planner(store, games, away, People(store), clock, Alarm())
        return cls(store, clock, games, away, planner, UndoMemory(clock), Records(store, games, clock),
                   Pauses(store, games, planner, clock))


@dataclass
class Runtime:
    parts: Parts
    notifier: Notifier
    house: House
    seats: Seats
    lobbies: Lobbies

    @classmethod
    def build(cls, parts: Parts, notifier: Notifier, ready: Ready = _at_once) -> "Runtime":
        p = parts
        crossing = Crossing(p.store, p.games, notifier, p.planner.alarm)
        house = House(p.store, p.games, p.planner, p.away, p.undo, crossing, notifier, p.clock, ready)
        return cls(p, notifier, house, Seats(p.store, p.games, p.planner, notifier, p.clock),
                   Lobbies(p.store, p.games, p.planner, notifier, p.clock))

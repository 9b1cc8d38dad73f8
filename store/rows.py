"""What the store hands out: plain rows, the same from every backend."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import orjson

LIVE = ("lobby", "active")

#: The columns of `games` every backend reads, in `GameRow`'s field order.
GAME_COLUMNS = (
    "id, guild_id, channel_id, title, status, host_id, lang, options, settings, seed, state, version, "
    "lobby_message_id, table_message_id, result, created_at, updated_at, finished_at, told_version, clock"
)


#: The json module's encoder, for what orjson refuses: integers beyond 64 bits (json writes them
#: as they are). One encoder for every such value (`json.dumps` with options builds one per call).
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
#: Int dict keys written as text, as json writes them (a state's are strings already).
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """A value as JSON text: orjson (every move writes its state, 3-7x faster than json on ours),
    the json module for the rare value orjson refuses (a 128-bit integer)."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return _ENCODE(value)


def loads(value: Any) -> Any:
    """A JSON column's value: text from SQLite, text or an already decoded value from PostgreSQL.
    The json module's reader, not orjson's: orjson reads an integer beyond 64 bits (the seed in
    a state stored before seeds were kept as text, engine/core.py `Chance`) as a float."""
    return json.loads(value) if isinstance(value, (str, bytes)) else value


@dataclass
class Seat:
    seat: int
    user_id: int | None
    name: str
    is_ai: bool = False
    left_at: float | None = None

    @property
    def human(self) -> bool:
        return not self.is_ai and self.left_at is None and self.user_id is not None

    @property
    def ai_plays(self) -> bool:
        return self.is_ai or self.left_at is not None


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    title: str
    status: str
    host_id: int
    lang: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    lobby_message_id: int | None
    table_message_id: int | None
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    finished_at: float | None
    told_version: int = 0
    #: The players' clocks in this game: their time banks and granted absences (play/timing.py).
    clock: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)


    @classmethod
    def from_row(cls, row: Any) -> "GameRow":
        r = list(row)
        for i in (7, 8):
            r[i] = loads(r[i]) if r[i] else {}
        for i in (10, 14):
            r[i] = loads(r[i]) if r[i] else None
        if len(r) > 19:
            r[19] = loads(r[19]) if r[19] else {}
        # Seeds are kept as decimal text (SQLite) or numeric (PostgreSQL): 128 bits fit neither
        # backend's integer column. int() of either is exact.
        r[9] = int(r[9])
        return cls(*r)

    def moved(self, state: dict[str, Any], updated_at: float, clock: dict[str, Any]) -> "GameRow":
        """The row after a move: a new row (this one may be in a reader's hands), one version
        on, every other field shared as `dataclasses.replace` shares it. `replace` passes all
        of the fields through `__init__` again: 7 us a move, this 2."""
        row = object.__new__(type(self))
        row.__dict__.update(self.__dict__)
        row.state, row.version, row.updated_at, row.clock = state, self.version + 1, updated_at, clock
        return row

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and not s.is_ai and s.left_at is None:
                return s.seat
        return None

    @property
    def names(self) -> list[str]:
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat)]

    @property
    def live(self) -> bool:
        return self.status in LIVE


@dataclass
class Timer:
    """A durable timer row. `version` is the game version it was planned for (its game's
    `planned_at`: every row of a game is planned at once); `owner` and `lease_until` are its
    claim while a process fires it."""

    id: int
    game_id: int
    kind: str
    ref: str
    due_at: float
    payload: dict[str, Any]
    version: int = 0
    owner: str | None = None
    lease_until: float | None = None


@dataclass(frozen=True)
class Shards:
    """Which games a process may claim timers of: those whose guild's shard,
    `(guild_id >> 22) % count`, is in `ids` (a game without a guild is on shard 0, as DMs are)."""

    count: int
    ids: tuple[int, ...]

    def holds(self, guild_id: int | None) -> bool:
        """Whether a game of this guild is on these shards (Discord's own rule, which the SQL
        filters of both backends repeat)."""
        return ((guild_id or 0) >> 22) % self.count in self.ids


def user_stats(rows: list[tuple[str, Any, int]]) -> dict[str, Any]:
    """Games played and won per title, from (title, result, seat) of a user's finished games."""
    stats: dict[str, dict[str, int]] = {}
    for title, result, seat in rows:
        entry = stats.setdefault(title, {"played": 0, "won": 0})
        entry["played"] += 1
        places = (loads(result) if result else {}).get("places") or []
        if seat < len(places) and places[seat] == 1:
            entry["won"] += 1
    return stats


def timer_rows(timers: list[tuple[str, str, float, dict]]) -> list[tuple[str, str, float, str]]:
    return [(kind, ref, due, dumps(payload)) for kind, ref, due, payload in timers]


def timer_changes(timers: list[tuple[str, str, float, dict]],
                  known: list[tuple[str, str, float, dict]]) -> tuple[list[tuple[str, str, float, dict]], list[list[str]]]:
    """What making a game's timers exactly `timers` changes, when they are `known` now: the rows
    to write (new, or with another due time or payload) and the [kind, ref] of the rows to
    delete. Most moves leave most rows as they were (another person's window stays open)."""
    was = {(kind, ref): (due, payload) for kind, ref, due, payload in known}
    changed = [row for row in timers if was.get((row[0], row[1])) != (row[2], row[3])]
    keep = {(row[0], row[1]) for row in timers}
    return changed, [[kind, ref] for kind, ref in was if (kind, ref) not in keep]

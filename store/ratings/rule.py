"""Who a finished game rates, and whether it rates anyone (the rules page says the same, in
`locales/<lang>/house.rules.md`):

- only games that ended by their rules are rated: a game the host ended, one abandoned (nobody
  left at the table) or whose channel was deleted is "cancelled" and never reaches here;
- a seat is rated for its final holder: the person who holds it at the end, or the seat-filler
  (at its strength level) for an AI seat or a seat whose person left;
- a seat that changed hands rates its final holder only if they played most of it: more than
  half of the seat's moves in the action log are theirs. A move the seat-filler made for a
  person whose time ran out (`ai_for`) counts as that person's (the seat was theirs, and the
  deadline rule their game's); any other seat-filler move counts as the seat-filler's;
- a game is rated only if at least two people (not seat-fillers) are rated in it; the
  seat-fillers at the table are then rated with them;
- a seat without a place (resigned, eliminated) shares the last place.

Pure: rows in, a decision out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .model import DEFAULT_LEVEL, Player

#: Why a finished game is not rated (catalogue keys `core.rating.why.<why>`).
FEW_PEOPLE = "few_people"
NO_PLACES = "no_places"
LOG_ARCHIVED = "log_archived"


@dataclass(frozen=True)
class Entry:
    """One rated seat: who holds it, its place, the name shown at the table."""

    seat: int
    player: Player
    place: int
    name: str

    def row(self) -> list[Any]:
        return [self.seat, self.player.user_id, self.player.level, self.place, self.name]

    @classmethod
    def of_row(cls, row: Sequence[Any]) -> "Entry":
        seat, user_id, level, place, name = row
        return cls(int(seat), Player(int(user_id), str(level)), int(place), str(name))


@dataclass(frozen=True)
class Decision:
    entries: list[Entry]
    why: str | None = None  # None: rated

    @property
    def rated(self) -> bool:
        return self.why is None


def level_of(game: Any) -> str:
    """The seat-filler's strength level in a game: its settings' `ai_level` (play/settings.py;
    the store reads the stored setting, not the runtime's defaults, which it may not import)."""
    return (getattr(game, "settings", None) or {}).get("ai_level") or DEFAULT_LEVEL


def holder(seat: Any, level: str = DEFAULT_LEVEL) -> Player:
    """Who holds a seat at the end: its person, or the seat-filler at the game's `level` (an AI
    seat, a person gone)."""
    if seat.is_ai or seat.left_at is not None or not seat.user_id:
        return Player(0, level)
    return Player(int(seat.user_id))


#: Whose moves the seat-filler made on its own (whatever its level): counted against a person.
FILLER = Player(0)
#: A late person's moves on a seat that person never moved themselves and no longer holds.
GONE = Player(-1)


def credits(moves: Sequence[tuple[int, int | None, bool]], finals: dict[int, Player]) -> dict[int, dict[Player, int]]:
    """Per seat, how many of its moves each player made. `moves`: (seat, user_id, ai_for) in
    log order. A seat-filler's move for a late person (`ai_for`) is that person's: the one who
    last moved the seat, or, before anyone did, the next who does (else the final holder)."""
    out: dict[int, dict[Player, int]] = {}
    waiting: dict[int, int] = {}  # ai_for moves before the seat's first own move
    last: dict[int, Player] = {}
    for seat, user_id, ai_for in moves:
        tally = out.setdefault(seat, {})
        if user_id:
            who = last[seat] = Player(int(user_id))
            tally[who] = tally.get(who, 0) + 1 + waiting.pop(seat, 0)
        elif ai_for and seat in last:
            tally[last[seat]] = tally.get(last[seat], 0) + 1
        elif ai_for:
            waiting[seat] = waiting.get(seat, 0) + 1
        else:
            tally[FILLER] = tally.get(FILLER, 0) + 1
    for seat, n in waiting.items():  # nobody moved the seat themselves
        final = finals.get(seat, GONE)
        owner = GONE if final.ai else final
        out[seat][owner] = out[seat].get(owner, 0) + n
    return out


def played_most(final: Player, tally: dict[Player, int]) -> bool:
    """More than half of the seat's moves are its final holder's (a seat never moved: yes)."""
    total = sum(tally.values())
    mine = tally.get(FILLER if final.ai else final, 0)
    return total == 0 or 2 * mine > total


def decide(seats: Sequence[Any], places: Sequence[int | None] | None,
           moves: Sequence[tuple[int, int | None, bool]], level: str = DEFAULT_LEVEL) -> Decision:
    """Who a finished game rates. `seats`: the game's seats (store.Seat or alike), `places`: the
    result's places by seat, `moves`: its log as (seat, user_id, ai_for), seat moves only,
    `level`: the seat-filler's strength in the game (`level_of`)."""
    if not places or all(p is None for p in places):
        return Decision([], NO_PLACES)
    last_place = max(p for p in places if p is not None) + 1
    finals = {seat.seat: holder(seat, level) for seat in seats}
    tallies = credits(moves, finals)
    entries = []
    for seat in sorted(seats, key=lambda s: s.seat):
        final = finals[seat.seat]
        if not played_most(final, tallies.get(seat.seat, {})):
            continue
        place = places[seat.seat] if seat.seat < len(places) else None
        entries.append(Entry(seat.seat, final, place if place is not None else last_place, seat.name))
    people = {e.player for e in entries if not e.player.ai}
    if len(people) < 2:
        return Decision(entries, FEW_PEOPLE)
    return Decision(entries)

"""What taking back a move needs (issue 19): within a short time (the game setting `undo`, 2
minutes unless changed) a player may take back their last move, when it revealed nothing
(`engine.core.undoable`: no chance drawn, no secret changed) and nobody acted since (the game is
still at the version the move produced).

The memory is kept when the move is applied (`House.act` calls `remember`: the snapshot and the
timers before it; the snapshot is never changed in place, so keeping it costs nothing), so the
deadlines go back to where they were and no move-and-undo can buy a fresh deadline. A restart
within the time forgets it: the move then simply stays. Taking it back is `House.take_back`; the
Undo offer and button are the table's (cogs/table/undo.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from engine.core import privates, undoable
from store import GameRow, Timer

from . import settings as settings_mod
from .ports import Clock
from .result import Result


@dataclass
class Taken:
    """A player's move that may be taken back, if it revealed nothing (`revealed_nothing`)."""

    version: int  # the version the move produced
    seat: int
    user_id: int
    at: float
    before: dict[str, Any]
    timers: list[Timer] = field(default_factory=list)
    title: str = ""
    after: dict[str, Any] | None = None
    clock: dict[str, Any] = field(default_factory=dict)
    #: Whether the move revealed nothing, worked out the first time anyone asks (the Undo offer
    #: drawn on the mover's panel): comparing every seat's view before and after is the dearest
    #: part of remembering, and most moves are never offered back (the seat-filler's, timers').
    _undoable: bool | None = None
    #: Each seat's private part of its view (`engine.core.privates`) in `before` and `after`, as
    #: worked out: the next move's `before` is this one's `after`, so a run of one person's moves
    #: works out each state's views once, not twice (`UndoMemory.remember` hands them on).
    known: list[tuple[dict[str, Any], dict[int, Any]]] = field(default_factory=list)

    def seen_by_others(self, seats: int) -> bool:
        """Whether anyone but the mover could see the move: the public view or another seat's
        view changed. A take-back of a move nobody else saw (an E-Wars pick not yet confirmed)
        is told to nobody else (issue 30)."""
        if self.after is None:
            return True
        game = engine.get(self.title)
        return any(game.view(self.before, s) != game.view(self.after, s)
                   for s in [None, *range(seats)] if s != self.seat)

    def revealed_nothing(self) -> bool:
        if self._undoable is None:
            self._undoable = self.after is not None and undoable(engine.get(self.title), self.before, self.after,
                                                                 self.seat, self.privates_of)
        return self._undoable

    def privates_of(self, state: dict[str, Any]) -> dict[int, Any]:
        """`engine.core.privates` of `before` or `after`, worked out once. Found by identity:
        snapshots are never changed in place, and this move holds the ones it names."""
        for seen, found in self.known:
            if seen is state:
                return found
        found = privates(engine.get(self.title), state)
        self.known.append((state, found))
        return found

    def privates_after(self) -> dict[int, Any] | None:
        """`after`'s private parts, if they were worked out."""
        return next((found for seen, found in self.known if seen is self.after), None)


def window(game: GameRow) -> int:
    """Seconds during which a move of this game may be taken back (0: never)."""
    # The one key as `settings.merged` gives it (a scalar: the game's own, else the house's),
    # without merging every setting: this is asked on every player's move.
    return int((game.settings or {}).get("undo", settings_mod.HOUSE["undo"]) or 0)


class UndoMemory:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        #: Per game, its last move if it may be taken back (one per game: any later move, the
        #: player's own or another's, makes it final).
        self.moves: dict[int, Taken] = {}

    def remember(self, game_id: int, seat: int, user_id: int, result: Result) -> None:
        """A player's move was applied: keep what taking it back needs, if it may be."""
        last = self.moves.pop(game_id, None)
        # Moves past any game's undo time go (a finished game's, a game nobody opens again). The
        # memory is in the order moves were remembered, so the old ones are at its front: looking
        # at every game's move on each move cost a third of a millisecond with 1,000 games.
        # The move's own moment when it has one (its row's `updated_at`: the house's clock as it
        # committed); a clock call is a datetime built.
        game = result.game
        now = game.updated_at if result.applied and game is not None else self.clock()
        oldest = now - max(settings_mod.UNDO_CHOICES)
        gone = []
        for g, taken in self.moves.items():
            if taken.at >= oldest:
                break
            gone.append(g)
        for g in gone:
            del self.moves[g]
        if not result.applied or game is None or result.before is None or game.state is None:
            return
        if game.status != "active" or window(game) <= 0 or result.filler_next:
            return  # over, undo off, or the seat-filler answers at once: final
        taken = Taken(game.version, seat, user_id, now, result.before, list(result.timers), game.title,
                      game.state, result.clock_before)
        known = last.privates_after() if last is not None and last.after is result.before else None
        if known is not None:  # the move before this one left the state this one started from
            taken.known.append((result.before, known))
        self.moves[game_id] = taken

    def refusal(self, game: GameRow | None, seat: int | None, user_id: int | None, version: int | None) -> str | None:
        """Why the move cannot be taken back now (a catalogue key), or None if it can."""
        if game is None or game.status != "active" or game.state is None:
            return "core.error.game_over"
        if version is not None and version != game.version:  # the button's move is no longer the last
            return "core.undo.moved_on"
        taken = self.moves.get(game.id)
        if taken is None or taken.seat != seat or taken.user_id != user_id or taken.version != game.version \
                or not taken.revealed_nothing():
            return "core.undo.gone"
        if self.clock() > taken.at + window(game):
            return "core.undo.too_late"
        if settings_mod.paused(game) is not None:
            return "core.undo.paused"
        return None

    def offer(self, game: GameRow, seat: int) -> Taken | None:
        """The seat's move that its player may take back now, if any (a move that became final
        is forgotten)."""
        player = game.seats[seat].user_id if 0 <= seat < len(game.seats) else None
        taken = self.moves.get(game.id)
        if taken is None:
            return None
        if self.refusal(game, seat, player, None) is not None:
            if game.status != "active" or game.version != taken.version:
                del self.moves[game.id]  # final now: nobody may take it back any more
            return None
        return taken

    def take(self, game_id: int) -> Taken:
        return self.moves.pop(game_id)

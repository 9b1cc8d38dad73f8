"""Since when each person's obligation has been open, per game, so that a click drawn for an
earlier moment can still apply (issue 30: Filthy Rich's "Keep everything" went stale whenever
another seat, often the seat-filler two seconds after the roll, answered the tax first).

A click drawn at version V for seat S is still S's own decision at a later version when S has
made no move since V and every obligation S has now was already open at V: what happened
between was other seats' doing, and the panel S decided on asked S the same question. The title
decides the click again on the game as it is now, and the rules judge it as any other move.

Kept in memory, from the moves this process applies (`House.act`). A game this process did not
follow move by move (a restart, a move made by another process, a move taken back) is known
again only from its next move on, and meanwhile a click drawn earlier is stale, as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from store import GameRow

from .plan import obligations

Owed = set[tuple[str, int]]


@dataclass
class _Followed:
    version: int
    #: (window id, seat) -> the version at which that obligation opened.
    opened: dict[tuple[str, int], int] = field(default_factory=dict)
    #: seat -> the version its latest move produced.
    moved: dict[int, int] = field(default_factory=dict)


class Moments:
    def __init__(self) -> None:
        self.games: dict[int, _Followed] = {}

    def moved(self, game_id: int, seat: int | None, version: int, before: Owed, after: Owed, over: bool) -> None:
        """A move took the game from `version - 1` (owing `before`) to `version` (owing `after`)."""
        if over:
            self.games.pop(game_id, None)
            return
        known = self.games.get(game_id)
        if known is None or known.version != version - 1:
            # Not followed up to here: everything owed counts as opened now.
            known = self.games[game_id] = _Followed(version, {key: version for key in after})
        else:
            known.opened = {key: known.opened.get(key, version) if key in before else version for key in after}
            known.version = version
        if seat is not None:
            known.moved[seat] = version

    def still_own(self, game: GameRow, seat: int, drawn: int) -> bool:
        """Whether a click `seat` drew at version `drawn` is still its own decision now."""
        known = self.games.get(game.id)
        if known is None or known.version != game.version or game.state is None or drawn > game.version:
            return False
        if known.moved.get(seat, 0) > drawn:
            return False  # they moved since: the panel they clicked showed an earlier moment of theirs
        mine = [key for key in obligations(game, game.state) if key[1] == seat]
        return bool(mine) and all(known.opened.get(key, game.version) <= drawn for key in mine)

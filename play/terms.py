"""What a plan reads of a game's settings and clock, worked out once and kept per game.

Every move plans every open obligation again (plan.py), and for each it asked the same things
afresh: the settings merged over the house's, whether the window's kind lapses and its length,
each seat's clock (its person's quiet hours and the absences the game granted them) and the time
left in its bank. These change only when the game's settings or clock change (both are replaced,
never changed in place: a new dict is written and read back, `GameRow.moved` shares them), or
when the people's quiet hours do (seen.py gives a new dict then). `Terms` holds the very objects
it was worked out from, and `holds` says whether they are still the game's.
"""

from __future__ import annotations

from typing import Any

from engine.core import Game
from store import GameRow

from . import settings as settings_mod, timing
from .quiet import Quiet


class Terms:
    def __init__(self, game: GameRow, game_rules: Game, daily: dict[int, Quiet]) -> None:
        self.title, self.settings, self.clock, self.daily = game.title, game.settings, game.clock, daily
        self.rules = game_rules
        self.conf: dict[str, Any] = settings_mod.merged(game.settings)  # shared: read it only
        self._kinds: dict[str, tuple[bool, int]] = {}
        self._clocks: dict[tuple[int, bool], Quiet] = {}
        self._banks: dict[int, float] = {}

    def holds(self, game: GameRow, daily: dict[int, Quiet]) -> bool:
        """Whether what these were worked out from is still the game's (and its people's)."""
        return game.settings is self.settings and game.clock is self.clock and daily is self.daily \
            and game.title == self.title

    def kind(self, kind: str) -> tuple[bool, int]:
        """Whether a late person misses a window of this kind (`plan.lapses`), and its length
        (`settings.deadline_for`)."""
        found = self._kinds.get(kind)
        if found is None:
            try:
                lapse = self.rules.timer(kind).lapse
            except KeyError:
                lapse = False
            found = self._kinds[kind] = (lapse, settings_mod.deadline_for(self.rules, self.conf, kind))
        return found

    def clock_of(self, seat: int, lapse: bool = False) -> Quiet:
        """`timing.person_clock` of the seat."""
        found = self._clocks.get((seat, lapse))
        if found is None:
            found = self._clocks[(seat, lapse)] = timing.clock_in(self.clock, seat, self.conf, self.daily.get(seat),
                                                                  lapse=lapse)
        return found

    def bank(self, seat: int) -> float:
        """`timing.bank_left` of the seat."""
        found = self._banks.get(seat)
        if found is None:
            found = self._banks[seat] = timing.bank_in(self.clock, seat, self.conf)
        return found

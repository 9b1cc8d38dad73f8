"""The E-Wars seat-filler's dispatch (engine/ewars/ai_dispatch.py, issue 26): whose cards it
goes after."""

from __future__ import annotations

import random

from engine.ewars import GAME
from engine.ewars.data import card_ids, employee_ids


def _only(st, seat, ranks):
    """The seat holds only these ranks; the rest lie in its public discard pile."""
    st["hands"][seat] = [e for e in employee_ids(seat) if e.split("-")[1] in ranks]
    st["discards"][seat] = [e for e in employee_ids(seat) if e not in st["hands"][seat]]


def test_ai_strikes_the_leading_rival_rather_than_a_trailing_one():
    """Three seats. Our B2 shares row B with the leader's B4 (10 cards won) and column 2 with
    the last seat's D2 (2 cards won). Both rivals hold nothing but Staff, so neither can
    strike back: a Manager on B2 removes the leader's employee, a Section Chief the other's.
    Each costs a rival one card, but only the leader's card stands between us and first
    place. The old dispatch counted every rival's card alike (0.8) and sent either rank at
    random."""
    st = GAME.setup(3, 65)
    st["parent"] = 0
    st["phase"] = "dispatch"
    st["claims"][5] = 0          # our B2
    st["claims"][7] = 1          # the leader's B4
    st["claims"][13] = 2         # the trailing seat's D2
    spare = [c for c in card_ids() if c not in st["cells"]]
    st["scores"][1] = spare[:10]
    st["scores"][2] = spare[10:12]
    st["deck"] = [c for c in st["deck"] if c not in spare[:12]]
    _only(st, 0, ("manager", "section_chief", "staff"))
    _only(st, 1, ("staff",))
    _only(st, 2, ("staff",))
    legal = GAME.legal(st, 0)
    for seed in range(10):
        choice = GAME.ai_action(GAME.view(st, 0), legal, random.Random(seed))
        assert choice == {"type": "dispatch", "pos": "B2", "rank": "manager"}

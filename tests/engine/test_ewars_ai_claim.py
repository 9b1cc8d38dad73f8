"""The E-Wars seat-filler's claim order at the dice (engine/ewars/ai_claim.py, issue 26)."""

from __future__ import annotations

import random

from engine.ewars import GAME

from tests.support.ewars_state import dice_state, only_cards


def _dice_state(cards):
    """Two seats in dice time, seat 0 to move. Exactly `cards` (cell index -> face pair such as
    "11") lie on the table, every other cell holds a card with both faces 4 or more."""
    st = dice_state()
    only_cards(st, cards)
    st["acted"] = [True, True]
    return st


def test_ai_claims_first_the_card_a_rival_can_take():
    """Dice 1 1 2 3 claim both 1-1 (A1) and 2-3 (D1), one now and one at the next move. The
    rival's dice (1 1) fit only A1, so A1 goes first though it is a little exposed (a rival
    claim on its row): D1 keeps, as no rival die fits it. The old choice counted the second
    claim alike either way and took the unexposed D1, leaving A1 to the rival."""
    st = _dice_state({0: "11", 12: "23", 1: "45"})
    st["claims"][1] = 1          # the rival's A2, on A1's row
    st["dice"][0] = [1, 1, 2, 3]
    st["dice"][1] = [1, 1]
    legal = GAME.legal(st, 0)
    assert {a["pos"] for a in legal if a["type"] == "claim"} == {"A1", "D1"}
    for seed in range(5):
        assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(seed)) == {"type": "claim", "pos": "A1"}


def test_ai_claims_the_card_worth_more_when_no_rival_can_take_either():
    """The same table with the rival's dice fitting neither card: nothing is at risk, so the
    unexposed D1 goes first (the plan's later claim counts alike both ways)."""
    st = _dice_state({0: "11", 12: "23", 1: "45"})
    st["claims"][1] = 1
    st["dice"][0] = [1, 1, 2, 3]
    st["dice"][1] = [6, 6]
    legal = GAME.legal(st, 0)
    for seed in range(5):
        assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(seed)) == {"type": "claim", "pos": "D1"}


def _spend(st, seat, ranks):
    """Move these ranks of the seat's hand to its public discard pile."""
    for r in ranks:
        e = next(e for e in st["hands"][seat] if e.split("-")[1] == r)
        st["hands"][seat].remove(e)
        st["discards"][seat].append(e)


def test_ai_weighs_a_rival_claim_by_the_ranks_the_rival_still_holds():
    """Two 1-1 cards, A1 and B4, and dice for one of them. The rival's claims A3 and C1 share
    A1's row and column, and B4 touches A3 on a diagonal; but the rival has spent its
    Executive, Manager and Section Chief (public discards), so nothing it can still send
    reaches A1, while its Subsection Chiefs may strike B4 from A3. A1 is the safe card. The
    old choice counted rival claims in line alike (two for A1, one for B4) and took B4."""
    st = _dice_state({0: "11", 7: "11"})
    st["claims"][2] = st["claims"][8] = 1   # the rival's A3 and C1
    st["dice"][0] = [1, 1]
    st["dice"][1] = [6, 6]
    _spend(st, 1, ["executive", "manager", "section_chief"])
    legal = GAME.legal(st, 0)
    assert {a["pos"] for a in legal if a["type"] == "claim"} == {"A1", "B4"}
    for seed in range(5):
        assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(seed)) == {"type": "claim", "pos": "A1"}


def test_ai_claims_away_from_the_card_a_rival_is_about_to_claim():
    """Dice 1 2 fit two 1-2 cards, A1 and D3, and nothing else; nobody has claimed yet. The
    rival's dice (3 3) fit B2 alone, so it is about to claim the card diagonally next to A1,
    from where its Executive or Subsection Chiefs would reach A1; nothing on B2 reaches D3.
    D3 is the safe card. The old choice weighed only claims already made, called the two
    cards alike and took either at random."""
    st = _dice_state({0: "12", 14: "12", 5: "33"})
    st["dice"][0] = [1, 2]
    st["dice"][1] = [3, 3]
    legal = GAME.legal(st, 0)
    assert {a["pos"] for a in legal if a["type"] == "claim"} == {"A1", "D3"}
    for seed in range(10):
        assert GAME.ai_action(GAME.view(st, 0), legal, random.Random(seed)) == {"type": "claim", "pos": "D3"}

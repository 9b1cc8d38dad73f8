"""Filthy Rich's seat-filler against the luxury rush (issue 26): it reads a rush off the table
(luxuries bought with no business behind them, money in hand) and races or blocks it. Positions
are set up through the engine and judged through `ai_action` on the seat's own view."""

from __future__ import annotations

import random

from engine.filthyrich import GAME, race
from engine.filthyrich.data import LUXURIES, kind


def _position(players: int = 2, seed: int = 3) -> tuple[dict, int, int]:
    """Turn start of the active seat (the seat-filler); the next seat is the rival."""
    st = GAME.setup(players, seed)
    me = st["active"]
    rival = (me + 1) % players
    return st, me, rival


def _give_luxuries(st: dict, seat: int, names: list[str]) -> None:
    for x in names:
        st["market"].remove(x)
        st["lux"][seat].append(x)


def _hand(st: dict, seat: int, card_kind: str) -> str:
    """Put a card of that kind first in the seat's hand (from the deck or another hand)."""
    for pile in [st["deck"], *st["hands"]]:
        card = next((c for c in pile if kind(c) == card_kind), None)
        if card is not None:
            pile.remove(card)
            st["hands"][seat].insert(0, card)
            return card
    raise AssertionError(f"no {card_kind} to hand out")


def _open(st: dict, seat: int, card_kind: str) -> str:
    """Open that business through the engine, then start the seat's turn afresh."""
    from engine.filthyrich import resolve
    from engine.filthyrich.data import ACTIONS_PER_TURN

    card = _hand(st, seat, card_kind)
    st["money"][seat] = 100
    play = next(a for a in GAME.legal(st, seat) if a["type"] == "play" and a["card"] == card)
    GAME.apply(st, seat, play)
    st["turn"] = resolve.new_turn_flags(ACTIONS_PER_TURN)
    return card


def _choose(st: dict, seat: int, level: str = "strong") -> dict:
    return GAME.ai_action(GAME.view(st, seat), GAME.legal(st, seat), random.Random(1), level=level)


def test_a_rusher_able_to_finish_next_turn_is_denied_the_luxury_it_needs():
    st, me, rival = _position()
    _give_luxuries(st, rival, ["personal_trainer", "entourage"])  # no business: a rush
    cheapest = min(st["market"], key=lambda x: LUXURIES[x]["price"])
    st["money"][rival] = LUXURIES[cheapest]["price"]
    st["money"][me] = LUXURIES[cheapest]["price"]
    view = GAME.view(st, me)
    assert race.rushing(view, rival) and race.eta(view, rival) == 0
    assert _choose(st, me) == {"type": "buy_luxury", "luxury": cheapest}
    # The friendly seat-filler does not read the race: it keeps its money for its own plans.
    assert _choose(st, me, "friendly") != {"type": "buy_luxury", "luxury": cheapest}


def test_two_luxuries_and_businesses_worth_the_third_sell_for_the_win():
    st, me, _ = _position()
    _give_luxuries(st, me, ["personal_trainer", "entourage"])
    cheapest = min(LUXURIES[x]["price"] for x in st["market"])
    business = _open(st, me, "hotel")  # four ad cards: sells for $8
    st["money"][me] = cheapest - 2
    for level in ("strong", "friendly"):
        assert _choose(st, me, level) == {"type": "sell", "business": business}


def test_a_two_player_race_buys_the_cheapest_luxury_at_once():
    st, me, rival = _position()
    _give_luxuries(st, rival, ["personal_trainer"])
    st["money"][me] = 10
    action = _choose(st, me)
    assert action["type"] == "buy_luxury"
    assert LUXURIES[action["luxury"]]["price"] == min(LUXURIES[x]["price"] for x in st["market"])


def test_a_race_keeps_the_loan_sharks_money_for_the_luxuries():
    """The shark's $20 was taken to race: repaying it at once (as a rich seat-filler used to)
    throws the race away."""
    st, me, rival = _position()
    _give_luxuries(st, rival, ["personal_trainer", "entourage"])
    _hand(st, me, "loan_shark")
    GAME.apply(st, me, {"type": "play", "card": st["hands"][me][0]})
    st["money"][me] = 32  # past the luxury purchases: the money waits for the next turn
    view = GAME.view(st, me)
    assert race.racing(view) and race.luxuries_cost(view) > 32 - 20
    assert _choose(st, me)["type"] != "repay"

"""The seat-filler's two strengths (issue 26): `Game.ai_action(view, legal, rng, level=...)` with
level "friendly" (plausible but weaker moves, never a move that throws the game away) or
"strong" (the default). Every title takes both, refuses anything else, finishes whole games at
either level, and the friendly level keeps the rules each title's "never throw it away" needs."""

from __future__ import annotations

import random

import pytest

import engine
from engine.core import AI_LEVELS, DEFAULT_AI_LEVEL, SYSTEM, check_level

TITLES = sorted(engine.discover())  # the titles of engine/ (tests may register a toy one)


def _game(title: str, seats: int, seed: int, levels: list[str], steps: int = 6000) -> tuple[dict, list]:
    """A whole game with the seat-filler of levels[s] on seat s; the moves it chose, checked legal
    by the engine itself (apply refuses anything else)."""
    game = engine.get(title)
    rng = random.Random(seed)
    state = game.setup(seats, seed, {})
    moves = []
    for _ in range(steps):
        if game.outcome(state) is not None:
            return state, moves
        action, seat = None, None
        movers = [s for s in range(seats) if game.legal(state, s)]
        for s in rng.sample(movers, len(movers)):
            action = game.ai_action(game.view(state, s), game.legal(state, s), rng, level=levels[s])
            if action is not None:
                seat = s
                break
        if action is None:
            action, seat = {"type": "timeout", "id": game.windows(state)[0].id}, SYSTEM
        moves.append((seat, action))
        game.apply(state, seat, action)
    raise AssertionError(f"{title}: a game at levels {levels} did not end in {steps} actions")


def test_the_levels_and_the_default():
    assert AI_LEVELS == ("friendly", "strong") and DEFAULT_AI_LEVEL == "strong"
    assert check_level("friendly") == "friendly"
    with pytest.raises(ValueError):
        check_level("hard")


@pytest.mark.parametrize("title", TITLES)
def test_every_title_takes_both_levels_and_refuses_others(title):
    game = engine.get(title)
    state = game.setup(game.min_players, 5, {})
    seat = next(s for s in range(game.min_players) if game.legal(state, s))
    view, legal = game.view(state, seat), game.legal(state, seat)
    default = game.ai_action(view, legal, random.Random(9))
    assert default == game.ai_action(view, legal, random.Random(9), level="strong")
    assert game.ai_action(view, legal, random.Random(9), level="friendly") is not None or seat not in view["to_act"]
    with pytest.raises(ValueError):
        game.ai_action(view, legal, random.Random(9), level="hard")


@pytest.mark.parametrize("title", TITLES)
def test_friendly_and_mixed_tables_finish_their_games(title):
    game = engine.get(title)
    for seats in (game.min_players, min(game.max_players, 4)):
        levels = ["friendly" if s % 2 == 0 else "strong" for s in range(seats)]
        state, moves = _game(title, seats, 40 + seats, levels)
        assert game.outcome(state) is not None and moves


def test_filthy_rich_friendly_keeps_the_reserve_and_takes_the_win():
    """Never a voluntary spend below the taxes expected before its next turn; the third luxury
    whenever it can pay for it."""
    from engine.filthyrich import GAME, risk
    from engine.filthyrich.data import LUXURIES, LUXURIES_TO_WIN

    for seed in range(6):
        st = GAME.setup(4, 60 + seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if GAME.outcome(st) is not None:
                break
            seat = GAME.to_act(st)[0]
            view, legal = GAME.view(st, seat), GAME.legal(st, seat)
            action = GAME.ai_action(view, legal, rng, level="friendly")
            mine = view["seats"][seat]
            if len(mine["luxuries"]) == LUXURIES_TO_WIN - 1 and any(a["type"] == "buy_luxury" for a in legal):
                assert action["type"] == "buy_luxury"
            money = st["money"][seat]
            GAME.apply(st, seat, action)
            spends = action["type"] == "buy_luxury" or (action["type"] == "play" and "slots" in action)
            if spends and st["money"][seat] < money and GAME.outcome(st) is None:
                public = GAME.view(st, None)
                public["me"] = seat
                assert st["money"][seat] >= risk.expected_taxes(public, seat), (action, money, st["money"][seat])
        assert LUXURIES  # the data the checks read


def test_black_friday_friendly_turns_money_into_silver_late():
    """Late in the game (silver at $65 or more) with money for silver, it buys silver or sells
    stock for it: it never sits on cash that the end would turn into silver at $100."""
    from engine.blackfriday import GAME, data
    from tests.support.blackfriday_state import new

    st = new(3)
    st["silver"] = next(i for i, p in enumerate(data.SILVER) if p >= 65)
    seat = st["active"]
    st["players"][seat].update(money=3 * data.SILVER[st["silver"]], bags=[0] * 5, owed=0)
    view, legal = GAME.view(st, seat), GAME.legal(st, seat)
    for r in range(10):
        action = GAME.ai_action(view, legal, random.Random(r), level="friendly")
        assert action["type"] in ("silver", "subsidy"), action


def test_im_the_boss_friendly_closes_what_it_can_and_never_sabotages():
    from engine.imtheboss import GAME

    sabotage = {"travel", "boss"}
    for seed in range(4):
        state, moves = _game("imtheboss", 4, 70 + seed, ["friendly"] * 4)
        assert not [a for _, a in moves if a["type"] in sabotage]
        assert GAME.outcome(state) is not None
    from tests.support.imtheboss_state import ANN, make

    st = make(3, {"red": ANN, "orange": ANN}, marker=3)
    GAME.apply(st, ANN, {"type": "deal_here"})
    assert GAME.ai_action(GAME.view(st, ANN), GAME.legal(st, ANN), random.Random(1), level="friendly") == \
        {"type": "close"}


def test_e_wars_friendly_claims_what_its_dice_allow():
    from engine.ewars import GAME

    state = GAME.setup(2, 8, {})
    rng = random.Random(8)
    claimed = 0
    for _ in range(400):
        if GAME.outcome(state) is not None:
            break
        seat = next((s for s in GAME.to_act(state) if GAME.legal(state, s)), None)
        if seat is None:
            GAME.apply(state, SYSTEM, {"type": "timeout", "id": GAME.windows(state)[0].id})
            continue
        legal = GAME.legal(state, seat)
        action = GAME.ai_action(GAME.view(state, seat), legal, rng, level="friendly")
        if any(a["type"] == "claim" for a in legal):
            assert action["type"] == "claim"
            claimed += 1
        GAME.apply(state, seat, action)
    assert claimed > 0

"""Filthy Rich's seat-filler keeps money back for the taxes other players' rolls will bring
(issue 14): all-AI games rarely bankrupt anyone, it still beats random seats, and it never
spends its way below the taxes it can expect before its next turn."""

from __future__ import annotations

import random

from engine.filthyrich import GAME, race, risk
from engine.filthyrich.data import LUXURIES_TO_WIN, kind

SEEDS = range(24)


def _ai_game(players: int, seed: int, on_action=None) -> dict:
    st = GAME.setup(players, 31_000 + seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if GAME.outcome(st) is not None:
            return st
        seat = GAME.to_act(st)[0]
        view = GAME.view(st, seat)
        action = GAME.ai_action(view, GAME.legal(st, seat), rng)
        money = st["money"][seat]
        GAME.apply(st, seat, action)
        if on_action:
            on_action(view, seat, action, money, st)
    raise AssertionError("an all-AI game did not end")


def test_all_ai_five_player_games_rarely_bankrupt_anyone():
    """Was 1.35 eliminations per game, mostly taxes on other players' rolls at $0-5."""
    out = 0
    for seed in SEEDS:
        st = _ai_game(5, seed)
        out += sum(1 for alive in st["alive"] if not alive)
    assert out / len(SEEDS) < 0.3, out / len(SEEDS)


def test_no_luxury_bought_without_an_income_behind_it():
    """With the starting $10, no business and nothing to open, the seat-filler used to buy the
    Personal Trainer (or the tax-doubling Entourage) and starve; it keeps its money instead."""
    st = GAME.setup(5, 3)
    seat = st["active"]
    st["deck"] += st["hands"][seat]
    st["hands"][seat] = []
    for k in ("angel_investor", "detour", "rush_hour", "overtime", "city_contract"):
        card = next(c for c in st["deck"] if kind(c) == k)
        st["deck"].remove(card)
        st["hands"][seat].append(card)
    legal = GAME.legal(st, seat)
    assert any(a["type"] == "buy_luxury" for a in legal)
    for r in range(20):
        action = GAME.ai_action(GAME.view(st, seat), legal, random.Random(r))
        assert action["type"] != "buy_luxury", action


def test_voluntary_spending_keeps_the_expected_taxes():
    """Whenever the seat-filler buys a luxury (not its winning third, nor one that stops a rival
    who would otherwise buy its third at its next turn: race.denial), bids, or opens a
    business, it keeps at least the taxes it can expect before its next turn."""
    spent: list[tuple[int, int]] = []

    def after(view, seat, action, money_before, st):
        winning = action["type"] in ("buy_luxury", "bid") and len(view["seats"][seat]["luxuries"]) >= LUXURIES_TO_WIN - 1
        denial = action["type"] == "buy_luxury" and race.denial(view) == action["luxury"]
        if winning or denial or GAME.outcome(st) is not None:
            return
        spends = action["type"] == "buy_luxury" or (action["type"] == "play" and "slots" in action)
        if spends and st["money"][seat] < money_before:
            # What the seat will owe per zero now, times the zeros expected before its turn.
            public = GAME.view(st, None)
            public["me"] = seat
            spent.append((st["money"][seat], risk.expected_taxes(public, seat)))

    for seed in range(16):
        _ai_game(5, seed, after)
    assert spent, "the seat-filler never spent anything"
    short = [(m, need) for m, need in spent if m < need]
    assert not short, f"{len(short)} of {len(spent)} spends left less than the expected taxes: {short[:5]}"


def test_seat_filler_beats_random_seats():
    """Keeping a reserve must not cost wins: one seat-filler against four random seats (was 77 %
    in the issue's measure)."""
    wins = 0.0
    games = 20
    for k in range(games):
        st = GAME.setup(5, 41_000 + k)
        rng = random.Random(k)
        hero = k % 5
        for _ in range(20000):
            if GAME.outcome(st) is not None:
                break
            seat = GAME.to_act(st)[0]
            legal = GAME.legal(st, seat)
            action = GAME.ai_action(GAME.view(st, seat), legal, rng) if seat == hero else rng.choice(legal)
            GAME.apply(st, seat, action)
        places = GAME.outcome(st).places
        if places[hero] == 1:
            wins += 1 / places.count(1)
    assert wins / games >= 0.8, wins / games


"""`python -m bench --only ai`: the previous seat-filler is read from git (its title's whole
package) into a throwaway package beside the current one, and plays whole games against it
(figures are not checked)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import engine
from bench import ai
from bench.ai import ROOT


def test_a_previous_seat_filler_loads_from_git_with_its_own_helpers_and_plays():
    """The previous seat-filler is the whole package at that rev: its helpers (Filthy Rich's
    race.py and value.py) are the rev's, not today's, so a change spread over several modules is
    measured whole."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    old = ai.load_previous("filthyrich", head)
    assert callable(old.choose) and old is not sys.modules["engine.filthyrich.ai"]
    package = old.__name__.rsplit(".", 1)[0]
    for helper in ("race", "value"):
        mine, today = sys.modules[f"{package}.{helper}"], importlib.import_module(f"engine.filthyrich.{helper}")
        assert mine is not today and not Path(mine.__file__).is_relative_to(ROOT)
    assert old.race is sys.modules[f"{package}.race"]
    current = engine.get("filthyrich").ai_action
    share, results = ai.duel("filthyrich", 3, 2, current, old.choose, seed=5)
    assert 0.0 <= share <= 1.0 and all(r.places is not None for r in results)
    assert all(isinstance(r.actions, int) and r.actions > 0 for r in results)


def test_eliminations_are_counted_by_cause():
    """Filthy Rich's bankruptcies are counted and attributed (tax, audit or interest)."""
    games = [ai.play("filthyrich", [ai.random_policy] * 4, seed) for seed in range(3)]
    for r in games:
        assert len(r.causes) == len(r.eliminated) or r.places is None
        assert set(r.causes) <= {"tax", "audit", "interest"}
    assert any(r.eliminated for r in games)


def test_games_a_previous_seat_filler_never_ends_are_reported(monkeypatch):
    """A previous seat-filler written for older rules may never finish a game: the bench says
    how many games did not end instead of printing a bare 0 % (E-Wars' dispatch confirm)."""

    class Stuck:
        @staticmethod
        def choose(view, legal, rng):
            return None  # waits for ever: only deadlines move the game

    # Ten steps end no game: against four waiting seats today's seat-filler, which buys every
    # luxury it still needs once its money pays for them, took 17 to 93 actions to win on
    # seeds 0-39 (40 steps let one game of two end).
    monkeypatch.setattr(ai, "MAX_STEPS", 10)
    monkeypatch.setattr(ai, "load_previous", lambda title, rev: Stuck)
    rows = ai.run(("filthyrich",), 2, prev="0" * 40)
    unended = [r for r in rows if r.metric == "games vs previous AI not ended"]
    assert unended and unended[0].median == 2


def test_the_greedy_baseline_takes_the_best_immediate_standing():
    """Filthy Rich's greedy seat buys the cheapest luxury it can afford (+$50 of standing for its
    price) before anything else: the rush the seat-filler must beat."""
    import random

    from bench.greedy import Greedy, standing
    from engine.filthyrich.data import LUXURIES

    game = engine.get("filthyrich")
    state = game.setup(3, 11)
    seat = state["active"]
    state["money"][seat] = 40
    # No Estate Sale in hand: a luxury at a discount would rightly come first.
    hand = state["hands"][seat]
    for i, card in enumerate(hand):
        if card.startswith("estate_sale"):
            swap = next(c for c in state["deck"] if not c.startswith("estate_sale"))
            state["deck"][state["deck"].index(swap)] = card
            hand[i] = swap
    legal = game.legal(state, seat)
    buys = [a for a in legal if a["type"] == "buy_luxury"]
    assert buys
    action = Greedy("filthyrich").choose(state, seat, legal, random.Random(1))
    assert action["type"] == "buy_luxury"
    assert LUXURIES[action["luxury"]]["price"] == min(LUXURIES[a["luxury"]]["price"] for a in buys)
    before = standing(game, state, seat)
    game.apply(state, seat, action)
    assert standing(game, state, seat) > before


def test_greedy_games_end_and_replay_from_their_seed():
    from bench.greedy import Greedy

    for title in ("imtheboss", "ewars"):
        game = engine.get(title)
        greedy = Greedy(title)
        first = ai.play(title, [game.ai_action, greedy], seed=3)
        again = ai.play(title, [game.ai_action, greedy], seed=3)
        assert first.places is not None and (first.places, first.actions) == (again.places, again.actions)


def test_the_bench_prints_the_greedy_figures_and_the_decision_time():
    rows = ai.run(("ewars",), 2, prev="none")
    metrics = {r.metric for r in rows}
    assert {"(a) 1 seat-filler among greedy: firsts", "(b) 1 greedy among seat-fillers: firsts",
            "(c) seat-filler vs greedy, 2 players: wins", "(d) 1 seat-filler among random: firsts"} <= metrics
    timing = next(r for r in rows if r.metric.startswith("seat-filler decision"))
    assert timing.n and timing.n > 0 and timing.p99 is not None and timing.target == "p99<50"

"""`python -m bench --only ai`: the previous seat-filler is read from git into a throwaway
module beside the current one, and plays whole games against it (figures are not checked)."""

from __future__ import annotations

import subprocess
import sys

import engine
from bench import ai
from bench.ai import ROOT


def test_a_previous_seat_filler_loads_from_git_and_plays():
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    old = ai.load_previous("filthyrich", head)
    assert callable(old.choose) and old.__name__ not in sys.modules
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
            return None  # waits for ever: only deadlines move the game, and never to its end here

    monkeypatch.setattr(ai, "MAX_STEPS", 40)
    monkeypatch.setattr(ai, "load_previous", lambda title, rev: Stuck)
    rows = ai.run(("filthyrich",), 2, prev="0" * 40)
    unended = [r for r in rows if r.metric == "games vs previous AI not ended"]
    assert unended and unended[0].median == 2

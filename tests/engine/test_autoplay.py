"""engine.autoplay plays whole games with the seat-fillers, the same game for the same seed."""

import pytest

import engine
from engine.autoplay import play


@pytest.mark.parametrize("title", sorted(engine.titles()))
def test_autoplay_ends_and_repeats(title):
    game = engine.get(title)
    seats = game.max_players
    first, n = play(game, seats, 11)
    again, m = play(game, seats, 11)
    assert game.outcome(first) is not None and n > 0
    assert (first, n) == (again, m)
    part, k = play(game, seats, 11, until=lambda _s, step: step >= n // 2)
    assert k == n // 2 and game.outcome(part) is None

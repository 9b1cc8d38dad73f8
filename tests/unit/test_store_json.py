"""What the store writes as JSON (store/rows.py `dumps`: orjson, the json module for what orjson
refuses) reads back as the json module wrote it before: whole games' states, actions and events,
int keys, text in any script, and integers beyond 64 bits (the seed in a state stored before
seeds were kept as text), which only the fallback writes and only the json module reads exactly."""

from __future__ import annotations

import itertools
import json

import pytest

import engine
from engine.autoplay import steps
from engine.core import Chance
from store.rows import dumps, loads

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")


def _as_before(value):
    return json.loads(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


@pytest.mark.parametrize("title", TITLES)
def test_whole_games_read_back_as_the_json_module_wrote_them(title):
    game = engine.get(title)
    for state, _seat, action, events in itertools.islice(steps(game, game.max_players, 5), 0, 600, 11):
        for value in (state, action, events):
            text = dumps(value)
            assert isinstance(text, str) and loads(text) == _as_before(value)


def test_what_orjson_refuses_or_converts_is_written_as_json_wrote_it():
    big = 2**127 + 12345
    values = [{"chance": {"seed": big, "n": 3}}, {1: "one", "2": [True, None]}, {"名前": "千代子 🤖", "s": "é\n\"q\""},
              [1.5, -0.0, 10**18, -(2**63)]]
    for value in values:
        assert loads(dumps(value)) == _as_before(value)
    assert loads(dumps({"seed": big}))["seed"] == big  # exactly, not a float


def test_a_seed_kept_as_text_draws_what_the_integer_drew():
    seed = 2**127 + 987654321
    old, new = {"seed": seed, "n": 0}, Chance.new(seed)
    assert new == {"seed": str(seed), "n": 0}
    assert [Chance(old).randint(1, 6) for _ in range(20)] == [Chance(new).randint(1, 6) for _ in range(20)]

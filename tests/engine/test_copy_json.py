"""`copy_json` (every move's copy in `Game.apply`, every view's) gives exactly what a JSON save
and load gives, without the round trip for a value that is JSON already (issue 23: the copy was
a tenth of an action's CPU): the same keys, values and types, no container shared with the
original; int keys, tuples and subclasses converted as JSON converts them; sets refused."""

from __future__ import annotations

import enum
import itertools
import json
import math

import pytest

import engine
from engine import core
from engine.autoplay import steps
from engine.core import copy_json

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")


def _round_trip(value):
    return json.loads(json.dumps(value))


def _same(a, b) -> bool:
    """Equal, with the same type at every node (True == 1 in Python; not here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b))


def _containers(value, out):
    if isinstance(value, (dict, list, tuple)):
        out.add(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, out)
    return out


def _check(value) -> None:
    copied = copy_json(value)
    assert _same(copied, _round_trip(value))
    assert not _containers(copied, set()) & _containers(value, set()), "a container is shared"


@pytest.mark.parametrize("title", TITLES)
def test_states_and_views_of_whole_games(title):
    game = engine.get(title)
    players = game.min_players + 1
    for state, _seat, _action, events in itertools.islice(steps(game, players, 17), 0, 400, 7):
        _check(state)
        _check(events)
        for seat in (None, *range(players)):
            _check(game._view(state, seat))  # the title's own view, before `view` copies it


class Colour(str, enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


def test_what_json_converts_is_converted_the_same():
    odd = {
        "tuple": (1, (2, 3), [4, {"x": (5,)}]),
        "int keys": {1: "a", 2: {3: "b"}},
        "mixed keys": {1: "a", "1": "b", None: 0, False: 1, 2.5: 2},
        "subclasses": [Colour.RED, Level.HIGH, {"k": Colour.RED}],
        "floats": [0.1, -0.0, 1e300, float("inf"), float("nan")],
        "big": 2**80,
        "leaves": [None, True, False, 0, "", "ü 漢"],
    }
    for value in (odd, *odd.values(), [odd, odd]):
        _check(value)


@pytest.mark.parametrize("bad", [{1, 2}, {"a": {1, 2}}, [object()], {"k": b"bytes"}, {(1, 2): "tuple key"}])
def test_what_json_refuses_is_refused(bad):
    with pytest.raises(TypeError):
        copy_json(bad)


def test_a_json_value_is_copied_without_the_round_trip(monkeypatch):
    """The point of the change: the states the house keeps (JSON already) skip the encoder."""
    state = engine.get("imtheboss").setup(4, 3, {})

    def refused(value):
        raise AssertionError("copied through the encoder")

    monkeypatch.setattr(core, "_ENCODE", refused)
    assert copy_json(state) == state

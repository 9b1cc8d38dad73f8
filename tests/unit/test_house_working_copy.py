"""A move runs its rules on the JSON this process committed the state as, read back by orjson
(store/rows.py `encode` and `decode`, play/games.py `working_copy`), not on a deep copy in Python
(`copy_json`, the most of `Game.apply`'s time): the house encodes the state once for the commit,
the store writes that text as it is, and the cache keeps it beside the snapshot it is the text of.
The game plays as before: the store holds what the cache holds, move after move."""

from __future__ import annotations

import random

import pytest

import engine
from bench.rig import Rig
from engine import core
from store import Seat, open_store
from store.rows import encode


async def test_the_next_move_runs_on_the_committed_text_not_on_a_copy(tmp_path, monkeypatch):
    rig = await Rig.open(tmp_path / "h.db")
    try:
        gid = await rig.new_game("imtheboss", 4, 5, channel_id=42)
        house, rules, rng = rig.house, engine.get("imtheboss"), random.Random(3)
        copied: list[int] = []
        real_copy = core.copy_json

        def copy_json(value):
            if isinstance(value, dict) and "chance" in value:  # a whole state, not an action or events
                copied.append(house.games.cached(gid).version)
            return real_copy(value)

        monkeypatch.setattr(core, "copy_json", copy_json)
        for _ in range(12):
            game = await house.games.game(gid)
            seat = next(s for s in range(4) if rules.legal(game.state, s))
            result = await house.act(gid, seat, rng.choice(rules.legal(game.state, seat)), version=game.version)
            assert result.applied
            stored = await rig.store.get(gid)
            assert stored.version == result.game.version and stored.state == result.game.state
        # The first move starts from the row the start read from the store: copied, as before.
        assert copied == [0]
    finally:
        await rig.close()


@pytest.mark.both_backends
async def test_encoded_state_is_stored_as_the_state_was(database):
    store = await open_store(database)
    try:
        game = await store.create_lobby(guild_id=1, channel_id=5, title="toy", host_id=7, host_name="ann",
                                        lang="en", seed=1, settings={}, now=1.0)
        await store.set_seats(game.id, [Seat(0, 7, "ann"), Seat(1, 8, "bob")], 1.0)
        assert await store.start(game.id, {"n": 0}, {}, 2.0)
        state = {"n": 1, "名前": "千代子 🤖", "q": "é\n\"q\"", "f": [1.5, -0.0, 10**18], "none": None}
        text, raw = encode(state)
        assert raw is not None
        assert await store.commit_action(game.id, expected_version=0, seat=0, user_id=7, action={"type": "a"},
                                         events=[], state=state, state_text=text, now=3.0, timers=[])
        assert (await store.get(game.id)).state == state
    finally:
        await store.close()

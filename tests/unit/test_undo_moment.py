"""The undo memory dates a player's move by the moment the house committed it (its row's
`updated_at`) instead of asking the clock again (issue 23's seventh round: a clock call builds a
datetime on every move), and reads the game's undo time without merging every setting."""

from __future__ import annotations

import random

from bench.rig import Rig
from play import settings as settings_mod
from tests.support.houses import random_move
from play.undo import window


async def test_a_move_is_remembered_at_its_commit_without_a_clock_call(tmp_path):
    rig = await Rig.open(tmp_path / "u.db", tell=False)
    try:
        house = rig.house
        gid = await rig.new_game("imtheboss", 4, 7, channel_id=42)
        asked = []
        clock = house.undo.clock

        def counted():
            asked.append(1)
            return clock()

        house.undo.clock = counted
        prng = random.Random(2)
        remembered = 0
        for _ in range(10):
            result = await random_move(house, gid, prng)
            assert result.applied
            taken = house.undo.moves.get(gid)
            if taken is not None and taken.version == result.game.version:
                assert taken.at == result.game.updated_at
                remembered += 1
        assert remembered > 0
        assert asked == []
    finally:
        await rig.close()


def test_the_undo_time_is_the_merged_settings_one():
    class Row:
        def __init__(self, settings):
            self.settings = settings

    for settings in ({}, None, {"undo": 0}, {"undo": None}, {"undo": 300}, {"undo": 60, "pace": "live"}):
        assert window(Row(settings)) == int(settings_mod.merged(settings).get("undo") or 0)

"""`House.act` never changes the cached snapshot it started from: a refused action leaves the
game as it was, and an applied one gives the cache a new state while the old one (which a panel
or a picture may still be drawing from) stays exactly as it was. The row it read stays too (state, version, clock): the table keeper
draws from a row across awaits, and a row changed under it drew a table half of one version and
half of the next (CI: the window still open above the line saying how it closed)."""

from __future__ import annotations

import json

from bench.rig import Rig
from cogs.titles.contract import ui_for


async def test_act_leaves_the_snapshot_it_read_untouched(tmp_path):
    rig = await Rig.open(tmp_path / "h.db")
    try:
        gid = await rig.new_game("toy", 3, 5, channel_id=42)
        house = rig.house
        game = await house.games.game(gid)
        old = game.state
        frozen = json.dumps(old, sort_keys=True)
        engine = ui_for("toy").game
        seat = engine.to_act(old)[0]
        refused = await house.act(gid, (seat + 1) % 3, {"type": "take", "n": 1}, version=game.version)
        assert refused.kind == "refused"
        assert json.dumps((await house.games.game(gid)).state, sort_keys=True) == frozen
        row_before = (game.version, game.state, game.clock, game.updated_at)
        applied = await house.act(gid, seat, {"type": "take", "n": 2}, version=game.version)
        assert applied.applied
        assert json.dumps(old, sort_keys=True) == frozen, "the old snapshot changed"
        assert (game.version, game.state, game.clock, game.updated_at) == row_before, "the row read was changed"
        assert game.state is old and applied.game is not game and applied.game.version == 1
        fresh = await house.games.game(gid)
        assert fresh.version == 1 and fresh.state["pile"] == old["pile"] - 2
        stored = await rig.store.get(gid)
        assert stored.state == fresh.state and stored.version == 1
    finally:
        await rig.close()


def test_a_moved_row_is_replace_one_version_on_and_leaves_the_row_it_came_from():
    """`GameRow.moved` (House.act's new row, cheaper than `dataclasses.replace`) gives what
    `replace` gives, every field, and changes nothing of the row it is made from."""
    from dataclasses import asdict, fields, replace

    from store import GameRow, Seat

    row = GameRow(7, 1, 42, "toy", "active", 9, "en", {"pile": 9}, {"undo": 120}, 5, {"pile": 3}, 4, None, 11,
                  None, 1.0, 2.0, None, 3, {"bank": {"0": 60.0}}, [Seat(0, 9, "ann"), Seat(1, 8, "bob")])
    before = asdict(row)
    state, clock = {"pile": 1}, {"bank": {"0": 30.0}}
    moved = row.moved(state, 5.0, clock)
    assert moved is not row and type(moved) is GameRow
    assert asdict(row) == before, "the row it came from changed"
    expected = replace(row, state=state, version=5, updated_at=5.0, clock=clock)
    for f in fields(GameRow):
        assert getattr(moved, f.name) is getattr(expected, f.name), f.name

"""The SQLite commit of a move (one INSERT into `commits`, whose trigger does the rest) deletes the
timers a move dropped without building a temporary table for the list (migration 0013): the
row-value IN of 0012 made SQLite fill two ephemeral b-trees at every commit that dropped a row
(docs/PERFORMANCE.md, sixth round). It still deletes exactly the dropped rows of its own game."""

from __future__ import annotations

import sqlite3

from store import Seat, Store, open_store

COMMIT = ("INSERT INTO commits (game_id, expected, seat, user_id, action, events, state, at, finished, timers,"
          " clock, dropped) VALUES (1, 0, 0, 0, '{}', '[]', '{}', 0, NULL, '[]', NULL, '[[\"duty\", \"1\"]]')")


async def _game(store: Store, channel: int) -> int:
    game = await store.create_lobby(guild_id=1, channel_id=channel, title="toy", host_id=7, host_name="ann",
                                    lang="en", seed=1, settings={}, now=1.0)
    await store.set_seats(game.id, [Seat(0, 7, "ann"), Seat(1, 8, "bob")], 1.0)
    assert await store.start(game.id, {"n": 0}, {}, 2.0)
    return game.id


async def test_the_commit_program_builds_no_temporary_list_of_dropped_timers(tmp_path):
    path = tmp_path / "g.db"
    store = await open_store(path)
    await store.close()
    conn = sqlite3.connect(path)
    try:
        program = conn.execute("EXPLAIN " + COMMIT).fetchall()  # the trigger's program is listed too
    finally:
        conn.close()
    ephemeral = [op for op in program if op[1] == "OpenEphemeral"]
    # Two remain: in the UPDATE that ends a game (run only when the move ended it) and the rows
    # of the timers' upsert. The IN list of 0012 added two more, run at every commit that drops.
    assert len(ephemeral) == 2, ephemeral


async def test_a_dropped_timer_goes_from_its_own_game_only(tmp_path):
    store = await open_store(tmp_path / "g.db")
    try:
        mine, other = await _game(store, 100), await _game(store, 101)
        rows = [("duty", "0", 10.0, {"n": 0}), ("duty", "1", 12.0, {"n": 0}), ("duty", "2", 14.0, {"n": 0})]
        for gid in (mine, other):
            assert await store.replace_timers(gid, 0, rows)
        assert await store.commit_action(mine, expected_version=0, seat=1, user_id=8, action={"type": "a"},
                                         events=[], state={"n": 1}, now=21.0, known=rows,
                                         timers=[rows[0], ("duty", "2", 30.0, {"n": 1})])
        assert [(t.ref, t.due_at) for t in await store.timers(mine)] == [("0", 10.0), ("2", 30.0)]
        assert [(t.ref, t.due_at) for t in await store.timers(other)] == [("0", 10.0), ("1", 12.0), ("2", 14.0)]
    finally:
        await store.close()

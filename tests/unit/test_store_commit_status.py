"""SQLite's one-statement commit (migration 0011) writes a game's status, result and end time only
with the move that ends the game: naming `status` in the move's UPDATE made SQLite rewrite the
game's entries in both indexes on it at every move. Seen through an `UPDATE OF status` trigger,
which SQLite fires whenever the column is named in a SET, whatever the value."""

from __future__ import annotations

import sqlite3

from store import Seat, open_store


async def test_a_move_names_the_status_only_when_it_ends_the_game(tmp_path):
    path = tmp_path / "boardroom.db"
    store = await open_store(path)
    try:
        game = await store.create_lobby(guild_id=1, channel_id=5, title="toy", host_id=7, host_name="ann",
                                        lang="en", seed=1, settings={}, now=1.0)
        await store.set_seats(game.id, [Seat(0, 7, "ann"), Seat(1, 8, "bob")], 1.0)
        assert await store.start(game.id, {"n": 0}, {}, 2.0)
        watcher = sqlite3.connect(path, isolation_level=None)
        watcher.executescript(
            "CREATE TABLE status_named (game_id INTEGER, status TEXT);"
            "CREATE TRIGGER note_status AFTER UPDATE OF status ON games"
            " BEGIN INSERT INTO status_named VALUES (NEW.id, NEW.status); END;")
        try:
            for version in range(3):
                assert await store.commit_action(game.id, expected_version=version, seat=version % 2, user_id=7,
                                                 action={"type": "a"}, events=[], state={"n": version + 1},
                                                 now=3.0 + version, timers=[("deadline", "w", 9.0, {})])
            assert watcher.execute("SELECT * FROM status_named").fetchall() == []
            assert await store.commit_action(game.id, expected_version=3, seat=1, user_id=8, action={"type": "b"},
                                             events=[], state={"n": 4}, now=7.0, finished={"places": [2, 1]},
                                             timers=[])
            assert watcher.execute("SELECT * FROM status_named").fetchall() == [(game.id, "finished")]
        finally:
            watcher.close()
        done = await store.get(game.id)
        assert (done.status, done.result, done.finished_at, done.version, done.state) == (
            "finished", {"places": [2, 1]}, 7.0, 4, {"n": 4})
        assert await store.timers(game.id) == [] and await store.action_count(game.id) == 4
    finally:
        await store.close()

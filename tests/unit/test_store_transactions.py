"""The store's transactions, each run in one hand-off to the connection's thread: compare-and-swap
commits, all-or-nothing statements, timers replaced with the action, many writers at once."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from store import MIGRATIONS, Seat, Store


async def _game(store: Store, channel: int) -> int:
    game = await store.create_lobby(guild_id=1, channel_id=channel, title="toy", host_id=7, host_name="ann",
                                    lang="en", seed=1, settings={}, now=1.0)
    await store.set_seats(game.id, [Seat(0, 7, "ann"), Seat(1, 8, "bob")], 1.0)
    assert await store.start(game.id, {"n": 0}, {}, 2.0)
    return game.id


async def test_commit_is_compare_and_swap_with_its_timers(tmp_path):
    store = await Store.open(tmp_path / "s.db")
    try:
        gid = await _game(store, 100)
        ok = await store.commit_action(gid, expected_version=0, seat=0, user_id=7, action={"type": "a"},
                                       events=[{"type": "e"}], state={"n": 1}, now=3.0,
                                       timers=[("deadline", "w:1", 50.0, {"kind": "turn"}), ("ai", "1", 5.0, {})])
        assert ok
        # A second click drawn for version 0 loses and writes nothing.
        lost = await store.commit_action(gid, expected_version=0, seat=1, user_id=8, action={"type": "b"},
                                         events=[], state={"n": 99}, now=4.0, timers=[])
        assert not lost
        game = await store.get(gid)
        assert game.version == 1 and game.state == {"n": 1} and [s.name for s in game.seats] == ["ann", "bob"]
        assert await store.action_count(gid) == 1
        assert sorted((t.kind, t.ref, t.due_at, t.payload) for t in await store.timers(gid)) == [
            ("ai", "1", 5.0, {}), ("deadline", "w:1", 50.0, {"kind": "turn"})]
        # The last action finishes the game and clears its timers.
        assert await store.commit_action(gid, expected_version=1, seat=1, user_id=8, action={"type": "c"}, events=[],
                                         state={"n": 2}, now=5.0, finished={"places": [1, 2]}, timers=[])
        game = await store.get(gid)
        assert game.status == "finished" and game.result == {"places": [1, 2]} and game.finished_at == 5.0
        assert await store.timers(gid) == []
        assert not await store.commit_action(gid, expected_version=2, seat=0, user_id=7, action={"type": "d"},
                                             events=[], state={}, now=6.0)
        assert await store.get(999) is None
    finally:
        await store.close()


async def test_a_failing_statement_rolls_the_whole_transaction_back(tmp_path):
    store = await Store.open(tmp_path / "s.db")
    try:
        gid = await _game(store, 100)
        with pytest.raises(sqlite3.IntegrityError):
            await store._tx([
                ("UPDATE games SET lang = 'ja' WHERE id = ?", (gid,)),
                ("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, 9, 'dup')", (gid,)),
            ])
        assert (await store.get(gid)).lang == "en"
        assert not store.db._conn.in_transaction
        await store.update_game(gid, 7.0, lang="ja")  # the store is still usable
        assert (await store.get(gid)).lang == "ja"
    finally:
        await store.close()


async def test_many_writers_at_once_all_land_in_order(tmp_path):
    store = await Store.open(tmp_path / "s.db")
    try:
        games = [await _game(store, 200 + i) for i in range(20)]

        async def play(gid: int) -> None:
            for v in range(10):
                assert await store.commit_action(gid, expected_version=v, seat=v % 2, user_id=7, action={"v": v},
                                                 events=[], state={"n": v + 1}, now=10.0 + v,
                                                 timers=[("ai", str(v % 2), 20.0 + v, {})])
                await store.replace_timers(gid, [("reminder", "w", 30.0 + v, {})])

        await asyncio.gather(*(play(g) for g in games))
        for gid in games:
            game = await store.get(gid)
            assert game.version == 10 and game.state == {"n": 10}
            assert [a["action"]["v"] for a in await store.actions(gid)] == list(range(10))
            assert [(t.kind, t.due_at) for t in await store.timers(gid)] == [("reminder", 39.0)]
        assert await store.integrity() == "ok"
    finally:
        await store.close()


async def test_migrations_bring_an_older_database_up_to_date(tmp_path):
    """A database made by the first schema (user_version 1) with a game in it gains
    `told_version`, set to each game's version: nothing is told again after the upgrade."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(sorted(MIGRATIONS.glob("*.sql"))[0].read_text(encoding="utf-8"))
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO games (id, channel_id, title, status, host_id, seed, state, version, created_at,"
                 " updated_at) VALUES (1, 100, 'toy', 'active', 7, 1, '{}', 12, 1.0, 1.0)")
    conn.commit()
    conn.close()
    store = await Store.open(path)
    try:
        (number,) = await store._one("PRAGMA user_version")
        assert number == len(list(MIGRATIONS.glob("*.sql"))) >= 2
        game = await store.get(1)
        assert game.version == game.told_version == 12
        assert await store.untold_games() == []
        await store.commit_action(1, expected_version=12, seat=0, user_id=7, action={"type": "a"}, events=[],
                                  state={}, now=2.0)
        assert await store.untold_games() == [1]
        await store.mark_told(1, 13)
        await store.mark_told(1, 5)  # an older flush finishing late never moves it back
        assert (await store.get(1)).told_version == 13 and await store.untold_games() == []
    finally:
        await store.close()

"""The store's transactions, on both backends: compare-and-swap commits, all-or-nothing writes
that leave the store usable after a failure, timers replaced with the action, many writers at
once, seeds of 128 bits kept exactly, and the SQLite migrations of an older database."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

import engine
from store import MIGRATIONS, Seat, Store, open_store
from store.schema import known_version
from tests.support.bot_games import log_problems

pytestmark = pytest.mark.both_backends


async def _game(store: Store, channel: int, seed: int = 1) -> int:
    game = await store.create_lobby(guild_id=1, channel_id=channel, title="toy", host_id=7, host_name="ann",
                                    lang="en", seed=seed, settings={}, now=1.0)
    await store.set_seats(game.id, [Seat(0, 7, "ann"), Seat(1, 8, "bob")], 1.0)
    assert await store.start(game.id, {"n": 0}, {}, 2.0)
    return game.id


async def test_commit_is_compare_and_swap_with_its_timers(database):
    store = await open_store(database)
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
        assert sorted((t.kind, t.ref, t.due_at, t.payload, t.version) for t in await store.timers(gid)) == [
            ("ai", "1", 5.0, {}, 1), ("deadline", "w:1", 50.0, {"kind": "turn"}, 1)]
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


async def test_a_write_failing_mid_transaction_rolls_back_and_the_next_write_works(database):
    """The second statement of a commit fails (a value the database cannot take): the first,
    the snapshot's update, is rolled back with it. Then `finish` fails after its BEGIN: it used
    to leave the connection inside the open transaction, and every later write failed until a
    restart ("cannot start a transaction within a transaction")."""
    store = await open_store(database)
    try:
        gid = await _game(store, 100)
        with pytest.raises(Exception):
            await store.commit_action(gid, expected_version=0, seat=object(), user_id=7,  # type: ignore[arg-type]
                                      action={"type": "a"}, events=[], state={"n": 1}, now=3.0)
        game = await store.get(gid)
        assert game.version == 0 and game.state == {"n": 0} and await store.action_count(gid) == 0
        with pytest.raises(Exception):
            await store.finish(gid, "cancelled", object(), {"reason": "x"})  # type: ignore[arg-type]
        assert (await store.get(gid)).status == "active"
        # The store is still usable: the next writes go through.
        assert await store.commit_action(gid, expected_version=0, seat=0, user_id=7, action={"type": "a"},
                                         events=[], state={"n": 1}, now=3.0)
        await store.update_game(gid, 7.0, lang="ja")
        assert await store.finish(gid, "cancelled", 8.0, {"reason": "ended"})
        game = await store.get(gid)
        assert (game.version, game.lang, game.status) == (1, "ja", "cancelled")
    finally:
        await store.close()


async def test_many_writers_at_once_all_land_in_order(database):
    store = await open_store(database)
    try:
        games = [await _game(store, 200 + i) for i in range(20)]

        async def play(gid: int) -> None:
            for v in range(10):
                assert await store.commit_action(gid, expected_version=v, seat=v % 2, user_id=7, action={"v": v},
                                                 events=[], state={"n": v + 1}, now=10.0 + v,
                                                 timers=[("ai", str(v % 2), 20.0 + v, {})])
                assert await store.replace_timers(gid, v + 1, [("reminder", "w", 30.0 + v, {})])
                assert not await store.replace_timers(gid, v, [("reminder", "w", 99.0, {})])  # an older plan

        await asyncio.gather(*(play(g) for g in games))
        for gid in games:
            game = await store.get(gid)
            assert game.version == 10 and game.state == {"n": 10}
            assert [a["action"]["v"] for a in await store.actions(gid)] == list(range(10))
            assert [(t.kind, t.due_at) for t in await store.timers(gid)] == [("reminder", 39.0)]
        assert await store.integrity() == "ok"
    finally:
        await store.close()


async def test_seeds_of_128_bits_are_kept_exactly_and_replay(database):
    """Seeds are drawn at 128 bits (or more): neither backend's integer column holds them, and a
    seed read back one bit off would deal different hands on replay."""
    store = await open_store(database)
    try:
        seeds = [2**128 - 1, 2**127 + 12345, 2**64 + 1, 2**63, 3, 0]
        ids = [await _game(store, 300 + i, seed=s) for i, s in enumerate(seeds)]
        kept = [(await store.get(i)).seed for i in ids]
        assert kept == seeds and {type(s) for s in kept} == {int}
        # A real title set up from a big seed, its log committed, replays to its snapshot.
        g = engine.get("imtheboss")
        lobby = await store.create_lobby(guild_id=1, channel_id=400, title="imtheboss", host_id=7, host_name="ann",
                                         lang="en", seed=2**128 - 3, settings={}, now=1.0)
        await store.set_seats(lobby.id, [Seat(i, 7 + i, f"p{i}") for i in range(3)], 1.0)
        options = g.resolve_options(3, {})
        state = g.setup(3, lobby.seed, options)
        assert await store.start(lobby.id, state, options, 2.0)
        import random

        rng = random.Random(5)
        for v in range(15):
            seat = next(s for s in range(3) if g.legal(state, s))
            action = g.ai_action(g.view(state, seat), g.legal(state, seat), rng) or g.legal(state, seat)[0]
            events = g.apply(state, seat, action)
            assert await store.commit_action(lobby.id, expected_version=v, seat=seat, user_id=7 + seat, action=action,
                                             events=events, state=state, now=3.0 + v)
        assert await log_problems(store, lobby.id) == []
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_migrations_bring_an_older_database_up_to_date(database):
    """A database made by the first schema (user_version 1) with a game in it gains
    `told_version` (set to each game's version: nothing is told again), its seed becomes text
    with the same value, and its timers are planned for the game's version."""
    conn = sqlite3.connect(database)
    conn.executescript(sorted((MIGRATIONS / "sqlite").glob("*.sql"))[0].read_text(encoding="utf-8"))
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO games (id, channel_id, title, status, host_id, seed, state, version, created_at,"
                 " updated_at) VALUES (1, 100, 'toy', 'active', 7, 9223372036854775807, '{}', 12, 1.0, 1.0)")
    conn.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (1, 0, 7, 'ann')")
    conn.execute("INSERT INTO actions (game_id, seq, action, at) VALUES (1, 12, '{}', 1.0)")
    conn.execute("INSERT INTO timers (game_id, kind, ref, due_at) VALUES (1, 'deadline', 'w', 50.0)")
    conn.commit()
    conn.close()
    store = await open_store(database)
    try:
        game = await store.get(1)
        assert game.version == game.told_version == 12 and game.seed == 2**63 - 1
        assert [s.name for s in game.seats] == ["ann"] and await store.action_count(1) == 1  # nothing cascaded
        assert [(t.kind, t.version, t.owner) for t in await store.timers(1)] == [("deadline", 12, None)]
        assert await store.untold_games() == []
        await store.commit_action(1, expected_version=12, seat=0, user_id=7, action={"type": "a"}, events=[],
                                  state={}, now=2.0)
        assert await store.untold_games() == [1]
        await store.mark_told(1, 13)
        await store.mark_told(1, 5)  # an older flush finishing late never moves it back
        assert (await store.get(1)).told_version == 13 and await store.untold_games() == []
        assert await store.integrity() == "ok"
    finally:
        await store.close()
    with sqlite3.connect(database) as conn:
        (number,) = conn.execute("PRAGMA user_version").fetchone()
        assert number == known_version(MIGRATIONS / "sqlite") >= 3  # numbers may skip (0005 merged before 0004)


async def test_the_log_read_as_it_stood_at_a_version(database):
    # The table's recent moves are read up to the version it draws (cogs/table/message.py): a move
    # committed meanwhile is not told beside a picture of the moment before it.
    store = await open_store(database)
    try:
        gid = await _game(store, 100)
        for version in range(5):
            assert await store.commit_action(gid, expected_version=version, seat=version % 2, user_id=7,
                                             action={"v": version}, events=[], state={"n": version + 1}, now=3.0)
        newest = await store.actions(gid, newest_first=True, limit=2, through=3)
        assert [a["seq"] for a in newest] == [3, 2]
        assert [a["seq"] for a in await store.actions(gid, after=1, through=4)] == [2, 3, 4]
        assert [a["seq"] for a in await store.actions(gid, newest_first=True, limit=2)] == [5, 4]
    finally:
        await store.close()

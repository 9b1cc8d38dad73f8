"""The store's part of undo and the daily digest (issue 19), on both backends: a move is taken
back only at its version and only while it is the log's last (the log then replays to the
snapshot, its record kept apart); the digest is claimed at most once per day, by one caller."""

from __future__ import annotations

import asyncio

import pytest

from store import Seat, Store, open_store

pytestmark = pytest.mark.both_backends


async def _game(store: Store, channel: int, guild: int = 1, users: tuple[int, int] = (7, 8)) -> int:
    game = await store.create_lobby(guild_id=guild, channel_id=channel, title="toy", host_id=users[0],
                                    host_name="ann", lang="en", seed=1, settings={}, now=1.0)
    await store.set_seats(game.id, [Seat(0, users[0], "ann"), Seat(1, users[1], "bob")], 1.0)
    assert await store.start(game.id, {"n": 0}, {}, 2.0)
    return game.id


async def _move(store: Store, gid: int, version: int, n: int, timers=None) -> None:
    assert await store.commit_action(gid, expected_version=version, seat=version % 2, user_id=7 + version % 2,
                                     action={"type": "add", "n": n}, events=[{"type": "added", "n": n}],
                                     state={"n": n}, now=10.0 + version, timers=timers)


async def test_undo_takes_the_last_move_out_of_the_log_and_keeps_its_record(database):
    store = await open_store(database)
    try:
        gid = await _game(store, 100)
        await _move(store, gid, 0, 1)
        await _move(store, gid, 1, 2, timers=[("deadline", "w2", 500.0, {"kind": "turn"})])
        await store.mark_told(gid, 2)
        assert await store.undo_action(gid, version=2, state={"n": 1}, now=20.0,
                                       timers=[("deadline", "w1", 400.0, {"kind": "turn"})])
        game = await store.get(gid)
        # The state of version 1, at version 3: versions never repeat.
        assert (game.version, game.state) == (3, {"n": 1}) and await store.untold_games() == [gid]
        assert [a["seq"] for a in await store.actions(gid)] == [1] and await store.action_count(gid) == 1
        (gone,) = await store.undone(gid)
        assert (gone["seq"], gone["undone_seq"], gone["undone_at"]) == (2, 3, 20.0)
        assert gone["action"] == {"type": "add", "n": 2} and gone["events"] == [{"type": "added", "n": 2}]
        assert gone["seat"] == 1
        (timer,) = await store.timers(gid)
        assert (timer.kind, timer.ref, timer.due_at, timer.version) == ("deadline", "w1", 400.0, 3)
        # The game goes on from there: the next move is seq 4.
        await _move(store, gid, 3, 5)
        assert [(a["seq"], a["action"]["n"]) for a in await store.actions(gid)] == [(1, 1), (4, 5)]
        assert await store.integrity() == "ok"
    finally:
        await store.close()


async def test_undo_at_another_version_or_of_a_finished_game_changes_nothing(database):
    store = await open_store(database)
    try:
        gid = await _game(store, 100)
        assert not await store.undo_action(gid, version=0, state={"n": 9}, now=5.0, timers=[])  # nothing to undo
        await _move(store, gid, 0, 1)
        await _move(store, gid, 1, 2)
        assert not await store.undo_action(gid, version=1, state={"n": 9}, now=5.0, timers=[])  # not the last
        game = await store.get(gid)
        assert (game.version, game.state) == (2, {"n": 2}) and await store.undone(gid) == []
        await store.finish(gid, "cancelled", 30.0)
        assert not await store.undo_action(gid, version=2, state={"n": 1}, now=31.0, timers=[])
        assert (await store.get(gid)).state == {"n": 2} and await store.action_count(gid) == 2
    finally:
        await store.close()


async def test_an_undo_racing_a_move_one_wins(database):
    store = await open_store(database)
    try:
        gid = await _game(store, 100)
        await _move(store, gid, 0, 1)
        undo, move = await asyncio.gather(
            store.undo_action(gid, version=1, state={"n": 0}, now=20.0, timers=[]),
            store.commit_action(gid, expected_version=1, seat=1, user_id=8, action={"type": "add", "n": 3},
                                events=[], state={"n": 3}, now=20.0))
        game = await store.get(gid)
        assert undo != move
        assert (game.version, game.state) == ((2, {"n": 0}) if undo else (2, {"n": 3}))
        assert len(await store.actions(gid)) == (0 if undo else 2)
    finally:
        await store.close()


async def test_games_of_a_user_in_every_server(database):
    store = await open_store(database)
    try:
        here = await _game(store, 100, guild=1)
        there = await _game(store, 200, guild=2, users=(9, 7))
        await _game(store, 300, guild=2, users=(9, 10))
        assert await store.games_of_user(7) == [here, there]
        await store.seat_left(there, 1, 5.0)
        assert await store.games_of_user(7) == [here]
    finally:
        await store.close()


async def test_the_digest_is_claimed_once_a_day_by_one_caller(database):
    store = await open_store(database)
    try:
        assert (await store.prefs(7))["digest"] is False and await store.digest_users(1000.0) == []
        await store.set_prefs(7, pings=False)
        prefs = await store.set_digest(7, True, "ja")
        assert prefs["digest"] and not prefs["pings"]  # the other preferences stay
        await store.set_digest(8, True, "en")
        assert await store.digest_users(1000.0) == [(7, "ja"), (8, "en")]
        day = 86400.0
        claims = await asyncio.gather(*(store.claim_digest(7, 1000.0, day) for _ in range(5)))
        assert sorted(claims) == [False] * 4 + [True]
        assert await store.digest_users(1000.0 + day - 1 - day) == [(8, "en")]  # sent less than a day ago
        assert await store.digest_users(1000.0 + day + 1 - day) == [(7, "ja"), (8, "en")]
        assert not await store.claim_digest(7, 1000.0 + day - 1, day)  # not within the day
        assert await store.claim_digest(7, 1000.0 + day, day)
        await store.set_digest(8, False, "en")
        assert not await store.claim_digest(8, 5000.0, day) and await store.digest_users(1e9) == [(7, "ja")]
    finally:
        await store.close()


async def test_an_undo_of_another_process_s_game_is_heard_once_committed(database, backend):
    """Taking back a move made from a DM on another process's game tells the owner (PostgreSQL
    LISTEN/NOTIFY), as a move does: the owner then drops its copy and redraws its table."""
    owner, other = await open_store(database), await open_store(database)
    heard: list[tuple[int, int, int | None]] = []
    got = asyncio.Event()

    def on_notice(game_id: int, version: int, guild_id: int | None) -> None:
        heard.append((game_id, version, guild_id))
        got.set()

    async def on_gap() -> None:
        return None

    listening = await owner.listen(on_notice, on_gap)
    try:
        gid = await _game(other, 100, guild=4 << 22)
        await _move(other, gid, 0, 1)
        assert not await other.undo_action(gid, version=0, state={"n": 0}, now=5.0, timers=[], notify=True)  # lost
        assert await other.undo_action(gid, version=1, state={"n": 0}, now=5.0, timers=[], notify=True)
        if backend == "sqlite":  # one process: nobody to tell
            assert listening is None
            return
        await asyncio.wait_for(got.wait(), 5)
        await asyncio.sleep(0.2)  # anything else would have arrived by now
        assert heard == [(gid, 2, 4 << 22)]
    finally:
        if listening is not None:
            await listening.close()
        await owner.close()
        await other.close()

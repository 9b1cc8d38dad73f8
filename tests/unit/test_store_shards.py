"""What the store does for several processes: the start-up queries take a process's shards only,
and a move committed for another process's game tells it (PostgreSQL LISTEN/NOTIFY) exactly
when the move is durable, never for a move that lost its compare-and-swap; SQLite serves one
process and listens to nobody."""

from __future__ import annotations

import asyncio

import pytest

from store import Seat, Shards, Store, open_store

pytestmark = pytest.mark.both_backends


async def _game(store: Store, channel: int, guild: int) -> int:
    game = await store.create_lobby(guild_id=guild, channel_id=channel, title="toy", host_id=7, host_name="ann",
                                    lang="en", seed=1, settings={}, now=1.0)
    await store.set_seats(game.id, [Seat(0, 7, "ann"), Seat(1, 8, "bob")], 1.0)
    assert await store.start(game.id, {"n": 0}, {}, 2.0)
    return game.id


async def _move(store: Store, gid: int, version: int, notify: bool) -> bool:
    return await store.commit_action(gid, expected_version=version, seat=0, user_id=7, action={"type": "x"},
                                     events=[], state={"n": version + 1}, now=3.0, notify=notify)


async def test_start_up_queries_take_the_process_s_shards_only(database):
    store = await open_store(database)
    try:
        even, odd = await _game(store, 100, 4 << 22), await _game(store, 101, 5 << 22)
        first, second = Shards(2, (0,)), Shards(2, (1,))
        assert [g for g, _ in await store.active_games(first)] == [even]
        assert [g for g, _ in await store.active_games(second)] == [odd]
        assert sorted(g for g, _ in await store.active_games()) == [even, odd]
        for gid in (even, odd):
            assert await _move(store, gid, 0, notify=False)
        assert await store.untold_games(first) == [even] and await store.untold_games(second) == [odd]
        assert sorted(await store.untold_games()) == [even, odd]
    finally:
        await store.close()


async def test_a_crossing_move_is_heard_once_it_is_committed(database, backend):
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
        gid = await _game(other, 100, 4 << 22)
        if backend == "sqlite":  # one process: nobody to tell
            assert listening is None
            assert await _move(other, gid, 0, notify=True)
            return
        assert listening is not None
        assert await _move(other, gid, 0, notify=False)  # the owner's own kind of move: no notice
        assert not await _move(other, gid, 0, notify=True)  # lost its compare-and-swap: rolled back
        assert await _move(other, gid, 1, notify=True)
        await asyncio.wait_for(got.wait(), 5)
        await asyncio.sleep(0.2)  # anything else would have arrived by now
        assert heard == [(gid, 2, 4 << 22)] and listening.heard == 1  # the guild: owners filter on it
    finally:
        if listening is not None:
            await listening.close()
        await owner.close()
        await other.close()

"""Handing a seat to another member and away times, on both backends: a seat passes to a member
who holds none (from a player, an AI seat, a seat whose player left) and only while the game
runs; away times are per user, read in bulk, and "back" clears them; both survive a reopen."""

from __future__ import annotations

import pytest

from store import Seat, Store, open_store

pytestmark = pytest.mark.both_backends


async def _game(store: Store, channel: int = 100) -> int:
    game = await store.create_lobby(guild_id=1, channel_id=channel, title="toy", host_id=7, host_name="ann",
                                    lang="en", seed=1, settings={}, now=1.0)
    await store.set_seats(game.id, [Seat(0, 7, "ann"), Seat(1, 8, "bob"), Seat(2, None, "AI 🤖", is_ai=True)], 1.0)
    return game.id


async def test_a_seat_passes_to_a_member_who_holds_none_while_the_game_runs(database):
    store = await open_store(database)
    try:
        gid = await _game(store)
        assert not await store.hand_seat(gid, 1, 9, "cy", 2.0)  # a lobby: seats change there, not here
        assert await store.start(gid, {"n": 0}, {}, 2.0)
        assert not await store.hand_seat(gid, 1, 7, "ann", 3.0)  # ann already plays seat 0
        assert await store.hand_seat(gid, 1, 9, "cy", 3.0)
        await store.seat_left(gid, 0, 4.0)
        assert await store.hand_seat(gid, 0, 10, "dee", 5.0)  # a seat whose player left
        assert await store.hand_seat(gid, 2, 8, "bob", 6.0)  # the AI's seat, to bob who holds none now
        seats = (await store.get(gid)).seats
        assert [(s.user_id, s.name, s.is_ai, s.left_at) for s in seats] == [
            (10, "dee", False, None), (9, "cy", False, None), (8, "bob", False, None)]
        assert (await store.get(gid)).updated_at == 6.0
        other = await _game(store, channel=200)  # another server's game: away mode holds there too
        await store.update_game(other, 6.0, guild_id=2)
        assert await store.start(other, {"n": 0}, {}, 6.0)
        assert await store.games_of_user(8) == [gid, other] and await store.games_of_user(7) == [other]
        await store.finish(gid, "cancelled", 7.0)
        assert not await store.hand_seat(gid, 0, 11, "eve", 8.0)
    finally:
        await store.close()


async def test_away_times_are_per_user_read_in_bulk_cleared_by_back_and_kept(database):
    store = await open_store(database)
    try:
        assert await store.away(0.0) == {}
        await store.set_away(7, 1000.0)
        await store.set_away(8, 2000.5)
        await store.set_away(7, 1500.0)  # set again: the newer time
        assert await store.away(0.0) == {7: 1500.0, 8: 2000.5}
        assert await store.away(1500.0) == {8: 2000.5}  # those whose away time is over are not read
        await store.set_away(8, None)
        await store.set_away(9, None)  # back without having been away: nothing to do
        assert await store.away(0.0) == {7: 1500.0}
    finally:
        await store.close()
    again = await open_store(database)
    try:
        assert await again.away(0.0) == {7: 1500.0}
    finally:
        await again.close()

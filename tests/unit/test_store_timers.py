"""Timers are claimed, never just read, on both backends: two stores on one database (two
processes, as far as the database can tell) claiming at the same moment never get the same row; a
claim lapses with its lease and is then taken over; a fired timer's row is consumed only while it
and its game are still at the version it was planned for; shards filter which games' timers a
process may claim."""

from __future__ import annotations

import asyncio

import pytest

from store import Seat, Shards, Store, open_store

pytestmark = pytest.mark.both_backends


async def _game(store: Store, channel: int, guild: int = 1) -> int:
    game = await store.create_lobby(guild_id=guild, channel_id=channel, title="toy", host_id=7, host_name="ann",
                                    lang="en", seed=1, settings={}, now=1.0)
    await store.set_seats(game.id, [Seat(0, 7, "ann"), Seat(1, 8, "bob")], 1.0)
    assert await store.start(game.id, {"n": 0}, {}, 2.0)
    return game.id


async def test_two_stores_claiming_at_once_never_share_a_timer(database):
    a = await open_store(database)
    b = await open_store(database)
    try:
        games = [await _game(a, 100 + i) for i in range(12)]
        for i, gid in enumerate(games):
            assert await a.replace_timers(gid, 0, [("deadline", "w", 10.0 + i, {}), ("ai", "1", 5.0, {})])
        claimed: dict[str, list[int]] = {"a": [], "b": []}

        async def claim(store: Store, who: str) -> None:
            for _ in range(8):
                got = await store.claim_timers(50.0, owner=who, lease=60, limit=3)
                claimed[who] += [t.id for t in got]
                assert all(t.owner == who and t.lease_until == 110.0 for t in got)
                await asyncio.sleep(0)

        await asyncio.gather(claim(a, "a"), claim(b, "b"))
        every = {t.id for gid in games for t in await a.timers(gid)}
        assert not set(claimed["a"]) & set(claimed["b"])
        assert sorted(claimed["a"] + claimed["b"]) == sorted(every) and len(every) == 24
        # Held: nobody claims them again before the lease ends, and the next wake-up is its end.
        assert await b.claim_timers(100.0, owner="c", lease=60) == []
        assert await a.next_due() == 110.0
    finally:
        await a.close()
        await b.close()


async def test_a_crashed_owners_claim_is_taken_over_after_the_lease(database):
    store = await open_store(database)
    try:
        gid = await _game(store, 100)
        await store.replace_timers(gid, 0, [("deadline", "w", 10.0, {"kind": "turn"})])
        (dead,) = await store.claim_timers(20.0, owner="crashed", lease=60)
        assert await store.claim_timers(79.0, owner="alive", lease=60) == []
        (taken,) = await store.claim_timers(80.0, owner="alive", lease=60)
        assert (taken.id, taken.owner, taken.version) == (dead.id, "alive", 0)
        # The crashed owner, back from the dead, can neither consume it nor release it.
        assert not await store.consume_timer(dead)
        assert [(t.owner, t.lease_until) for t in await store.timers(gid)] == [("alive", 140.0)]
        assert await store.consume_timer(taken)
        assert await store.timers(gid) == []
    finally:
        await store.close()


async def test_a_fired_timer_is_consumed_only_at_its_version(database):
    """The game moved on while its timer was out (another process committed a move, which planned
    the game's timers again): consuming the fired timer must not delete the live deadline."""
    store = await open_store(database)
    try:
        gid = await _game(store, 100)
        await store.replace_timers(gid, 0, [("deadline", "turn:1", 10.0, {}), ("reminder", "turn:1", 8.0, {})])
        claimed = await store.claim_timers(20.0, owner="me", lease=60)
        deadline = next(t for t in claimed if t.kind == "deadline")
        assert deadline.version == 0
        assert await store.commit_action(gid, expected_version=0, seat=0, user_id=7, action={"type": "a"}, events=[],
                                         state={"n": 1}, now=21.0, timers=[("deadline", "turn:1", 10.0, {})])
        assert not await store.consume_timer(deadline)
        (live,) = await store.timers(gid)
        # The same row, planned for version 1, no longer claimed: it fires again, judged afresh.
        assert (live.id, live.kind, live.version, live.owner) == (deadline.id, "deadline", 1, None)
        (again,) = await store.claim_timers(22.0, owner="me", lease=60)
        assert again.version == 1 and await store.consume_timer(again) and await store.timers(gid) == []
        # A reminder re-armed at its version stays, due later and unclaimed.
        gid2 = await _game(store, 101)
        await store.replace_timers(gid2, 0, [("reminder", "turn:1", 8.0, {})])
        (rem,) = await store.claim_timers(20.0, owner="me", lease=60)
        assert await store.consume_timer(rem, rearm_at=500.0)
        assert [(t.due_at, t.owner, t.lease_until) for t in await store.timers(gid2)] == [(500.0, None, None)]
        # A failed timer is put back: nobody claims it before the retry time.
        (rem,) = await store.claim_timers(600.0, owner="me", lease=60)
        await store.retry_timer(rem, 700.0)
        assert await store.claim_timers(650.0, owner="other", lease=60) == []
        assert [t.id for t in await store.claim_timers(700.0, owner="other", lease=60)] == [rem.id]
    finally:
        await store.close()


async def test_a_move_writes_only_the_timer_rows_it_changes(database):
    """Issue 23: a commit no longer rewrites every timer row of its game to stamp the new version
    on it. The game says the version its timers are planned for (`planned_at`); a row whose due
    time and payload stay is not written (its own `version` column keeps the version it was last
    written for), yet reads and claims as planned for the new version, and the claim taken
    before the move is still stale: consuming it fails and lets the row go, as before."""
    store = await open_store(database)
    try:
        gid = await _game(store, 100)
        await store.replace_timers(gid, 0, [("duty", "0", 10.0, {"n": 0}), ("duty", "1", 12.0, {"n": 0})])
        claimed = {t.ref: t for t in await store.claim_timers(20.0, owner="me", lease=60)}

        async def written_at() -> dict[str, int]:  # each row's own column: when it was last written
            rows = await store.db.fetch("SELECT ref, version FROM timers WHERE game_id = $1", gid)  # type: ignore[attr-defined]
            return {r[0]: r[1] for r in rows}

        # The whole plan given (nothing known): seat 0's row is as it was, seat 1's changes.
        assert await store.commit_action(gid, expected_version=0, seat=1, user_id=8, action={"type": "a"}, events=[],
                                         state={"n": 1}, now=21.0,
                                         timers=[("duty", "0", 10.0, {"n": 0}), ("duty", "1", 40.0, {"n": 0})])
        assert await written_at() == {"0": 0, "1": 1}
        assert [(t.ref, t.due_at, t.version) for t in await store.timers(gid)] == [("0", 10.0, 1), ("1", 40.0, 1)]
        assert not await store.consume_timer(claimed["0"])  # claimed at version 0: stale, let go
        # The rows known: only the change is sent (seat 1's row goes, seat 2's comes).
        known = [("duty", "0", 10.0, {"n": 0}), ("duty", "1", 40.0, {"n": 0})]
        assert await store.commit_action(gid, expected_version=1, seat=0, user_id=7, action={"type": "b"}, events=[],
                                         state={"n": 2}, now=22.0, known=known,
                                         timers=[("duty", "0", 10.0, {"n": 0}), ("duty", "2", 50.0, {"n": 1})])
        assert await written_at() == {"0": 0, "2": 2}
        again = await store.claim_timers(60.0, owner="me", lease=60)
        assert [(t.ref, t.version, t.payload) for t in again] == [("0", 2, {"n": 0}), ("2", 2, {"n": 1})]
        # Nothing changed at all: nothing written, the plan is the next version's.
        assert await store.commit_action(gid, expected_version=2, seat=0, user_id=7, action={"type": "c"}, events=[],
                                         state={"n": 3}, now=23.0, known=known[:1] + [("duty", "2", 50.0, {"n": 1})],
                                         timers=[("duty", "0", 10.0, {"n": 0}), ("duty", "2", 50.0, {"n": 1})])
        assert await written_at() == {"0": 0, "2": 2}
        for stale in again:  # claimed at version 2, the game is at 3: let go
            assert not await store.consume_timer(stale)
        (zero, two) = await store.claim_timers(60.0, owner="me", lease=60)
        assert (zero.version, two.version) == (3, 3) and await store.consume_timer(zero)
        # A move that plans nothing (timers=None) leaves the rows planned for the version before:
        # the timer loop sees them stale and plans the game afresh; they never fire as they are.
        assert await store.commit_action(gid, expected_version=3, seat=0, user_id=7, action={"type": "d"}, events=[],
                                         state={"n": 4}, now=24.0)
        assert [(t.ref, t.version) for t in await store.timers(gid)] == [("2", 3)]
        assert not await store.consume_timer(two)
    finally:
        await store.close()


async def test_shards_choose_whose_timers_a_process_claims(database):
    store = await open_store(database)
    try:
        # Discord puts a guild on shard (guild_id >> 22) % shard_count.
        even, odd = 4 << 22, 5 << 22
        g_even, g_odd = await _game(store, 100, guild=even), await _game(store, 101, guild=odd)
        for gid in (g_even, g_odd):
            await store.replace_timers(gid, 0, [("ai", "1", 5.0 + gid, {})])
        first, second = Shards(2, (0,)), Shards(2, (1,))
        assert await store.next_due(first) == 5.0 + g_even and await store.next_due(second) == 5.0 + g_odd
        assert [t.game_id for t in await store.claim_timers(50.0, owner="p0", lease=60, shards=first)] == [g_even]
        assert [t.game_id for t in await store.claim_timers(50.0, owner="p1", lease=60, shards=second)] == [g_odd]
    finally:
        await store.close()

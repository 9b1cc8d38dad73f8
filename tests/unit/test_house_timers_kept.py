"""A move plans the game's timers from the rows its previous move committed, kept in the game
cache, instead of reading them back from the store (issue 23: one round trip through the database
thread per move). The kept rows are what the store holds, move after move; a fired row consumed
(a reminder counted) is read again, so a re-plan never forgets what the timer loop wrote."""

from __future__ import annotations

import random

from bench.rig import Rig
from play.plan import rules


def _rows(timers):
    return sorted((t.kind, t.ref, t.due_at, t.payload) for t in timers)


async def _move(house, gid, prng=None):
    """A legal move of a seat the table waits for, played as that seat's person."""
    prng = prng or random.Random(3)
    game = await house.games.game(gid)
    game_rules = rules(game)
    seat = prng.choice(game_rules.to_act(game.state)
                       or [s for s in range(len(game.seats)) if game_rules.legal(game.state, s)])
    action = prng.choice(game_rules.legal(game.state, seat))
    return await house.act(gid, seat, action, user_id=game.seats[seat].user_id, version=game.version)


async def test_moves_plan_from_the_kept_rows_which_match_the_store(tmp_path):
    rig = await Rig.open(tmp_path / "k.db", tell=False)
    try:
        house, store = rig.house, rig.store
        gid = await rig.new_game("imtheboss", 4, 7, channel_id=42)
        reads = []
        read = store.timers

        async def counted(game_id):
            reads.append(game_id)
            return await read(game_id)

        store.timers = counted
        prng = random.Random(5)
        first = await _move(house, gid, prng)
        assert first.applied
        assert reads == [gid]  # nothing kept yet: the rows the start planned are read
        for _ in range(25):
            result = await _move(house, gid, prng)
            assert result.applied
            if result.game.status != "active":
                break
            kept = await house.games.timers(gid, result.game.version)
            assert _rows(kept) == _rows(await read(gid)), "the kept rows differ from the store's"
        assert reads == [gid], "a move read the timers back from the store"
    finally:
        await rig.close()


async def test_a_consumed_row_is_read_again(tmp_path):
    rig = await Rig.open(tmp_path / "c.db", tell=False)
    try:
        house, store = rig.house, rig.store
        gid = await rig.new_game("imtheboss", 4, 7, channel_id=42)
        result = await _move(house, gid)
        version = result.game.version
        duty = next(t for t in await store.timers(gid) if t.kind == "duty")
        claimed = await store.claim_timers(duty.due_at, owner="me", lease=60, limit=50)
        mine = next(t for t in claimed if t.id == duty.id)
        # A reminder went out: the row counts it and comes due later (as Duties.remind writes it).
        assert await house.games.consume(mine, rearm_at=duty.due_at + 100, payload={**duty.payload, "n": 1})
        kept = {(t.kind, t.ref): t for t in await house.games.timers(gid, version)}
        assert kept[("duty", duty.ref)].payload["n"] == 1
        assert kept[("duty", duty.ref)].due_at == duty.due_at + 100
    finally:
        await rig.close()


async def test_a_move_sends_only_the_rows_it_changes_when_it_knows_them(tmp_path):
    """The commit is told the rows the store holds (`known`) only while they are the ones this
    process's last commit wrote: then it writes just what a move changes (issue 23). The first
    move after the start, and the first after a fired row was consumed, read the rows from the
    store and send the whole plan, since a timer may have changed them meanwhile."""
    rig = await Rig.open(tmp_path / "d.db", tell=False)
    try:
        house, store = rig.house, rig.store
        gid = await rig.new_game("imtheboss", 4, 7, channel_id=42)
        sent = []
        commit = store.commit_action

        async def recorded(game_id, **kwargs):
            sent.append(kwargs.get("known"))
            return await commit(game_id, **kwargs)

        store.commit_action = recorded
        prng = random.Random(5)
        before = await store.timers(gid)
        assert (await _move(house, gid, prng)).applied
        assert sent == [None]  # read from the store: the whole plan
        for _ in range(6):
            kept = await house.games.timers(gid, (await house.games.game(gid)).version)
            result = await _move(house, gid, prng)
            assert result.applied and result.game.status == "active"
            assert sorted(sent[-1]) == _rows(kept), "the commit was not told the kept rows"
            assert _rows(await store.timers(gid)) == _rows(await house.games.timers(gid, result.game.version))
        assert before  # the game owes something: there were rows to keep
        duty = next(t for t in await store.timers(gid) if t.kind == "duty")
        (mine,) = [t for t in await store.claim_timers(duty.due_at, owner="me", lease=60, limit=50) if t.id == duty.id]
        assert await house.games.consume(mine, rearm_at=duty.due_at + 100, payload={**duty.payload, "n": 1})
        result = await _move(house, gid, prng)
        assert result.applied and sent[-1] is None  # a row changed under the kept ones: the whole plan
        assert _rows(await store.timers(gid)) == _rows(await house.games.timers(gid, result.game.version))
    finally:
        await rig.close()

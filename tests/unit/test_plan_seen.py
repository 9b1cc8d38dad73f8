"""The plan's view of a game's people (their quiet hours, who is away) is kept per game
(play/seen.py, issue 23's seventh round): a move no longer asks People and Away afresh. The kept
answer must never be an old one: it is checked against asking afresh after every change that
can make it old (quiet hours set, an absence set or ended, a seat changing hands, the copies
growing old while another process changed the store)."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from types import SimpleNamespace

from bench.rig import Rig
from play import away as away_mod, people as people_mod, seen as seen_mod
from tests.support.houses import random_move


async def _fresh(planner, game, t):
    """What asking People and Away afresh gives (the plan's answer before the cache)."""
    held = {s.user_id: s.seat for s in game.seats if s.human and s.user_id is not None}
    daily = {held[u]: q for u, q in (await planner.people.quiet(list(held))).items()}
    gone = {held[u]: until for u, until in (await planner.away.until(list(held), at=t)).items()}
    return daily, gone


async def _same(planner, game, t):
    """The kept answer equals a fresh one; asked twice, so that the second is served from what
    the first kept (the first may read again) and the next change meets a warm cache."""
    await planner.seen.of(game, t)
    kept = await planner.seen.of(game, t)
    assert kept == await _fresh(planner, game, t), "the kept people are not the store's"
    return kept


async def test_moves_do_not_ask_people_and_away_again(tmp_path):
    rig = await Rig.open(tmp_path / "s.db", tell=False)
    try:
        house = rig.house
        gid = await rig.new_game("imtheboss", 4, 7, channel_id=42)
        asked = []
        quiet, until = house.planner.people.quiet, house.away.until

        async def counted_quiet(users):
            asked.append("people")
            return await quiet(users)

        async def counted_until(users, at=None):
            asked.append("away")
            return await until(users, at)

        house.planner.people.quiet, house.away.until = counted_quiet, counted_until
        prng = random.Random(4)
        for _ in range(12):
            result = await random_move(house, gid, prng)
            assert result.applied
        assert asked == ["people", "away"], asked  # the first move asks; the others are served
    finally:
        await rig.close()


async def test_the_kept_answer_follows_every_change(tmp_path, monkeypatch):
    mono = [1000.0]
    fake = SimpleNamespace(monotonic=lambda: mono[0])
    for module in (seen_mod, people_mod, away_mod):
        monkeypatch.setattr(module, "time", fake)
    rig = await Rig.open(tmp_path / "c.db", tell=False)
    try:
        planner, store = rig.house.planner, rig.store
        gid = await rig.new_game("imtheboss", 4, 7, channel_id=42)
        game = await rig.house.games.game(gid)
        t = time.time()
        first = await _same(planner, game, t)
        assert first[1] == {}
        # This process sets a person's quiet hours: known at once.
        await planner.people.set(1001, "23:00-07:00", "Europe/Madrid")
        daily, _ = await _same(planner, game, t)
        assert daily[1].daily == (23 * 60, 7 * 60) and daily[1].tz == "Europe/Madrid"
        # Away until t + 100: seat 2 is away now, and no longer once that time has passed.
        await planner.away.keep(1002, t + 100)
        assert (await _same(planner, game, t))[1] == {2: t + 100}
        assert (await _same(planner, game, t + 101))[1] == {}
        # Another process changes the store: seen once the copies are old (their TTL).
        await store.set_quiet(1003, "01:00-02:00", "UTC")
        await store.set_away(1000, t + 5000)
        assert (await planner.seen.of(game, t + 200))[0][3].daily is None  # still within the TTL
        assert (await planner.seen.of(game, t + 200))[1] == {}
        mono[0] += people_mod.TTL + 1
        daily, gone = await _same(planner, game, t + 200)
        assert daily[3].daily == (60, 120) and gone == {0: t + 5000}
        # A seat changes hands: the row's seats are a new list (store.sql reads them so).
        seats = [replace(s, user_id=2000) if s.seat == 1 else s for s in game.seats]
        moved = replace(game, seats=seats)
        daily, _ = await _same(planner, moved, t + 200)
        assert daily[1].daily is None  # user 2000 has no quiet hours; 1001's are not served
    finally:
        await rig.close()

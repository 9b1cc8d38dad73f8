"""Ratings in the store (issue 29), on both backends: a finished game is rated once (whoever asks
first), in its server and across servers; games that are not finished or rate fewer than two
people change no rating; the leaderboard pages and gives a player's own rank; the rebuild
(`python -m store rerate`) gives the same numbers as the live rating, for pruned games too."""

from __future__ import annotations

import asyncio

import pytest

from store import Seat, Store, open_store
from store.cli import main as store_cli
from store.prune import prune
from store.ratings import GLOBAL, Player
from store.ratings.model import BASE
from store.ratings.rebuild import rerate

pytestmark = pytest.mark.both_backends

ANN, BOB, CY = 7, 8, 9


async def finished(store: Store, *, guild: int, seats: list[Seat], places: list[int | None], at: float,
                   moves: list[tuple[int, int | None, bool]] | None = None,
                   settings: dict | None = None) -> int:
    """A game played to its end: `moves` (seat, user_id, ai_for) then the ending move."""
    game = await store.create_lobby(guild_id=guild, channel_id=int(at * 10), title="toy", host_id=ANN,
                                    host_name="ann", lang="en", seed=1, settings=settings or {}, now=at)
    await store.set_seats(game.id, seats, at)
    assert await store.start(game.id, {"n": 0}, {}, at)
    version = 0
    for seat, user_id, ai_for in moves or [(s.seat, s.user_id, False) for s in seats]:
        events = [{"type": "added", **({"ai_for": seat} if ai_for else {})}]
        assert await store.commit_action(game.id, expected_version=version, seat=seat, user_id=user_id,
                                         action={"type": "add"}, events=events, state={"n": version}, now=at)
        version += 1
    assert await store.commit_action(game.id, expected_version=version, seat=None, user_id=None,
                                     action={"type": "timeout"}, events=[], state={"n": -1}, now=at,
                                     finished={"places": places})
    return game.id


def people(*ids: int, ai: int = 0) -> list[Seat]:
    seats = [Seat(i, uid, f"p{uid}") for i, uid in enumerate(ids)]
    return seats + [Seat(len(ids) + i, None, "🤖 AI", is_ai=True) for i in range(ai)]


async def test_a_finished_game_is_rated_once_in_its_server_and_across_servers(database):
    store = await open_store(database)
    try:
        gid = await finished(store, guild=1, seats=people(ANN, BOB, ai=1), places=[1, 3, 2], at=100.0)
        game = await store.get(gid)
        first, again = await asyncio.gather(store.rate_game(game, 101.0), store.rate_game(game, 101.0))
        judged = first or again
        assert judged is not None and judged.rated and (first is None) != (again is None)  # exactly once
        assert {c.scope for c in judged.changes} == {1, GLOBAL}
        by = {(c.scope, c.player): c for c in judged.changes}
        assert by[(1, Player(ANN))].delta > 0 > by[(1, Player(BOB))].delta
        assert by[(1, Player(0, "strong"))].after.mu > by[(1, Player(0, "strong"))].before.mu  # the AI beat Bob
        assert by[(1, Player(ANN))].before.points == BASE
        assert await store.rate_game(game, 102.0) is None
        stored = await store.judged(gid)
        assert stored is not None and sorted(map(repr, stored.changes)) == sorted(map(repr, judged.changes))
        (ann,) = [s for s in (await store.leaderboard(1, "toy"))[0] if s.player == Player(ANN)]
        assert (ann.rank, ann.games, ann.skill.points) == (1, 1, by[(1, Player(ANN))].after.points)
    finally:
        await store.close()


async def test_the_seat_filler_is_rated_at_the_games_strength(database):
    store = await open_store(database)
    try:
        gid = await finished(store, guild=1, seats=people(ANN, BOB, ai=1), places=[1, 3, 2], at=100.0,
                             settings={"ai_level": "friendly"})
        judged = await store.rate_game(await store.get(gid), 101.0)
        assert judged is not None and judged.rated
        assert {c.player for c in judged.changes} == {Player(ANN), Player(BOB), Player(0, "friendly")}
        board = {s.player for s in (await store.leaderboard(1, "toy"))[0]}
        assert Player(0, "friendly") in board and Player(0, "strong") not in board
    finally:
        await store.close()


async def test_unfinished_few_people_and_changed_hands(database):
    store = await open_store(database)
    try:
        lonely = await finished(store, guild=1, seats=people(ANN, ai=2), places=[1, 2, 3], at=10.0)
        judged = await store.rate_game(await store.get(lonely), 11.0)
        assert judged is not None and not judged.rated and judged.why == "few_people" and not judged.changes
        # Bob's seat went to Cy after Bob's three moves; Cy made one: Cy did not play most of it.
        # Ann's seat: the seat-filler answered two of her lapsed windows; they count as hers.
        seats = [Seat(0, ANN, "ann"), Seat(1, CY, "cy"), Seat(2, BOB + 100, "dee")]
        moves = [(1, BOB, False), (1, BOB, False), (1, BOB, False), (1, CY, False), (0, None, True),
                 (0, None, True), (0, ANN, False), (2, BOB + 100, False)]
        gid = await finished(store, guild=1, seats=seats, places=[2, 1, 3], at=20.0, moves=moves)
        judged = await store.rate_game(await store.get(gid), 21.0)
        assert judged is not None and judged.rated
        assert {c.player for c in judged.changes} == {Player(ANN), Player(BOB + 100)}
        assert await store.standing(1, "toy", Player(CY)) is None
        cancelled = await store.create_lobby(guild_id=1, channel_id=999, title="toy", host_id=ANN, host_name="a",
                                             lang="en", seed=1, settings={}, now=30.0)
        await store.finish(cancelled.id, "cancelled", 31.0, {"reason": "ended"})
        assert await store.rate_game(await store.get(cancelled.id), 32.0) is None
        assert await store.judged(cancelled.id) is None
    finally:
        await store.close()


async def test_the_leaderboard_pages_and_gives_a_players_own_rank(database):
    store = await open_store(database)
    try:
        players = list(range(101, 113))
        for n in range(6):  # twelve people, the lower id winning more often
            group = players[n * 2 % 12:n * 2 % 12 + 4] if n * 2 % 12 + 4 <= 12 else players[-4:]
            gid = await finished(store, guild=5, seats=people(*group), places=[1, 2, 3, 4], at=10.0 + n)
            await store.rate_game(await store.get(gid), 10.0 + n)
        page, total = await store.leaderboard(5, "toy", offset=5, limit=5)
        assert total == 12 and [s.rank for s in page] == [6, 7, 8, 9, 10]
        whole, _ = await store.leaderboard(5, "toy", limit=50)
        assert [s.skill.ordinal for s in whole] == sorted((s.skill.ordinal for s in whole), reverse=True)
        last = whole[-1]
        mine = await store.standing(5, "toy", last.player)
        assert mine is not None and mine.rank == 12 and mine.skill == last.skill
        assert (await store.leaderboard(6, "toy"))[1] == 0  # another server's board is empty
        assert (await store.leaderboard(GLOBAL, "toy"))[1] == 12
        history = await store.rating_history(5, "toy", whole[0].player)
        assert history[0].points == BASE and history[-1] == whole[0].skill
    finally:
        await store.close()


async def test_rerate_gives_the_same_numbers_pruned_games_included(database, tmp_path):
    store = await open_store(database)
    try:
        for n, (guild, places) in enumerate([(1, [1, 2, 3]), (2, [3, 1, 2]), (1, [2, 2, 1]), (1, [None, 1, 2])]):
            gid = await finished(store, guild=guild, seats=people(ANN, BOB, CY), places=places, at=50.0 + n)
            await store.rate_game(await store.get(gid), 60.0 + n)
        before = {scope: (await store.leaderboard(scope, "toy", limit=50))[0] for scope in (1, 2, GLOBAL)}
        await prune(store, 52.5, tmp_path)  # the first three games' logs leave the database
        await rerate(store)  # type: ignore[arg-type]
        after = {scope: (await store.leaderboard(scope, "toy", limit=50))[0] for scope in (1, 2, GLOBAL)}
        assert after == before
    finally:
        await store.close()


async def test_rerate_from_the_command_line(database, capsys):
    store = await open_store(database)
    try:
        gid = await finished(store, guild=1, seats=people(ANN, BOB), places=[1, 2], at=5.0)
        await store.rate_game(await store.get(gid), 5.0)
        before = await store.standing(1, "toy", Player(ANN))
    finally:
        await store.close()
    assert await asyncio.to_thread(store_cli, ["--db", database, "rerate"]) == 0
    assert "rebuilt the ratings from 1 finished games (1 rated" in capsys.readouterr().out
    store = await open_store(database)
    try:
        assert await store.standing(1, "toy", Player(ANN)) == before
    finally:
        await store.close()

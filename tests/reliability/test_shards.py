"""Several processes on one PostgreSQL, each owning part of Discord's shards (issue 16).

A game belongs to the process that runs its guild's shard: its cache, timers and table live
there. A click in a DM arrives on shard 0, in whichever process runs it: that process applies the
move on the store's row (never a cached copy) and the owner hears of it (LISTEN/NOTIFY) and tells
the channel. A process that dies holding timer claims loses them when the lease lapses, and a
process running its shards again takes them over: no move lost or applied twice, no timer fired
twice, every log replays to its snapshot.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY

from play.house import House
from cogs.titles.contract import ui_for
from config import ROOT
from store import Seat, Shards, Store, open_store
from tests.support.bot_games import log_problems
from tests.support import postgres, toy
from tests.support.houses import headless_house

pytestmark = pytest.mark.parametrize("backend", ["postgres"], indirect=True)

#: Short deadlines and a quick seat-filler: games end in seconds.
SETTINGS = {"pace": "live", "ai_delay": 0.2, "reminder": 0, "deadlines": {"turn": 3, "nod": 3}, "on_deadline": "ai"}


def guild_on(shard: int, k: int, count: int = 2) -> int:
    """A guild id Discord puts on `shard` of `count`: (guild_id >> 22) % count == shard."""
    return ((k * count + shard) << 22) + 12345


async def new_game(store: Store, planner: House, guild_id: int, seed: int, ai: int = 2,
                   settings: dict | None = None) -> int:
    """A running toy game of four seats (two people, `ai` seat-fillers), timers planned."""
    game = await store.create_lobby(guild_id=guild_id, channel_id=guild_id + seed + 1, title=toy.TITLE,
                                    host_id=1001, host_name="ann", lang="en", seed=seed,
                                    settings=settings or SETTINGS,
                                    now=time.time())
    seats = [Seat(0, 1001, "ann"), Seat(1, 1002, "bob")]
    seats += [Seat(2 + i, None, f"AI {i + 1}", is_ai=True) for i in range(ai)]
    await store.set_seats(game.id, seats, time.time())
    engine = ui_for(toy.TITLE).game
    assert await store.start(game.id, engine.setup(len(seats), seed, {}), {}, time.time())
    started = await store.get(game.id)
    assert started is not None
    await planner.planner.replan(started)
    return game.id


class Told:
    """The owner's table as a recorder (what it was asked to tell)."""

    def __init__(self) -> None:
        self.told: list[tuple[int, int, int]] = []

    def changed(self, game: Any, events: list, ping: list[int], news: Any = ()) -> None:
        self.told.append((game.id, game.version, len(events)))

    def note(self, *args: Any, **kwargs: Any) -> None:
        pass

    def remind(self, *args: Any, **kwargs: Any) -> None:
        pass

    def refresh(self, *args: Any, **kwargs: Any) -> None:
        pass

    def reposts(self, game: Any) -> bool:
        return False


async def eventually(check: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "did not happen in time"
        await asyncio.sleep(0.02)


def crossed(way: str) -> float:
    return REGISTRY.get_sample_value("boardroom_crossing_moves_total", {"way": way}) or 0.0


def owed_move(game: Any) -> tuple[int, dict]:
    engine = ui_for(toy.TITLE).game
    seat = engine.to_act(game.state)[0]
    return seat, engine.legal(game.state, seat)[0]


async def test_a_move_made_in_another_process_reaches_the_owner_and_no_old_copy_decides(database):
    stores = [await open_store(database), await open_store(database)]
    owner = headless_house(stores[0], Told(), Shards(2, (0,)))
    other = headless_house(stores[1], Told(), Shards(2, (1,)))
    try:
        gid = await new_game(stores[0], owner, guild_on(0, 3), seed=5, ai=0, settings={**SETTINGS, "deadlines": {}})
        owner.start()
        other.start()
        await owner.crossing.ready()
        game = await owner.games.game(gid)
        assert game is not None and owner.games.cached(gid) is not None  # the owner keeps it

        # A DM click lands in the other process: applied on the store's row, told to the owner.
        sent, taken = crossed("sent"), crossed("taken")
        seat, action = owed_move(game)
        result = await other.act(gid, seat, action, version=0)
        assert result.applied and result.game.version == 1
        assert other.games.cached(gid) is None and other.notifier.told == []  # it keeps and tells nothing
        await eventually(lambda: owner.notifier.told)
        events = len((await stores[0].actions(gid))[0]["events"])
        assert owner.notifier.told == [(gid, 1, events)] and owner.games.cached(gid).version == 1
        assert (crossed("sent"), crossed("taken")) == (sent + 1, taken + 1)  # the metrics say so

        # The owner takes the next click, drawn at version 1, at once (not as stale).
        seat, action = owed_move(await stores[0].get(gid))
        assert (await owner.act(gid, seat, action, version=1)).applied

        # Notices lost (the owner stops listening): its copy is old, yet it decides nothing on it.
        await owner.crossing.stop()
        seat, action = owed_move(await stores[0].get(gid))
        assert (await other.act(gid, seat, action, version=2)).applied
        assert owner.games.cached(gid).version == 2
        seat, action = owed_move(await stores[0].get(gid))
        result = await owner.act(gid, seat, action, version=3)  # drawn after a move it missed
        assert result.applied and result.game.version == 4
        seat, action = owed_move(await stores[0].get(gid))
        assert (await other.act(gid, seat, action, version=4)).applied
        seat, action = owed_move(await stores[0].get(gid))
        result = await owner.act(gid, seat, action)  # no version (a timer's move): judged on the row
        assert result.applied and result.game.version == 6
        assert owner.crossing.through[gid] == 6
        while (game := await stores[0].get(gid)).status == "active":  # to the end
            assert (await owner.act(gid, *owed_move(game))).applied
        assert gid not in owner.crossing.through  # an ended game is forgotten
        assert await log_problems(stores[0], gid) == []
    finally:
        for house in (owner, other):
            await house.stop()
        for s in stores:
            await s.close()


async def logged_events(store: Store, gid: int) -> list[tuple[int, int]]:
    """(version, number of events) of each logged move: what the owner's table must be told."""
    return [(a["seq"], len(a["events"])) for a in await store.actions(gid)]


def told_events(table: Told, gid: int) -> int:
    return sum(n for g, _, n in table.told if g == gid)


async def two_houses(database: str) -> tuple[list[Store], House, House]:
    stores = [await open_store(database), await open_store(database)]
    owner = headless_house(stores[0], Told(), Shards(2, (0,)))
    other = headless_house(stores[1], Told(), Shards(2, (1,)))
    return stores, owner, other


async def test_a_move_committed_while_the_owner_reads_the_log_is_told_once(database):
    """The owner takes in a notice (reads the row, then the log); another process commits the
    next move between the two reads. The log is read only up to the row's version: the next
    move is its own notice's to tell, never told twice."""
    stores, owner, other = await two_houses(database)
    try:
        gid = await new_game(stores[0], owner, guild_on(0, 4), seed=6, ai=0, settings={**SETTINGS, "deadlines": {}})
        owner.start()
        await owner.crossing.ready()
        real = stores[0].actions
        moved: list[bool] = []

        async def actions(game_id: int, **kw: Any) -> list[dict]:
            if not moved:  # the owner has just read the row at version 1
                moved.append((await other.act(gid, *owed_move(await stores[1].get(gid)), version=1)).applied)
            return await real(game_id, **kw)

        stores[0].actions = actions  # type: ignore[method-assign]
        assert (await other.act(gid, *owed_move(await stores[1].get(gid)), version=0)).applied
        await eventually(lambda: len(owner.notifier.told) >= 2)
        await asyncio.sleep(0.3)  # a second telling of move 2, if any, would come now
        logged = await logged_events(stores[0], gid)
        assert moved == [True] and [(v, n) for _, v, n in owner.notifier.told] == logged
    finally:
        for house in (owner, other):
            await house.stop()
        for s in stores:
            await s.close()


async def test_a_late_notice_after_the_owner_ended_the_game_tells_nothing_again(database):
    """Another process makes the first move and the last but one; the owner makes the others,
    each before the notice of the move before it is taken in (it tells that move with its own),
    and ends the game. The late notices then find the game ended and its table not yet marked
    told: they must not tell the game again."""
    stores, owner, other = await two_houses(database)
    try:
        gid = await new_game(stores[0], owner, guild_on(0, 5), seed=8, ai=0, settings={**SETTINGS, "deadlines": {}})
        engine = ui_for(toy.TITLE).game
        state, moves = copy.deepcopy((await stores[0].get(gid)).state), 0
        while engine.outcome(state) is None:  # how many moves the game lasts
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, engine.legal(state, seat)[0])
            moves += 1
        assert moves >= 4
        # The owner does not listen: the notices of the other's moves are held back, as if still
        # in transit. Its own first move tells the move before it (the table's mark is 0).
        assert (await other.act(gid, *owed_move(await stores[1].get(gid)))).applied
        for _ in range(moves - 3):
            assert (await owner.act(gid, *owed_move(await stores[0].get(gid)))).applied
        assert (await other.act(gid, *owed_move(await stores[1].get(gid)))).applied
        assert (await owner.act(gid, *owed_move(await stores[0].get(gid)))).applied
        assert (await stores[0].get(gid)).status == "finished"
        assert told_events(owner.notifier, gid) == sum(n for _, n in await logged_events(stores[0], gid))
        before = list(owner.notifier.told)
        for version in (1, moves - 1):  # the late notices arrive
            owner.crossing.noticed(gid, version, guild_on(0, 5))
        await asyncio.gather(*owner.crossing.tasks)
        assert owner.notifier.told == before
    finally:
        for house in (owner, other):
            await house.stop()
        for s in stores:
            await s.close()


async def test_the_start_up_catch_up_and_a_move_of_the_owner_tell_each_move_once(database):
    """The owner starts with a move made elsewhere untold (its notice went out before it
    listened); while its catch-up reads the log, a move of its own comes in. The two take turns
    on the game's lock, so the catch-up neither tells the new move nor sets the told version
    back (which made the next move tell it again)."""
    stores, owner, other = await two_houses(database)
    try:
        gid = await new_game(stores[0], owner, guild_on(0, 6), seed=7, ai=0, settings={**SETTINGS, "deadlines": {}})
        assert (await other.act(gid, *owed_move(await stores[1].get(gid)), version=0)).applied
        real = stores[0].actions
        own: list[asyncio.Task] = []

        async def actions(game_id: int, **kw: Any) -> list[dict]:
            if not own:  # the catch-up has read the row at version 1
                game = await stores[1].get(gid)
                own.append(asyncio.create_task(owner.act(gid, *owed_move(game), version=1)))
                await asyncio.sleep(0.3)  # the move would be made and told meanwhile without the lock
            return await real(game_id, **kw)

        stores[0].actions = actions  # type: ignore[method-assign]
        owner.start()
        await eventually(lambda: own and own[0].done())
        assert own[0].result().applied
        await asyncio.wait_for(asyncio.shield(owner.catching_up), 10)
        assert (await owner.act(gid, *owed_move(await stores[0].get(gid)), version=2)).applied
        logged = await logged_events(stores[0], gid)
        assert [(v, n) for _, v, n in owner.notifier.told] == logged
    finally:
        for house in (owner, other):
            await house.stop()
        for s in stores:
            await s.close()


def driver(url: str, out: Path, name: str, ids: str, games: list[int], **flags: Any) -> subprocess.Popen:
    args = [sys.executable, "-m", "tests.reliability.shard_driver", url, str(out), "--name", name,
            "--shards", "2", "--ids", ids, "--games", ",".join(map(str, games))]
    for key, value in flags.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "ready", (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


async def test_two_processes_share_the_games_and_survive_a_killed_timer_owner(database, tmp_path):
    store = await open_store(database)
    planner = headless_house(store)
    try:
        per_shard = 8
        games = {shard: [await new_game(store, planner, guild_on(shard, k), seed=100 * shard + k)
                         for k in range(per_shard)] for shard in (0, 1)}
        everyone = games[0] + games[1]
        # a clicks slowly, so that people's moves in its games come mostly from b (DM clicks).
        a = driver(database, tmp_path, "a", "0", everyone, seed=1, clickers=1)
        b = driver(database, tmp_path, "b", "1", everyone, seed=2, slow_fire=0.15, clickers=4)
        # Let both play (b has fired timers and applied DM clicks in a's games), then kill b
        # while it holds timer claims (it fires slowly).
        deadline = time.monotonic() + 20
        while len(lines(tmp_path / "b.fired")) < 4 or \
                sum(1 for r in lines(tmp_path / "b.applied") if r["game"] in games[0]) < 2:
            assert time.monotonic() < deadline and b.poll() is None, "process b fired no timers or clicked nothing"
            await asyncio.sleep(0.05)
        b.kill()
        b.wait()
        b_owner = (tmp_path / "b.owner").read_text()
        held = [t for g in games[1] for t in await store.timers(g) if t.owner == b_owner]
        live = [g for g in games[1] if (await store.get(g)).status == "active"]
        assert held and live, "b died holding no claim, or with its games over: nothing to take over"

        # A process running shard 1 again (as a supervisor restarts it) takes the games over.
        c = driver(database, tmp_path, "c", "1", everyone, seed=3)
        outs = {}
        for name, proc in (("a", a), ("c", c)):
            stdout, stderr = proc.communicate(timeout=60)
            assert proc.returncode == 0, stderr[-3000:]
            outs[name] = json.loads((tmp_path / f"{name}.stats").read_text())
        assert not outs["a"]["timed_out"] and not outs["c"]["timed_out"], outs

        finished = [await store.get(g) for g in everyone]
        assert all(g is not None and g.status == "finished" for g in finished)
        # No move lost or applied twice: every click a process saw applied is in the log, once,
        # at the version it was told, and the logs replay to their snapshots.
        applied = [r for n in "abc" for r in lines(tmp_path / f"{n}.applied")]
        assert len({(r["game"], r["version"]) for r in applied}) == len(applied)
        for r in applied:
            entry = (await store.actions(r["game"], after=r["version"] - 1, limit=1))[0]
            assert (entry["seq"], entry["seat"], entry["action"]) == (r["version"], r["seat"], r["action"])
        for g in everyone:
            assert await log_problems(store, g) == []
        # No timer fired twice (a firing is a row at a version; a killed one never finished).
        fired = [(r["id"], r["version"]) for n in "abc" for r in lines(tmp_path / f"{n}.fired")]
        assert len(fired) == len(set(fired))
        c_fired = {r["game"] for r in lines(tmp_path / "c.fired")}
        assert c_fired & set(live), "c took over none of b's timers"
        assert not {r["game"] for r in lines(tmp_path / "a.fired")} & set(games[1])  # only owners fire
        assert not {r["game"] for r in lines(tmp_path / "c.fired")} & set(games[0])
        # Clicks crossed both ways, and each owner told its channels up to every game's end.
        crossing_a = sum(1 for r in lines(tmp_path / "a.applied") if r["game"] in games[1])
        crossing_bc = sum(1 for n in "bc" for r in lines(tmp_path / f"{n}.applied") if r["game"] in games[0])
        assert crossing_a and crossing_bc and outs["a"]["told_crossing"] and outs["c"]["told_crossing"]
        # Every move's events reach the owner's table: exactly once where the owner lived on (a),
        # at least once where it was killed (a crash between a send and `mark_told` repeats it).
        for shard, owners in ((0, "a"), (1, "bc")):
            told: dict[int, int] = {}
            events: dict[int, int] = {}
            for n in owners:
                for r in lines(tmp_path / f"{n}.told"):
                    told[r["game"]] = max(told.get(r["game"], 0), r["version"])
                    events[r["game"]] = events.get(r["game"], 0) + r["events"]
            for g in finished:
                if g.id in games[shard]:
                    assert told.get(g.id) == g.version, (shard, g.id, told.get(g.id), g.version)
                    logged = sum(len(a["events"]) for a in await store.actions(g.id))
                    assert events[g.id] == logged if shard == 0 else events[g.id] >= logged, (g.id, events[g.id])
        assert not await store.timers(everyone[0]) and await store.untold_games() == []
    finally:
        await store.close()


async def test_a_lost_notice_connection_comes_back_and_the_owner_catches_up(database):
    stores = [await open_store(database), await open_store(database)]
    owner = headless_house(stores[0], Told(), Shards(2, (0,)))
    other = headless_house(stores[1], Told(), Shards(2, (1,)))
    try:
        # Deadlines far off: what tells the owner here can only be the reconnection.
        gid = await new_game(stores[0], owner, guild_on(0, 1), seed=9, ai=0, settings={**SETTINGS, "deadlines": {}})
        owner.start()
        await owner.crossing.ready()
        await owner.games.game(gid)
        listening = owner.crossing.listening
        assert listening is not None
        # The server drops the notice connection (a restart, an administrator, a failover).
        await postgres.admin(f"SELECT pg_terminate_backend({listening.conn.get_server_pid()})")
        seat, action = owed_move(await stores[0].get(gid))
        assert (await other.act(gid, seat, action, version=0)).applied  # its notice goes nowhere
        # The listener connects again by itself; the owner then trusts nothing it cached and
        # tells the channels that are behind.
        await eventually(lambda: owner.notifier.told, seconds=10)
        assert owner.notifier.told[0][:2] == (gid, 1) and not listening.conn.is_closed()
        assert owner.games.cached(gid) is None or owner.games.cached(gid).version == 1
    finally:
        for house in (owner, other):
            await house.stop()
        for s in stores:
            await s.close()


async def test_listening_begins_even_when_the_server_refuses_at_first(database):
    from store.postgres.listen import Listening

    name = f"boardroom_late_{os.getpid()}"
    url = postgres.url(name)  # a database that does not exist yet: the connection is refused
    gaps: list[int] = []

    async def on_gap() -> None:
        gaps.append(1)

    listening = await Listening.start(url, lambda *notice: None, on_gap)
    try:
        assert listening.conn is None and not gaps
        await postgres.admin(f'CREATE DATABASE "{name}"')
        await eventually(lambda: gaps, seconds=10)  # connected by the watch, then caught up
        assert listening.conn is not None and not listening.conn.is_closed()
    finally:
        await listening.close()
        postgres.drop_database(url)

"""Backends and processes: committed actions per second and their latency on SQLite (one
process), on PostgreSQL with one bot process, and on PostgreSQL with two processes that split
the shards (each owns the games of its guilds, as `BOARDROOM_SHARD_IDS` makes them), in one run,
with the ratios between them.

Each configuration gets a fresh database with the same running games (every title at its largest
player count, one guild and channel each, guilds spread over the shards). Each bot process is a
fresh `python -m bench.backends --worker ...` running the real house (rules, timers, the commit
with compare-and-swap, one transaction per action; table redraws left out as in bench/many.py),
with `workers` players clicking as fast as it answers in the games it owns; the processes start
clicking at the same instant and the figure is all their commits over the longest wall time.

PostgreSQL is a local server started for the run (the `pgserver` wheel, Unix socket) with its
durable defaults (fsync, synchronous_commit on); SQLite runs WAL with synchronous=NORMAL, as the
bot does. Both share this machine's cores with the bot processes (and with whoever else runs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import engine
from engine.core import SYSTEM

from bench.common import MAX_PLAYERS, Row, median, percentile

ROOT = Path(__file__).resolve().parents[1]
SHARDS = 2


def guild(shard: int, k: int) -> int:
    """A guild id on `shard` of SHARDS: Discord's (guild_id >> 22) % shard_count."""
    return ((k * SHARDS + shard) << 22) + 1


async def fill(database: str, games: int) -> dict[int, list[int]]:
    """`games` running games, alternately on each shard; their ids by shard."""
    from bench.rig import headless
    from cogs.kit.clock import now
    from store import Seat, open_store

    store = await open_store(database)
    house = headless(store)
    titles = list(MAX_PLAYERS)
    out: dict[int, list[int]] = {s: [] for s in range(SHARDS)}
    for i in range(games):
        title, shard = titles[i % len(titles)], i % SHARDS
        players, gid = MAX_PLAYERS[title], guild(shard, i)
        lobby = await store.create_lobby(guild_id=gid, channel_id=gid + 7, title=title, host_id=1000 + i * 10,
                                         host_name="Player 1", lang="en", seed=i, settings={}, now=now())
        await store.set_seats(lobby.id, [Seat(s, 1000 + i * 10 + s, f"Player {s + 1}") for s in range(players)], now())
        g = engine.get(title)
        options = g.resolve_options(players, {})
        await store.start(lobby.id, g.setup(players, i, options), options, now())
        fresh = await store.get(lobby.id)
        assert fresh is not None
        await house.planner.replan(fresh)
        out[shard].append(lobby.id)
    await store.close()
    return out


async def worker(database: str, ids: list[int], shard_ids: tuple[int, ...] | None, seconds: float,
                 players: int) -> dict:
    """One bot process: `players` people clicking in its games for `seconds`."""
    from bench.rig import headless
    from cogs.titles.contract import panel_context
    from locales import Translator
    from store import Shards, open_store

    store = await open_store(database)
    house = headless(store, Shards(SHARDS, shard_ids) if shard_ids is not None else None)
    for gid in ids:
        await house.games.game(gid)  # warm, as a running bot is
    t = Translator("en")
    latencies: list[float] = []
    counts: dict[str, int] = {}

    async def click(rng: random.Random) -> float | None:
        gid = rng.choice(ids)
        game = await house.games.game(gid)
        if game is None or game.status != "active":
            return None
        g = engine.get(game.title)
        state = game.state or {}
        movers = g.to_act(state) or [s for s in range(len(game.seats)) if g.legal(state, s)]
        t1 = time.perf_counter()
        if movers:
            seat = rng.choice(movers)
            pc = panel_context(game, seat, t)  # what the click router computes
            if not pc.legal:
                return None
            result = await house.act(gid, seat, rng.choice(pc.legal), user_id=game.seats[seat].user_id,
                                     version=game.version)
        elif g.windows(state):
            result = await house.act(gid, SYSTEM, {"type": "timeout", "id": rng.choice(g.windows(state)).id})
        else:
            return None
        counts[result.kind] = counts.get(result.kind, 0) + 1
        return time.perf_counter() - t1 if result.applied else None

    # Ready; every process starts clicking when the parent says so (after all are ready).
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    stop = time.perf_counter() + seconds

    async def player(k: int) -> None:
        rng = random.Random(k * 7919 + (shard_ids or (0,))[0])
        while time.perf_counter() < stop:
            latency = await click(rng)
            if latency is None:
                await asyncio.sleep(0)
            else:
                latencies.append(latency)

    t0, c0 = time.perf_counter(), time.process_time()
    await asyncio.gather(*(player(k) for k in range(players)))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    await house.stop()
    await store.close()
    return {"applied": len(latencies), "wall": wall, "cpu": cpu, "latencies": latencies, "counts": counts}


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process (the PostgreSQL server), its children alive now (the backends
    serving the bot's connections) and those it already reaped."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(entry) == pid or int(fields[1]) == pid:  # after ')': state, ppid, ..., utime at 11
            total += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return total / tick


def run_workers(database: str, shares: list[tuple[list[int], tuple[int, ...] | None]], seconds: float,
                players: int, server: int | None = None) -> dict:
    """Start one bot process per share at once; their figures combined."""
    procs = []
    for ids, shard_ids in shares:
        cmd = [sys.executable, "-m", "bench.backends", "--worker", "--db", database, "--ids", ",".join(map(str, ids)),
               "--seconds", str(seconds), "--players", str(players)]
        if shard_ids is not None:
            cmd += ["--shard-ids", ",".join(map(str, shard_ids))]
        procs.append(subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    for proc in procs:  # every process imported and warmed its games
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise RuntimeError("a benchmark process did not start")
    results = []
    server_before = tree_cpu(server) if server else 0.0
    for proc in procs:  # go, all at once
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in procs:
        out, _ = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"a benchmark process failed ({proc.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    time.sleep(0.3)  # the backends of closed connections are reaped (their CPU joins the server's)
    server_cpu = tree_cpu(server) - server_before if server else None
    applied = sum(r["applied"] for r in results)
    wall = max(r["wall"] for r in results)
    lat = [x for r in results for x in r["latencies"]]
    return {"processes": len(results), "applied": applied, "rate": applied / wall, "median_ms": median(lat) * 1000,
            "p99_ms": percentile(lat, 99) * 1000, "cpu_ms_per_action": sum(r["cpu"] for r in results) / max(1, applied)
            * 1000, "server_cpu_ms_per_action": None if server_cpu is None else server_cpu / max(1, applied) * 1000}


def measure(games: int, seconds: float, players: int) -> dict[str, dict]:
    """The three configurations, one after another."""
    from tests.support import postgres

    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        ids = asyncio.run(fill(db, games))
        out["sqlite, 1 process"] = run_workers(db, [(ids[0] + ids[1], None)], seconds, players)
    server = postgres.server().get_pid()
    # The tests' server skips fsync (their databases are thrown away); a benchmark keeps them.
    asyncio.run(postgres.admin("ALTER SYSTEM RESET fsync", "ALTER SYSTEM RESET synchronous_commit",
                               "SELECT pg_reload_conf()"))
    try:
        for label, processes in (("postgres, 1 process", 1), ("postgres, 2 processes", 2)):
            url = postgres.create_database()
            ids = asyncio.run(fill(url, games))
            shares = [(ids[0] + ids[1], None)] if processes == 1 else [(ids[s], (s,)) for s in range(SHARDS)]
            out[label] = run_workers(url, shares, seconds, players, server)
            postgres.drop_database(url)
    finally:
        postgres.stop()
    return out


def rows(figures: dict[str, dict], games: int, players: int) -> list[Row]:
    out = []
    for label, f in figures.items():
        subject = f"{games} games, {label}"
        out.append(Row("backends", subject, f"committed actions/s ({players} players per process)", f["rate"], None,
                       "actions/s", f["applied"]))
        out.append(Row("backends", subject, "latency, saturated", f["median_ms"], f["p99_ms"], "ms", f["applied"]))
        out.append(Row("backends", subject, "CPU per committed action (all bot processes)", f["cpu_ms_per_action"],
                       None, "ms"))
        if f["server_cpu_ms_per_action"] is not None:
            out.append(Row("backends", subject, "PostgreSQL server CPU per committed action",
                           f["server_cpu_ms_per_action"], None, "ms"))
    sqlite, pg1, pg2 = (figures[k]["rate"] for k in ("sqlite, 1 process", "postgres, 1 process",
                                                      "postgres, 2 processes"))
    out.append(Row("backends", "ratio", "postgres 1 process / sqlite (actions/s)", pg1 / sqlite, None, "x"))
    out.append(Row("backends", "ratio", "postgres 2 processes / 1 process (actions/s)", pg2 / pg1, None, "x"))
    return out


def run(games: int, seconds: float, players: int) -> list[Row]:
    return rows(measure(games, seconds, players), games, players)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=16, help="concurrent players per bot process")
    parser.add_argument("--worker", action="store_true", help="(internal) one bot process of a configuration")
    parser.add_argument("--db")
    parser.add_argument("--ids", default="")
    parser.add_argument("--shard-ids")
    args = parser.parse_args(argv)
    if args.worker:
        shard_ids = tuple(int(x) for x in args.shard_ids.split(",")) if args.shard_ids else None
        ids = [int(x) for x in args.ids.split(",") if x]
        print(json.dumps(asyncio.run(worker(args.db, ids, shard_ids, args.seconds, args.players))))
        return 0
    from bench.common import table

    print(table(run(args.games, args.seconds, args.players)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

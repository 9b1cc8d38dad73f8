"""Many games: one process, `games` running games (mixed titles and player counts, one channel
each, mid-game states with their action logs) in the SQLite store on a temp file.

Actions per second: `workers` concurrent players click in random games for `seconds`; each click
is what the click router and the house do (the seat's panel context, then `House.act`: rules,
timers, the commit with compare-and-swap, one transaction per action). A seat-filler seat moves
through `House.ai_move`, a passed deadline through a system timeout. The table keeper's redraws
are not part of this figure (see the click benchmark for their cost): on Discord they are
coalesced per game and rate-limited per channel, so under load they trail the actions.

Memory: the resident size (RSS) of the process with the store open and no game loaded, with all
`games` in the house's cache, and after the saturation phase (every game cached and played).

Runs in a fresh process (`python -m bench.many --json ...`) so the memory figures are its own.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import engine
from engine.core import SYSTEM
from locales import Translator

from bench.common import MAX_PLAYERS, Played, median, percentile, play_ai, rss_mb
from bench.rig import Rig, seed_store
from cogs.titles.contract import panel_context

ROOT = Path(__file__).resolve().parents[1]


def mixed_templates(seed: int) -> list[Played]:
    """Seat-filler games of every title at several player counts."""
    out = []
    for title, top in MAX_PLAYERS.items():
        low = engine.get(title).min_players
        for n in sorted({low, (low + top) // 2, top}):
            out.append(play_ai(title, n, seed + n, keep_every=1))
    return out


async def seed(path: Path, games: int, seed: int = 1) -> None:
    played = mixed_templates(seed)
    await seed_store(path, active=games, finished=0, rng=random.Random(seed), played=played)


class Clicker:
    """Clicks in random games of the store, as players do, counting what became of each."""

    def __init__(self, house: Any, ids: list[int]) -> None:
        self.house = house
        self.ids = ids
        self.t = Translator("en")
        self.counts = {"applied": 0, "stale": 0, "refused": 0, "over": 0, "missing": 0, "waited": 0, "ended": 0}

    async def one(self, prng: random.Random) -> float | None:
        """One click in a random game; its latency, or None if nothing was done."""
        house, counts = self.house, self.counts
        gid = prng.choice(self.ids)
        game = await house.games.game(gid)
        if game is None or game.status != "active":
            return None
        g = engine.get(game.title)
        state = game.state or {}
        # Who clicks: a seat the table waits for (else any seat with a move). Choosing is the
        # player's part, so it is outside the latency (it still shares the process's CPU).
        movers = g.to_act(state) or [s for s in range(len(game.seats)) if g.legal(state, s)]
        t1 = time.perf_counter()
        if movers:
            seat = prng.choice(movers)
            if game.seats[seat].ai_plays:
                result = await house.ai_move(gid, seat)
                if result is None:
                    counts["waited"] += 1
                    return None
            else:
                pc = panel_context(game, seat, self.t)  # the click router's view and legal
                if not pc.legal:
                    return None
                action = prng.choice(pc.legal)
                result = await house.act(gid, seat, action, user_id=game.seats[seat].user_id, version=game.version)
        else:
            windows = g.windows(state)
            result = await house.act(gid, SYSTEM, {"type": "timeout", "id": prng.choice(windows).id})
        counts[result.kind] += 1
        if result.applied and result.game is not None and result.game.status != "active":
            counts["ended"] += 1
        return time.perf_counter() - t1


async def saturate(clicker: Clicker, seconds: float, workers: int, seed: int) -> dict:
    """`workers` players clicking as fast as the bot answers: the rate, latency and CPU per action."""
    sat: list[float] = []
    stop = time.perf_counter() + seconds

    async def player(k: int) -> None:
        prng = random.Random(seed * 1000 + k)
        while time.perf_counter() < stop:
            lat = await clicker.one(prng)
            if lat is None:
                await asyncio.sleep(0)
            else:
                sat.append(lat)

    before = clicker.counts["applied"]
    t0, c0 = time.perf_counter(), time.process_time()
    await asyncio.gather(*(player(k) for k in range(workers)))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    done = clicker.counts["applied"] - before
    return {"seconds": wall, "saturated_actions_per_s": done / wall, "cpu_ms_per_action": cpu / max(1, done) * 1000,
            "saturated_median_ms": median(sat) * 1000, "saturated_p99_ms": percentile(sat, 99) * 1000}


async def steady(clicker: Clicker, seconds: float, rate: float, seed: int) -> dict:
    """A steady `rate` of clicks arriving (open loop): the latency players see at that load."""
    latencies: list[float] = []
    prng = random.Random(seed)

    async def timed_click(arrived: float) -> None:
        if await clicker.one(prng) is not None:
            latencies.append(time.perf_counter() - arrived)

    tasks = []
    before = clicker.counts["applied"]
    t0 = time.perf_counter()
    k = 0
    while (now_ := time.perf_counter()) - t0 < seconds:
        due = t0 + k / rate
        if due > now_:
            await asyncio.sleep(due - now_)
        # The click arrived when it was due, even if this loop was busy then (no coordinated omission).
        tasks.append(asyncio.create_task(timed_click(due)))
        k += 1
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - t0
    return {"offered_rate": rate, "steady_actions_per_s": (clicker.counts["applied"] - before) / wall,
            "steady_n": len(latencies), "steady_median_ms": median(latencies) * 1000,
            "steady_p99_ms": percentile(latencies, 99) * 1000}


async def bench(path: Path, seconds: float, workers: int, rate: float, seed: int = 1) -> dict:
    """The figures for a store already filled by `seed` (in another process, so that this
    one's memory holds only what the bot would hold)."""
    gc.collect()
    rss_start = rss_mb()
    rig = await Rig.open(path, tell=False)  # redraws are the click benchmark's (see the module note)
    house = rig.house
    ids = [gid for gid, _ in await rig.store.active_games()]
    gc.collect()
    rss_open = rss_mb()
    t0 = time.perf_counter()
    for gid in ids:
        await house.games.game(gid)
    load_s = time.perf_counter() - t0
    gc.collect()
    rss_loaded = rss_mb()
    clicker = Clicker(house, ids)
    saturated = await saturate(clicker, seconds, workers, seed)
    gc.collect()
    rss_after = rss_mb()  # every game cached, and played for `seconds`
    steady_figures = await steady(clicker, seconds, rate, seed)
    cached = len(house.games)
    await rig.close()
    return {"games": len(ids), "workers": workers, "counts": clicker.counts, **saturated, **steady_figures,
            "load_all_s": load_s, "cached": cached, "rss_start_mb": rss_start, "rss_open_mb": rss_open,
            "rss_loaded_mb": rss_loaded, "rss_after_mb": rss_after}


def run_in_process(games: int, seconds: float, workers: int, rate: float) -> dict:
    """Seed a store in one fresh process, measure in another; the figures as a dict."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "many.db"
        subprocess.run([sys.executable, "-m", "bench.many", "--db", str(path), "--games", str(games), "--seed-only"],
                       check=True, cwd=ROOT)
        out = subprocess.run([sys.executable, "-m", "bench.many", "--db", str(path), "--seconds", str(seconds),
                              "--workers", str(workers), "--rate", str(rate), "--json"],
                             check=True, cwd=ROOT, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, help="the store file (filled by --seed-only)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20, help="length of each phase")
    parser.add_argument("--workers", type=int, default=16, help="concurrent players in the saturation phase")
    parser.add_argument("--rate", type=float, default=500, help="clicks per second in the steady phase")
    parser.add_argument("--seed-only", action="store_true", help="fill --db with --games running games and stop")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args(argv)
    if args.db is None:
        figures = run_in_process(args.games, args.seconds, args.workers, args.rate)
    elif args.seed_only:
        asyncio.run(seed(args.db, args.games))
        return 0
    else:
        figures = asyncio.run(bench(args.db, args.seconds, args.workers, args.rate))
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Start-up with many stored games: what `bot.py` does before it connects to Discord, in a fresh
process, on a store holding `games` games (a tenth running with their timers, the rest finished,
all with their action logs).

Measured in the child: importing the bot (discord.py, the cogs, engines, renderers, catalogues),
`open_store` (connection, pragmas, migrations), then `Boardroom.setup_hook` as discord.py calls
it at login (the House, the command translator, the game cog, the persistent components, the
slash-command fingerprint compared with the stored one, the timer scheduler), and the
scheduler's first look at the timers (`next_due`). The house loads no game at start-up: games
are read on their first click. The parent also times the whole process, interpreter included.
The slash commands are registered once beforehand (as a deployed bot's are), so no run of the
measured process calls Discord.

    python -m bench.startup --games 10000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

T0 = time.perf_counter()

ROOT = Path(__file__).resolve().parents[1]


async def _child(db: Path) -> dict:
    t_import0 = time.perf_counter()
    from app import create_bot
    from store import open_store

    t_import = time.perf_counter() - t_import0
    bot = create_bot(db)
    synced = []

    async def no_sync(*args, **kwargs):  # registration is Discord's; count it, never call it
        synced.append(1)
        return []

    bot.tree.sync = no_sync  # type: ignore[method-assign]
    t0 = time.perf_counter()
    bot.store = await open_store(db)
    t_store = time.perf_counter() - t0
    t0 = time.perf_counter()
    await bot._async_setup_hook()  # what discord.py does at login before setup_hook
    await bot.setup_hook()
    t_setup = time.perf_counter() - t0
    t0 = time.perf_counter()
    await bot.store.next_due()
    t_due = time.perf_counter() - t0
    ready = time.perf_counter() - T0
    await bot.close()
    return {"import_s": t_import, "store_open_s": t_store, "setup_hook_s": t_setup, "first_timer_query_s": t_due,
            "in_process_s": ready, "synced": len(synced)}


def seed(db: Path, games: int, seed_: int = 1) -> None:
    from bench.rig import seed_store, templates

    active = max(1, games // 10)
    asyncio.run(seed_store(db, active=active, finished=games - active, rng=random.Random(seed_), played=templates()))


def measure(games: int, runs: int = 3) -> dict:
    """Seed a store, register the commands once, then start `runs` fresh processes on it; the
    figures of the fastest and the slowest run."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "startup.db"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "bench.startup", "--db", str(db), "--games", str(games), "--seed-only"],
                       check=True, cwd=ROOT)
        seed_s = time.perf_counter() - t0
        size_mb = db.stat().st_size / 2**20
        results = []
        for i in range(runs + 1):  # the first run registers the commands (and warms the disk cache)
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "bench.startup", "--db", str(db), "--child"],
                                 check=True, cwd=ROOT, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            figures = json.loads(out.stdout.strip().splitlines()[-1])
            figures["process_s"] = wall
            if i > 0:
                assert figures["synced"] == 0, "the measured start-up registered the commands"
                results.append(figures)
    results.sort(key=lambda f: f["process_s"])
    return {"games": games, "db_mb": size_mb, "seed_s": seed_s, "runs": results}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed-only", action="store_true", help="fill --db with --games games and stop")
    parser.add_argument("--child", action="store_true", help="start up on --db and print the figures (JSON)")
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(asyncio.run(_child(args.db))))
    elif args.seed_only:
        seed(args.db, args.games)
    else:
        print(json.dumps(measure(args.games, args.runs), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

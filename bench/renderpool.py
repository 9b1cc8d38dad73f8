"""Table pictures per second through the bot's picture pool (render/pool.py): drawn in threads of
the bot's process (one interpreter: the GIL caps them) and in 1 and 2 worker processes, with as
many pictures in flight as a busy bot has. Late-game states of every title at its largest player
count, half English, half Japanese.

    python -m bench.renderpool [--pictures 120] [--in-flight 8]

Not part of `python -m bench` (it measures the machine's cores more than the code); its figures
feed docs/SCALING.md.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import time

import engine
from render.common import picture_names
from render.pool import Pictures

from bench.common import MAX_PLAYERS, Row, play_ai, table


def jobs(count: int) -> list[tuple]:
    out = []
    late = {t: [play_ai(t, MAX_PLAYERS[t], 300 + g).state_near(f)[1] for g in range(2) for f in (0.7, 0.9)]
            for t in MAX_PLAYERS}
    for i in range(count):
        title = list(MAX_PLAYERS)[i % len(MAX_PLAYERS)]
        state = late[title][i % len(late[title])]
        names = picture_names([f"Player {s + 1}" for s in range(MAX_PLAYERS[title])])
        fn = importlib.import_module(f"render.{title}").table_image
        out.append((fn, engine.get(title).view(state, None), names, ("en", "ja")[i % 2]))
    return out


async def rate(processes: int, work: list[tuple], in_flight: int) -> float:
    pictures = Pictures(processes)
    try:
        queue: list[tuple] = []

        async def drawer() -> None:
            while queue:
                await pictures.png(*queue.pop())

        # A first pass warms every worker's fonts and picture caches, as a running bot's are.
        for _pass in ("warm", "timed"):
            queue[:] = work
            t0 = time.perf_counter()
            await asyncio.gather(*(drawer() for _ in range(in_flight)))
        return len(work) / (time.perf_counter() - t0)
    finally:
        await pictures.close()


def run(count: int, in_flight: int) -> list[Row]:
    work = jobs(count)
    rows = []
    for processes in (0, 1, 2):
        label = "threads of the bot's process" if processes == 0 else f"{processes} worker processes"
        rows.append(Row("renderpool", label, f"table pictures/s ({in_flight} in flight)",
                        asyncio.run(rate(processes, work, in_flight)), None, "pictures/s", count))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pictures", type=int, default=120)
    parser.add_argument("--in-flight", type=int, default=8)
    args = parser.parse_args(argv)
    print(table(run(args.pictures, args.in_flight)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Python's cyclic garbage collector, tuned for the bot's process (issue 23).

The house keeps every running game's snapshot in memory (GameCache): a thousand games are
hundreds of thousands of dicts and lists, and every move allocates thousands more (the new
snapshot, events, views). With the default thresholds (700, 10, 10) a move set off about one
young collection, and every few hundred moves a full one walked the whole cache: about a tenth
of a second each, some 10-25% of the CPU per committed action in the 1,000-game benchmark. The
snapshots are plain JSON trees, freed by reference counting; cycles (asyncio's tasks and
exceptions) are few. So the collector runs less often: a young collection every 10,000 net
allocations, a full one at most every 400 of them (and, as always, only once the objects that
survived since the last full one are a quarter of the old ones)."""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 20, 20)


def tune() -> None:
    """Set the process's collector thresholds (once, at start-up: bot.py, the benchmarks' rig)."""
    gc.set_threshold(*THRESHOLDS)

"""One bot process of a sharded deployment, without Discord: the real house (timers with claims
and leases, the crossing listener, the compare-and-swap) on a shared PostgreSQL, owning some of
the shards, with people clicking in the games. `test_shards.py` runs two or three of these at
once and checks what they did against the database.

    python -m tests.reliability.shard_driver URL OUT --shards 2 --ids 0 --games 1,2,3 [--slow-fire S]

What stands in for Discord: the clicks. Each click reads the game from the store (a panel drawn
at that version), picks a legal move for a human seat that owes one, and sends it to
`House.act(..., version=...)` as the router does. Clicks go to every game, the other process's
too: those are the DM-panel clicks that arrive on shard 0 wherever the game lives. The table is a
recorder: what the house asks it to tell, and `mark_told` as the real table does after a send.

Files in OUT (JSON lines, flushed at once, so a killed process leaves what it finished):
    <name>.applied    one per click the house applied: game, version, seat, action
    <name>.fired      one per timer fired to the end: id, version, kind, ref, due
    <name>.told       one per table update asked of the owner: game, version, events
    <name>.owner      the house's timer-claim owner id
    <name>.stats      at a clean exit: counts
`--slow-fire S` holds each claimed timer S seconds before firing it (a process that is killed
then certainly dies holding claims).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import sys
from pathlib import Path
from typing import Any, TextIO

from play import timer_loop
from play.house import House
from cogs.titles.contract import ui_for
from store import Shards, Store, open_store
from tests.support import toy
from tests.support.houses import headless_house

#: A short lease, so that a killed process's claims lapse within the test.
LEASE = 2.0


class Lines:
    def __init__(self, path: Path) -> None:
        self.file: TextIO = path.open("a", encoding="utf-8", buffering=1)

    def write(self, **record: Any) -> None:
        self.file.write(json.dumps(record) + "\n")
        self.file.flush()


class RecordingTable:
    def __init__(self, store: Store, told: Lines) -> None:
        self.store = store
        self.lines = told
        self.tasks: set[asyncio.Task] = set()

    def changed(self, game: Any, events: list[dict[str, Any]], ping: list[int], news: Any = ()) -> None:
        self.lines.write(game=game.id, version=game.version, events=len(events))
        task = asyncio.create_task(self.store.mark_told(game.id, game.version))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def note(self, game_id: int, kind: str, **params: Any) -> None:
        pass

    def remind(self, game_id: int, seats: list[int], passed: bool = False, kind: str | None = None) -> None:
        pass

    def refresh(self, game_id: int, repost: bool = False) -> None:
        pass

    def reposts(self, game: Any) -> bool:
        return False

    async def stop(self) -> None:
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def clicker(house: House, games: list[int], applied: Lines, counts: dict[str, int], rng: random.Random,
                  done: asyncio.Event) -> None:
    engine = ui_for(toy.TITLE).game
    while not done.is_set():
        game = await house.store.get(rng.choice(games))  # the panel, drawn at this version
        if game is None or game.status != "active" or game.state is None:
            await asyncio.sleep(0.01)
            continue
        humans = [s.seat for s in game.seats if s.human]
        owing = [s for s in engine.to_act(game.state) if s in humans]
        if not owing:
            await asyncio.sleep(0.02)
            continue
        seat = rng.choice(owing)
        legal = engine.legal(game.state, seat)
        action = engine.ai_action(engine.view(game.state, seat), legal, rng)
        result = await house.act(game.id, seat, action, user_id=game.seats[seat].user_id, version=game.version)
        counts[result.kind] = counts.get(result.kind, 0) + 1
        if result.applied:
            counts["crossing" if not house.games.owns(game) else "own"] += 1
            applied.write(game=game.id, version=result.game.version, seat=seat, action=action)
        await asyncio.sleep(rng.uniform(0.005, 0.03))


async def main(args: argparse.Namespace) -> int:
    toy.install()
    timer_loop.TIMER_LEASE = LEASE
    out = Path(args.out)
    name = args.name
    store = await open_store(args.url)
    table = RecordingTable(store, Lines(out / f"{name}.told"))
    house = headless_house(store, table, Shards(args.shards, tuple(int(i) for i in args.ids.split(","))))
    (out / f"{name}.owner").write_text(house.timers.owner)
    fired = Lines(out / f"{name}.fired")
    real_fire = house.timers.fire

    async def fire(timer: Any) -> None:
        if args.slow_fire:
            await asyncio.sleep(args.slow_fire)
        await real_fire(timer)
        fired.write(id=timer.id, version=timer.version, kind=timer.kind, ref=timer.ref, due=timer.due_at,
                    game=timer.game_id)

    house.timers.fire = fire  # type: ignore[method-assign]
    games = [int(g) for g in args.games.split(",")]
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, done.set)
    house.start()
    await house.crossing.ready()
    counts: dict[str, int] = {"own": 0, "crossing": 0}
    applied = Lines(out / f"{name}.applied")
    rng = random.Random(args.seed)
    clickers = [asyncio.create_task(clicker(house, games, applied, counts, random.Random(rng.random()), done))
                for _ in range(args.clickers)]
    print("ready", flush=True)
    deadline = loop.time() + args.seconds
    while not done.is_set() and loop.time() < deadline:
        live = [g for g in games if (await store.get(g)).status == "active"]  # type: ignore[union-attr]
        if not live:
            break
        await asyncio.sleep(0.2)
    done.set()
    await asyncio.gather(*clickers)
    listening = house.crossing.listening
    stats = {**counts, "told_crossing": house.crossing.told, "heard": listening.heard if listening else 0,
             "timed_out": loop.time() >= deadline}
    await house.stop()
    await table.stop()
    await store.close()
    (out / f"{name}.stats").write_text(json.dumps(stats))
    print("stopped", json.dumps(stats), flush=True)
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("out")
    p.add_argument("--name", required=True)
    p.add_argument("--shards", type=int, required=True)
    p.add_argument("--ids", required=True)
    p.add_argument("--games", required=True)
    p.add_argument("--clickers", type=int, default=3)
    p.add_argument("--seconds", type=float, default=40.0)
    p.add_argument("--slow-fire", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))

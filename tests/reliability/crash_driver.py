"""Commits actions of games of every title through the house (no Discord), as fast as it can,
until it is killed. `test_crash.py` runs it in a subprocess and kills it with SIGKILL at random
moments, then checks the database.

    python -m tests.reliability.crash_driver DB SEED

Output, one line each, flushed at once:
    resume <game> <version>      a running game found in the database at start-up
    ready                        the driver is about to commit
    committed <game> <version>   a commit returned (it is durable from here on)

Moves: the seat-filler AI's choice or a random legal action of a seat that can move, and now
and then the deadline of an open window, exactly as the bot applies them. A finished game is
replaced by a new one of the same title, so the database keeps growing across kills.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import engine
from cogs.kit.clock import now
from tests.support.houses import headless_house
from engine.core import SYSTEM
from store import GameRow, Seat, Store, open_store

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")


def say(*words: object) -> None:
    sys.stdout.write(" ".join(str(w) for w in words) + "\n")
    sys.stdout.flush()


async def new_game(store: Store, title: str, rng: random.Random) -> int:
    g = engine.titles()[title]
    n = rng.randint(g.min_players, min(g.max_players, 4))
    host = rng.randrange(1, 10**9)
    game = await store.create_lobby(guild_id=1, channel_id=rng.randrange(1, 10**15), title=title, host_id=host,
                                    host_name="host", lang="en", seed=rng.randrange(2**31), settings={}, now=now())
    seats = [Seat(0, host, "host")] + [Seat(i, None, f"AI {i}", is_ai=True) for i in range(1, n)]
    await store.set_seats(game.id, seats, now())
    options = g.resolve_options(n, {})
    assert await store.start(game.id, g.setup(n, game.seed, options), options, now())
    return game.id


def choose(game: GameRow, rng: random.Random) -> tuple[int | None, dict]:
    g = engine.titles()[game.title]
    state = game.state or {}
    movers = [s for s in range(len(game.seats)) if g.legal(state, s)]
    windows = g.windows(state)
    if windows and (not movers or rng.random() < 0.05):
        return SYSTEM, {"type": "timeout", "id": rng.choice(windows).id}
    seat = rng.choice(movers)
    legal = g.legal(state, seat)
    action = g.ai_action(g.view(state, seat), legal, rng) if rng.random() < 0.7 else None
    return seat, action if action is not None else rng.choice(legal)


async def main(db: Path, seed: int) -> None:
    rng = random.Random(seed)
    store = await open_store(db)
    house = headless_house(store)  # no Discord: no table; its timer loop is not started
    live: dict[str, int] = {}
    for game_id, _channel in await store.active_games():
        game = await store.get(game_id)
        if game is not None and game.status == "active":
            live[game.title] = game.id
            say("resume", game.id, game.version)
    for title in TITLES:
        if title not in live:
            live[title] = await new_game(store, title, rng)
    say("ready")
    while True:
        title = rng.choice(TITLES)
        game = await house.games.game(live[title])
        assert game is not None
        if game.status != "active":
            live[title] = await new_game(store, title, rng)
            continue
        seat, action = choose(game, rng)
        result = await house.act(game.id, seat, action, version=game.version)
        if result.applied:
            say("committed", game.id, result.game.version)
        elif result.kind == "refused":
            raise SystemExit(f"the engine refused a legal move in game {game.id}: {action} ({result.error})")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))

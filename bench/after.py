"""After the game (issue 29): what a rating, a replay step and a picture story cost.

- **story**: the picture story of a long I'm the Boss! game (the first seed whose seat-filler
  game at 5 or 6 players reaches 500 moves), as the picture worker makes it (render/story.py:
  the log replayed through the rules, the table drawn at each turn, scaled, encoded as an
  animated WebP). Measured as the CPU time of the one process that does it (the worker's
  share of one core), with its size and frames; every other title's story beside it.
- **replay step**: what `/game replay` does per click (play/replays.py, cogs/after/replay.py):
  the state at a move rebuilt from the nearest kept state, the public view, the table picture
  drawn and PNG-encoded; random moves of the same long game, after the replay's first opening.
- **rating**: `rate_game` on a real SQLite store (a temp file, the migrations): the judging
  (the log read), the Plackett-Luce update in the server's scope and across servers, and the
  writes, for finished four-seat games between twelve players.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import engine
from engine.autoplay import steps as autoplay
from play.replays import Replay
from render.common import png
from render.story import LIMIT, story
from store import Seat, open_store

from bench.common import Row, dist_row

STORY_TARGET_S = 10.0
STEP_TARGET_MS = 100.0
#: The story's frames: the title UIs' story marks (cogs/titles/<title>/ui.py), repeated here so
#: a benchmark needs no Discord code.
STORY_MARKS = {"imtheboss": {"turn"}, "filthyrich": {"turn"}, "blackfriday": {"adjust"}, "ewars": {"dice_time"}}


def long_game(title: str, least: int) -> tuple[int, int, list[tuple[Any, dict, list]]]:
    """(players, seed, log) of the first seat-filler game of at least `least` moves."""
    rules = engine.get(title)
    for players in range(rules.max_players, rules.min_players - 1, -1):
        for seed in range(40):
            log = [(seat, action, events) for _, seat, action, events in autoplay(rules, players, seed)]
            if len(log) >= least:
                return players, seed, log
    raise RuntimeError(f"no {title} game of {least} moves")


def story_row(title: str, least: int) -> list[Row]:
    players, seed, log = long_game(title, least)
    rules = engine.get(title)
    marks = [i for i, (_, _, events) in enumerate(log, 1) if any(e["type"] in STORY_MARKS[title] for e in events)]
    names = [f"Player {i + 1}" for i in range(players)]
    cpu, wall = time.process_time(), time.perf_counter()
    told = story(title, players, seed, rules.resolve_options(players, {}), [(s, a) for s, a, _ in log], marks, names,
                 "en")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    subject = f"{title} {players}p {len(log)} moves"
    target = title == "imtheboss"
    return [
        Row("after", subject, "story: CPU time (one core)", cpu, None, "s", 1,
            f"<{STORY_TARGET_S:g}" if target else "", cpu < STORY_TARGET_S if target else None),
        Row("after", subject, "story: wall time", wall, None, "s", 1),
        Row("after", subject, f"story: size ({told.kind}, {len(told.moves)} frames, {told.ms / 1000:.1f} s)",
            len(told.data) / 1e6, None, "MB", 1, "<8", len(told.data) < LIMIT),
    ]


def step_rows(samples: int) -> list[Row]:
    players, seed, log = long_game("imtheboss", 500)
    rules = engine.get("imtheboss")
    render = importlib.import_module("render.imtheboss")

    class Game:  # what a replay reads of a game row
        title, seats, options = "imtheboss", [None] * players, rules.resolve_options(players, {})

    Game.seed = seed  # type: ignore[attr-defined]
    replay = Replay(Game, [{"seat": s, "action": a, "events": e} for s, a, e in log])  # type: ignore[arg-type]
    t0 = time.perf_counter()
    replay.build()
    opened = time.perf_counter() - t0
    names = [f"Player {i + 1}" for i in range(players)]
    rng = random.Random(7)
    times = []
    for _ in range(samples):
        n = rng.randint(0, replay.moves)
        t0 = time.perf_counter()
        png(render.table_image(rules.view(replay.state_at(n), None), names, "en"))
        times.append(time.perf_counter() - t0)
    subject = f"imtheboss {players}p {len(log)} moves"
    return [dist_row("after", subject, "replay step (state, view, picture)", times, median_max=STEP_TARGET_MS),
            Row("after", subject, "replay opened (whole log once)", opened * 1000, None, "ms", 1)]


async def rating_rows(games: int) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="boardroom-bench-") as tmp:
        store = await open_store(str(Path(tmp) / "bench.db"))
        try:
            rng = random.Random(3)
            times = []
            for n in range(games):
                seated = rng.sample(range(1, 13), 4)
                lobby = await store.create_lobby(guild_id=1, channel_id=100 + n, title="imtheboss", host_id=seated[0],
                                                 host_name="p", lang="en", seed=1, settings={}, now=float(n))
                await store.set_seats(lobby.id, [Seat(i, u, f"p{u}") for i, u in enumerate(seated)], float(n))
                await store.start(lobby.id, {}, {}, float(n))
                for v in range(60):  # a log to judge
                    await store.commit_action(lobby.id, expected_version=v, seat=v % 4, user_id=seated[v % 4],
                                              action={"type": "x"}, events=[], state={}, now=float(n))
                places = rng.sample([1, 2, 3, 4], 4)
                await store.commit_action(lobby.id, expected_version=60, seat=0, user_id=seated[0],
                                          action={"type": "x"}, events=[], state={}, now=float(n),
                                          finished={"places": places})
                game = await store.get(lobby.id)
                t0 = time.perf_counter()
                await store.rate_game(game, float(n))
                times.append(time.perf_counter() - t0)
        finally:
            await store.close()
    return [dist_row("after", "4-seat games, SQLite", "rate a finished game (judge, update, write)", times)]


def run(samples: int, games: int, titles: tuple[str, ...]) -> list[Row]:
    rows = story_row("imtheboss", 500)
    for title in titles:
        if title != "imtheboss":
            rows += story_row(title, 1)
    rows += step_rows(samples)
    rows += asyncio.run(rating_rows(games))
    return rows

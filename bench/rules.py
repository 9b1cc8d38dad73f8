"""Rules speed: whole games per second through the engine contract alone, for each title at each
player count, with uniformly random legal moves (deadlines passing now and then, as the engine
harness plays) and with the seat-filler on every seat; and the seat-filler's decision time (what
the house's `ai_choice` does: legal actions, the seat's view, `ai_action`)."""

from __future__ import annotations

import time

import engine

from bench.common import Row, dist_row, play_ai, play_random


def run(titles: tuple[str, ...], games: int, *, all_counts: bool = True, seed: int = 1) -> list[Row]:
    rows = []
    for title in titles:
        g = engine.get(title)
        counts = range(g.min_players, g.max_players + 1) if all_counts else (g.max_players,)
        decisions: list[float] = []
        for n in counts:
            t0 = time.perf_counter()
            steps = sum(play_random(title, n, seed + k) for k in range(games))
            dt = time.perf_counter() - t0
            rows.append(Row("rules", f"{title} {n}p", "random games/s", games / dt, None, "games/s", games,
                            "", None))
            t0 = time.perf_counter()
            ai_steps = 0
            for k in range(games):
                played = play_ai(title, n, seed + 1000 + k, keep_every=10**9, timed=True)
                decisions.extend(played.ai_seconds)
                ai_steps += played.length
            dt_ai = time.perf_counter() - t0
            rows.append(Row("rules", f"{title} {n}p", "AI games/s", games / dt_ai, None, "games/s", games, "", None))
            del steps, ai_steps
        rows.append(dist_row("rules", title, "AI decision", decisions, p99_max=200))
    return rows

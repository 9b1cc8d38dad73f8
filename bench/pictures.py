"""Pictures: render and PNG-encode time and size of each title's table picture and private panel
picture, at its largest player count, as the table keeper and panels draw them
(`render/<title>.py` on the engine's views, `render.common.png`): move after move, late in two
games the seat-filler played (from 70% of the way through), one in English and one in
Japanese, taking turns, so every picture is of a moment not drawn before (what a process
drawing two games' tables sees; the pictures keep parts and encoded rows from one move to the
next, and repeating moments would flatter them; a game too short for the samples is started
earlier). Wall time is what a player waits for; the
thread's CPU time beside it is less disturbed by other work on the machine."""

from __future__ import annotations

import importlib
import random
import time

import engine
from render.common import png

from bench.common import MAX_PLAYERS, Row, dist_row, median, play_ai


def measure(title: str, samples: int, *, games: int = 2, seed: int = 1) -> dict[str, list[float]]:
    players = MAX_PLAYERS[title]
    game = engine.get(title)
    render = importlib.import_module(f"render.{title}")
    names = [f"Player {i + 1}" for i in range(players)]
    rng = random.Random(seed)
    runs = []  # each game's states, move after move, from 70% of the way through (earlier when
    for g in range(games):  # the game is too short for the samples: no moment is drawn twice)
        played = play_ai(title, players, 100 + g + seed)
        versions = sorted(played.states)
        start = min(played.state_near(0.7)[0], versions[max(0, len(versions) - 2 - samples // games)])
        runs.append([played.states[v] for v in versions if v >= start])
    t0 = time.perf_counter()
    png(render.table_image(game.view(runs[0][0], None), names, "en"))  # its fonts, layers and text: cold
    cold = time.perf_counter() - t0
    out: dict[str, list[float]] = {f"{kind}_{k}": [] for kind in ("table", "panel")
                                   for k in ("render", "png", "bytes", "total", "cpu")}
    out["table_cold"] = [cold]
    for i in range(samples):
        g = i % games
        moves = runs[g]
        state = moves[min(len(moves) - 1, 1 + i // games)]
        lang = ("en", "ja")[g % 2]
        for kind, view in (("table", game.view(state, None)), ("panel", game.view(state, rng.randrange(players)))):
            fn = render.table_image if kind == "table" else render.panel_image
            c0, t0 = time.thread_time(), time.perf_counter()
            img = fn(view, names, lang)
            t1 = time.perf_counter()
            if img is None:
                continue
            data = png(img)
            t2, c2 = time.perf_counter(), time.thread_time()
            out[f"{kind}_cpu"].append(c2 - c0)
            out[f"{kind}_render"].append(t1 - t0)
            out[f"{kind}_png"].append(t2 - t1)
            out[f"{kind}_total"].append(t2 - t0)
            out[f"{kind}_bytes"].append(len(data))
    return out


def run(titles: tuple[str, ...], samples: int) -> list[Row]:
    rows = []
    for title in titles:
        m = measure(title, samples)
        subject = f"{title} {MAX_PLAYERS[title]}p"
        for kind in ("table", "panel"):
            if not m[f"{kind}_total"]:
                continue
            rows.append(dist_row("pictures", subject, f"{kind} render+png", m[f"{kind}_total"], median_max=60))
            rows.append(dist_row("pictures", subject, f"{kind} render+png, CPU time", m[f"{kind}_cpu"]))
            if kind == "table":
                rows.append(dist_row("pictures", subject, "table render+png, first of the title", m["table_cold"]))
            rows.append(dist_row("pictures", subject, f"{kind} render", m[f"{kind}_render"]))
            rows.append(dist_row("pictures", subject, f"{kind} png", m[f"{kind}_png"]))
            kb = [b / 1024 for b in m[f"{kind}_bytes"]]
            big = max(kb)
            rows.append(Row("pictures", subject, f"{kind} size (p99=max)", median(kb), big, "KB", len(kb),
                            "max<=500", big <= 500))
    return rows

"""Pictures: render and PNG-encode time and size of each title's table picture and private panel
picture, at its largest player count, late in a game (70-95% of the way through games the
seat-filler played), in English and Japanese, as the table keeper and panels draw them
(`render/<title>.py` on the engine's views, `render.common.png`). Wall time is what a player
waits for; the thread's CPU time beside it is less disturbed by other work on the machine."""

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
    late = []
    for g in range(games):
        played = play_ai(title, players, 100 + g + seed)
        for fraction in (0.7, 0.8, 0.9, 0.95):
            late.append(played.state_near(fraction)[1])
    t0 = time.perf_counter()
    png(render.table_image(game.view(late[0], None), names, "en"))  # its fonts, layers and text: cold
    cold = time.perf_counter() - t0
    out: dict[str, list[float]] = {f"{kind}_{k}": [] for kind in ("table", "panel")
                                   for k in ("render", "png", "bytes", "total", "cpu")}
    out["table_cold"] = [cold]
    for i in range(samples):
        state = late[i % len(late)]
        lang = ("en", "ja")[i % 2]
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

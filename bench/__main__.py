"""Boardroom's benchmarks: `python -m bench` runs them all and prints one table of figures with
the targets beside them (see docs/PERFORMANCE.md for the method).

    python -m bench                     everything, full size (several minutes)
    python -m bench --quick             everything, small (about a minute)
    python -m bench --only click,pictures --titles ewars
    python -m bench --json out.json     also write the rows as JSON
    python -m bench --only click,many --against d69bfba
                                        the same on another commit too, alternating, with ratios

Benchmarks: click (one player's action through the house and the table redraw), pictures
(render and PNG of table and panel pictures), many (actions per second with many running games
in one process, and its memory), startup (start-up with many stored games), rules (whole games
per second through the engines, and the seat-filler's decision time), ai (how well each seat-filler
plays: first places against a greedy baseline, against random seats and against the previous
seat-filler from git, its decision time, game
length, eliminations; see bench/ai.py), backends (committed actions/s and latency on SQLite, on
PostgreSQL with one bot process and with two splitting the shards, and their ratios; see
bench/backends.py and docs/SCALING.md).

Other people's work shares these cores: each section's load average is printed with the table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

from bench.common import MAX_PLAYERS, TITLES, Row, fmt, load_average, table

BENCHES = ("click", "pictures", "many", "startup", "rules", "ai", "backends")

#: Sizes: full run, quick run.
FULL = {"clicks": 200, "samples": 60, "games": 1000, "seconds": 20.0, "stored": 10_000, "startup_runs": 3,
        "rules_games": 5, "all_counts": True, "workers": 16, "rate": 500.0, "ai_games": 150,
        "backend_games": 400, "backend_seconds": 10.0}
QUICK = {"clicks": 25, "samples": 12, "games": 1000, "seconds": 3.0, "stored": 2_000, "startup_runs": 1,
         "rules_games": 1, "all_counts": False, "workers": 16, "rate": 500.0, "ai_games": 10,
         "backend_games": 40, "backend_seconds": 2.0}

ROOT = Path(__file__).resolve().parents[1]


def many_rows(figures: dict) -> list[Row]:
    games = figures["games"]
    subject = f"{games} games"
    counts = figures["counts"]
    n = counts["applied"]
    return [
        Row("many", subject, f"committed actions/s ({figures['workers']} players)", figures["saturated_actions_per_s"],
            None, "actions/s", n, ">=500", figures["saturated_actions_per_s"] >= 500),
        Row("many", subject, "latency, saturated", figures["saturated_median_ms"], figures["saturated_p99_ms"], "ms"),
        Row("many", subject, "process CPU per committed action", figures["cpu_ms_per_action"], None, "ms"),
        Row("many", subject, f"committed actions/s ({figures['offered_rate']:g}/s offered)",
            figures["steady_actions_per_s"], None, "actions/s", figures["steady_n"]),
        Row("many", subject, f"latency at {figures['offered_rate']:g}/s offered", figures["steady_median_ms"],
            figures["steady_p99_ms"], "ms", figures["steady_n"]),
        Row("many", subject, "load every game into the cache", figures["load_all_s"] * 1000, None, "ms", games),
        Row("memory", subject, "RSS, store open, no game loaded", figures["rss_open_mb"], None, "MiB"),
        Row("memory", subject, "RSS, every game in the house cache", figures["rss_loaded_mb"], None, "MiB"),
        Row("memory", subject, "RSS, after playing them all", figures["rss_after_mb"], None, "MiB"),
    ]


def startup_rows(figures: dict) -> list[Row]:
    runs = figures["runs"]
    subject = f"{figures['games']} stored"
    fastest, slowest = runs[0], runs[-1]
    rows = [Row("startup", subject, "process start to ready (fastest, slowest)", fastest["process_s"] * 1000,
                slowest["process_s"] * 1000, "ms", len(runs), "<2000", slowest["process_s"] < 2)]
    for key, label in (("import_s", "import the bot"), ("store_open_s", "open_store + migrations"),
                       ("setup_hook_s", "setup_hook (house, cogs, commands)"),
                       ("first_timer_query_s", "scheduler's first timer query")):
        rows.append(Row("startup", subject, label, fastest[key] * 1000, slowest[key] * 1000, "ms", len(runs)))
    rows.append(Row("startup", subject, "store file size", figures["db_mb"], None, "MiB"))
    return rows


def parse(argv: list[str] | None) -> tuple[argparse.Namespace, argparse.ArgumentParser]:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes: about a minute in all")
    parser.add_argument("--only", default=",".join(BENCHES), help=f"comma-separated subset of {','.join(BENCHES)}")
    parser.add_argument("--titles", default=",".join(TITLES), help="comma-separated titles (click, pictures, rules, ai)")
    parser.add_argument("--ai-prev", default=None,
                        help='git rev of the previous seat-filler, or "none" to skip it (ai; default: see bench/ai.py)')
    parser.add_argument("--ai-level", default="strong", choices=("strong", "friendly"),
                        help="the seat-filler's strength in the ai benchmark")
    parser.add_argument("--json", type=Path, help="also write the rows and the run's facts as JSON to this file")
    parser.add_argument("--against", metavar="REV", help="also run on git revision REV, alternating, and print ratios")
    parser.add_argument("--rounds", type=int, default=2, help="with --against: runs of each tree (default 2)")
    sizes = parser.add_argument_group("sizes (override the full or quick defaults)")
    sizes.add_argument("--clicks", type=int, help="timed clicks per title")
    sizes.add_argument("--samples", type=int, help="pictures drawn per title and kind")
    sizes.add_argument("--games", type=int, help="running games in the many-games benchmark")
    sizes.add_argument("--seconds", type=float, help="length of each many-games phase")
    sizes.add_argument("--workers", type=int, help="concurrent players in the many-games saturation phase")
    sizes.add_argument("--rate", type=float, help="clicks per second offered in the many-games steady phase")
    sizes.add_argument("--stored", type=int, help="stored games for the start-up benchmark")
    sizes.add_argument("--startup-runs", type=int, help="measured start-ups")
    sizes.add_argument("--rules-games", type=int, help="whole games per title and player count")
    sizes.add_argument("--ai-games", type=int, help="games per title and pairing in the ai benchmark")
    sizes.add_argument("--backend-games", type=int, help="running games per configuration in the backends benchmark")
    sizes.add_argument("--backend-seconds", type=float, help="clicking time per configuration (backends)")
    return parser.parse_args(argv), parser


def run_bench(bench: str, titles: tuple[str, ...], size: dict, args: argparse.Namespace,
              notes: list[str]) -> list[Row]:
    """One benchmark's rows."""
    if bench == "click":
        from bench import click

        return asyncio.run(click.run(titles, size["clicks"]))
    if bench == "pictures":
        from bench import pictures

        return pictures.run(titles, size["samples"])
    if bench == "many":
        from bench import many

        return many_rows(many.run_in_process(size["games"], size["seconds"], size["workers"], size["rate"]))
    if bench == "startup":
        from bench import startup

        return startup_rows(startup.measure(size["stored"], size["startup_runs"]))
    if bench == "rules":
        from bench import rules

        return rules.run(titles, size["rules_games"], all_counts=size["all_counts"])
    if bench == "ai":
        from bench import ai

        return ai.run(titles, size["ai_games"], prev=args.ai_prev, log=notes.append, level=args.ai_level)
    from bench import backends

    return backends.run(size["backend_games"], size["backend_seconds"], size["workers"])


def print_run(args: argparse.Namespace, rows: list[Row], notes: list[str], loads: list, started: float) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                            check=False).stdout.strip()
    print(f"# Boardroom benchmarks ({'quick' if args.quick else 'full'}) at {time.strftime('%Y-%m-%d %H:%M:%S')},"
          f" commit {commit or '?'}, Python {platform.python_version()}, {platform.machine()}")
    print(table(rows))
    for note in notes:
        print(note)
    print("# load average (1/5/15 min) at the start of each section, and its duration:")
    for bench, load, seconds in loads:
        print(f"#   {bench:<9} load {load}  ({seconds:.1f} s)")
    print(f"#   now       load {load_average()}  (total {time.perf_counter() - started:.1f} s)")
    missed = [r for r in rows if r.met is False]
    print(f"# targets: {sum(1 for r in rows if r.met)} met, {len(missed)} missed"
          + (": " + "; ".join(f"{r.subject} {r.metric} {fmt(r.median)}/{fmt(r.p99)} {r.unit}" for r in missed)
             if missed else ""))
    return commit


def without(argv: list[str], options: tuple[str, ...] = ("--against", "--rounds", "--json")) -> list[str]:
    """The arguments but these options and their values (what each tree's run is given)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in options:
            skip = True
        elif not arg.startswith(tuple(f"{o}=" for o in options)):
            out.append(arg)
    return out


def main(argv: list[str] | None = None) -> int:
    args, parser = parse(argv)
    if args.against:
        from bench.against import against

        return against(args.against, without(list(sys.argv[1:] if argv is None else argv)), args.rounds)
    size = dict(QUICK if args.quick else FULL)
    for key in size:
        value = getattr(args, key, None)
        if value is not None:
            size[key] = value
    only = [b.strip() for b in args.only.split(",") if b.strip()]
    titles = tuple(t.strip() for t in args.titles.split(",") if t.strip())
    for b in only:
        if b not in BENCHES:
            parser.error(f"unknown benchmark {b!r} (choose from {', '.join(BENCHES)})")
    for t in titles:
        if t not in MAX_PLAYERS:
            parser.error(f"unknown title {t!r}")
    rows: list[Row] = []
    loads: list[tuple[str, str, float]] = []
    notes: list[str] = []
    started = time.perf_counter()
    for bench in (b for b in BENCHES if b in only):
        load, t0 = load_average(), time.perf_counter()
        rows += run_bench(bench, titles, size, args, notes)
        loads.append((bench, load, time.perf_counter() - t0))
    commit = print_run(args, rows, notes, loads, started)
    if args.json:
        args.json.write_text(json.dumps({"mode": "quick" if args.quick else "full", "commit": commit, "size": size,
                                         "loads": loads, "rows": [asdict(r) for r in rows]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

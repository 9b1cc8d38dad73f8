"""Soak the house: the randomized reliability rounds at scale, with one summary.

    python tools/soak.py                      # 3 games per title of each round, seed 1
    python tools/soak.py --games 10 --seed 7 --max-steps 3000
    python tools/soak.py --only privacy       # or: --only durability
    python tools/soak.py --json soak.json     # also write the figures as JSON

Two rounds, both playing random games of every title through the real bot in SimCord:
  - privacy (tests/reliability/privacy.py: `leak_rounds`): whole games with a leak watch on every
    request the bot sends and bad input sprinkled in: leaks found, bad inputs tried;
  - durability (tests/reliability/durability.py: `durability_rounds`): games with restarts,
    injected Discord faults and double clicks, each compared with the same game undisturbed:
    faults injected, restarts, lost actions, diverging games.

Prints games played per title, actions applied, bad inputs tried, faults injected, restarts,
leaks found, lost and diverging games, and the problems found; exits 1 if anything leaked, was
lost or diverged, or another problem was found.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reliability.privacy import TITLES, leak_rounds  # noqa: E402 (after the path)

try:  # the durability rounds (races, restarts, Discord faults) live with their own tests
    from tests.reliability.durability import durability_rounds
except ImportError as exc:  # pragma: no cover - only while that module is missing
    durability_rounds = None
    DURABILITY_MISSING = str(exc)
else:
    DURABILITY_MISSING = ""


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


async def soak(games: int, seed: int, max_steps: int, durability_steps: int, only: str | None,
               titles: tuple[str, ...], max_seconds: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"seed": seed, "per_title": {t: {"privacy_games": 0, "durability_games": 0, "actions": 0}
                                                      for t in titles},
                           "actions": 0, "bad_inputs": 0, "faults": 0, "restarts": 0, "leaks": 0, "lost": 0,
                           "diverging": 0, "problems": [], "leak_list": [], "seconds": {}}
    if only in (None, "privacy"):
        started = time.perf_counter()
        p = await leak_rounds(games, seed, titles=titles, max_steps=max_steps, max_seconds=max_seconds,
                              progress=_progress)
        out["seconds"]["privacy"] = round(time.perf_counter() - started, 1)
        for title, n in p["games"].items():
            out["per_title"][title]["privacy_games"] += n
        for title, n in p.get("actions_per_title", {}).items():
            out["per_title"][title]["actions"] += n
        out["actions"] += p["actions"]
        out["bad_inputs"] += p["bad_inputs"]
        out["leaks"] += p["leaks"]
        out["leak_list"] += p["leak_list"]
        out["problems"] += p["problems"]
        out["bad_input_problems"] = len(p["bad_input_problems"])
        out["privacy"] = {k: v for k, v in p.items() if k not in ("leak_list", "problems", "bad_input_problems")}
    if only in (None, "durability"):
        if durability_rounds is None:
            out["problems"].append(f"durability rounds unavailable: {DURABILITY_MISSING}")
        else:
            started = time.perf_counter()
            d = await durability_rounds(games * len(titles), seed, max_steps=durability_steps, titles=titles)
            out["seconds"]["durability"] = round(time.perf_counter() - started, 1)
            for title, per in d.get("per_title", {}).items():
                slot = out["per_title"].setdefault(title, {"privacy_games": 0, "durability_games": 0, "actions": 0})
                slot["durability_games"] += per.get("games", 0)
                slot["actions"] += per.get("actions", 0)
            out["actions"] += d["actions"]
            out["faults"] += d["faults"]
            out["restarts"] += d["restarts"]
            out["lost"] += d["lost"]
            out["diverging"] += d["diverging"]
            out["problems"] += d.get("problems", [])
            out["durability"] = {k: v for k, v in d.items() if k != "problems"}
    return out


def report(result: dict[str, Any]) -> str:
    head = f"{'title':<12} {'privacy games':>14} {'durability games':>17} {'actions':>8}"
    lines = [f"Soak, seed {result['seed']}", "", head]
    for title, per in result["per_title"].items():
        lines.append(f"{title:<12} {per['privacy_games']:>14} {per['durability_games']:>17} {per['actions']:>8}")
    lines += [
        "",
        f"actions applied     {result['actions']}",
        f"bad inputs tried    {result['bad_inputs']} "
        f"({result.get('bad_input_problems', 0)} not answered as they should be)",
        f"faults injected     {result['faults']}",
        f"restarts            {result['restarts']}",
        f"leaks found         {result['leaks']}",
        f"lost actions        {result['lost']}",
        f"diverging games     {result['diverging']}",
        f"time (s)            {json.dumps(result['seconds'])}",
    ]
    if "privacy" in result:
        p = result["privacy"]
        lines.append(f"privacy rounds      {p['finished']} games finished, {p['requests']} requests and "
                     f"{p['pictures']} pictures checked, {p['views_checked']} states checked against "
                     f"randomised secrets, {p['clicks']} panel clicks ({p.get('dm_clicks', 0)} in DMs), "
                     f"{p.get('looks', 0)} looks at the log, status and rules")
    if "durability" in result:
        d = result["durability"]
        extra = {k: d[k] for k in ("finished", "stalled", "unanswered", "double_clicks", "old_panel_clicks") if k in d}
        lines.append(f"durability rounds   {json.dumps(extra)}")
    if result["leak_list"]:
        lines += ["", "Leaks:"] + [f"  {x}" for x in result["leak_list"][:40]]
    if result["problems"]:
        lines += ["", "Problems:"] + [f"  {x}" for x in result["problems"][:40]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per title in each round (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-steps", type=int, default=3000, help="steps per privacy game (whole games: 3000)")
    parser.add_argument("--durability-steps", type=int, default=120, help="steps per durability game")
    parser.add_argument("--max-seconds", type=float, default=600, help="wall-clock cap per privacy game")
    parser.add_argument("--only", choices=("privacy", "durability"))
    parser.add_argument("--titles", default=",".join(TITLES))
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)  # the bot's own logs would drown the summary
    titles = tuple(t for t in args.titles.split(",") if t)
    result = asyncio.run(soak(args.games, args.seed, args.max_steps, args.durability_steps, args.only, titles,
                              args.max_seconds))
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
    bad = result["leaks"] or result["lost"] or result["diverging"] or result["problems"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""Black Friday balance: N seeded all-AI games played through the engine (no bot), measured.

Prints, per player count, the median and range of game length (actions, rounds, price
adjustments), how games ended (silver at 100 or the stall guard), the level reached, the WSJ
stock left at the end, and the rounds spent at each level (mean over the games that reached it):

    python tools/blackfriday_balance.py                  # 40 games each for 2..5 players
    python tools/blackfriday_balance.py --games 100 --seats 4 --json out.json

A round is one turn of every seat. The same seeds always play the same games, so a run on the
data before a change and one after it compare like with like (docs/ENGINE.md, "Balance").
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402 (after the path)
from engine.autoplay import steps  # noqa: E402

LEVELS = 10


def one_game(seats: int, seed: int) -> dict:
    """Play one game; return its length and the turn at which each level was reached."""
    game = engine.get("blackfriday")
    actions = 0
    state = None
    first_turn: dict[int, int] = {0: 1}
    for state, _seat, _action, _events in steps(game, seats, seed):
        actions += 1
        first_turn.setdefault(state["level"], state["turn"])
    assert state is not None and game.outcome(state) is not None
    end_turn = state["turn"]
    reached = sorted(first_turn)
    per_level = {}
    for i, lv in enumerate(reached):
        until = first_turn[reached[i + 1]] if i + 1 < len(reached) else end_turn
        per_level[lv] = (until - first_turn[lv]) / seats
    return {
        "seed": seed, "seats": seats, "actions": actions, "rounds": end_turn / seats,
        "adjustments": state["adjustments"], "end": state["end"], "level": state["level"],
        "wsj_left": state["wsj"], "per_level": per_level,
    }


def summarise(games: list[dict]) -> dict:
    def spread(key: str) -> tuple[float, float, float]:
        values = [g[key] for g in games]
        return min(values), statistics.median(values), max(values)

    per_level = {}
    for lv in range(LEVELS):
        spent = [g["per_level"][lv] for g in games if lv in g["per_level"]]
        if spent:
            per_level[lv] = (len(spent), statistics.mean(spent))
    return {
        "games": len(games),
        "actions": spread("actions"), "rounds": spread("rounds"), "adjustments": spread("adjustments"),
        "silver_end": sum(g["end"] == "silver" for g in games),
        "level": spread("level"), "wsj_left": spread("wsj_left"),
        "wsj_empty": sum(g["wsj_left"] == 0 for g in games),
        "per_level": per_level,
    }


def table(by_seats: dict[int, dict]) -> str:
    out = ["| players | games | actions min/median/max | rounds min/median/max | adjustments median | "
           "ended by silver | final level median | WSJ stock empty at end |",
           "|---|---|---|---|---|---|---|---|"]
    for seats, s in by_seats.items():
        a, r = s["actions"], s["rounds"]
        out.append(f"| {seats} | {s['games']} | {a[0]:.0f} / {a[1]:.0f} / {a[2]:.0f} | "
                   f"{r[0]:.1f} / {r[1]:.1f} / {r[2]:.1f} | {s['adjustments'][1]:.0f} | "
                   f"{s['silver_end']}/{s['games']} | {s['level'][1]:.0f} | {s['wsj_empty']}/{s['games']} |")
    out.append("")
    out.append("Rounds spent at each level (mean over the games that reached it; games reaching it in brackets):")
    out.append("")
    out.append("| players | " + " | ".join("Start" if lv == 0 else str(lv) for lv in range(LEVELS)) + " |")
    out.append("|---|" + "---|" * LEVELS)
    for seats, s in by_seats.items():
        cells = []
        for lv in range(LEVELS):
            if lv in s["per_level"]:
                k, mean = s["per_level"][lv]
                cells.append(f"{mean:.1f} ({k})")
            else:
                cells.append("-")
        out.append(f"| {seats} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per player count")
    ap.add_argument("--seats", type=int, nargs="*", default=[2, 3, 4, 5])
    ap.add_argument("--seed", type=int, default=1, help="first seed; games use seed, seed+1, ...")
    ap.add_argument("--json", type=Path, help="also write every game's figures here")
    args = ap.parse_args(argv)
    by_seats, every = {}, []
    for seats in args.seats:
        games = [one_game(seats, args.seed + i) for i in range(args.games)]
        every += games
        by_seats[seats] = summarise(games)
    print(table(by_seats))
    if args.json:
        args.json.write_text(json.dumps(every, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

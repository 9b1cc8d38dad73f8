"""python -m tools.habits [--titles imtheboss,...] [--seed 1] [--cap-days 60] [--json out.json]
                        [--lang en,ja,es --transcript DIR]

Plays, for each title, one slow game at its largest player count with the habits spread over
the seats, and one with a seat-filler seat; prints a table of the figures (tools/habits/
__init__.py says how each is measured) and, with --json, writes every figure of every game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.habits.game import play  # noqa: E402 (after the path)

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")
#: The day from which the away player leaves for two days: about the middle of a slow game of the
#: title as these people play it (seed 1 on this tree: I'm the Boss! 42-52 days, Filthy Rich 7,
#: Black Friday 16-17, E-Wars 12).
AWAY_DAY = {"imtheboss": 20.0, "filthyrich": 3.0, "blackfriday": 7.0, "ewars": 5.0}
COLUMNS = [
    ("game", lambda r: f"{r['title']}{' +AI' if r['filler'] else ''} ({r['players']}, {r.get('lang', 'en')})"),
    ("end", lambda r: ("capped " if r["capped"] else "") + f"{r['status']} d{r['virtual_days']}"),
    ("moves", lambda r: r["actions"]),
    ("filler for people", lambda r: _filler(r)),
    ("reminders (>2 / to actor)", lambda r: f"{r['reminders']} ({r['reminders_beyond_two']} / {r['reminders_to_actor']})"),
    ("offers told <1 min", lambda r: _offers(r)),
    ("deals failed, time left", lambda r: f"{r['deals_failed_with_time_left']} of {r['deals']}" if "deals" in r else "-"),
    ("daily rolled himself", lambda r: f"{r['daily_rolled_himself']} of {r['dice_rounds']}" if "dice_rounds" in r else "-"),
    ("msgs/turn", lambda r: r["messages_per_turn"]),
    ("pinged", lambda r: f"{r['obligations_pinged']} of {r['obligations']}"),
    ("table dist max (mean)", lambda r: f"{r['table_distance_max']} ({r['table_distance_mean']})"),
    ("off panel", lambda r: r["off_panel"] + r["stuck"]),
    ("legal not on panel", lambda r: f"{r['not_on_panel']} of {r['audited']}"),
    ("wording (transcript)", lambda r: r.get("wording_problems", "-")),
]


def _filler(r: dict[str, Any]) -> str:
    if r.get("time_banks"):
        return f"{r['filler_with_bank_left']} with bank left (of {r['filler_for_people']})"
    return str(r["filler_for_people"])


def _offers(r: dict[str, Any]) -> str:
    if "offers_to_people" not in r:
        return "-"
    return f"{r['offers_told_in_a_minute']} of {r['offers_to_people']} ({r['offers_told_pct']} %)"


def table(rows: list[dict[str, Any]]) -> str:
    head = [name for name, _ in COLUMNS]
    body = [[str(fn(r)) for _, fn in COLUMNS] for r in rows]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--titles", default=",".join(TITLES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap-days", type=float, default=60.0, help="virtual days before a game is cut off")
    parser.add_argument("--away-day", type=float, default=None,
                        help="day of the game from which the away player leaves (default: about the middle of the title's game)")
    parser.add_argument("--players", type=int, default=None, help="players per game (default: the most)")
    parser.add_argument("--only", choices=("people", "filler"), help="only the games without / with a seat-filler")
    parser.add_argument("--audit", type=int, default=2,
                        help="other legal moves looked for on the panel at each move (is every rule reachable?)")
    parser.add_argument("--pictures", action="store_true", help="draw the real pictures (slower; no figure changes)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--trace", type=Path, help="write what each person did and saw, game by game")
    parser.add_argument("--lang", default="en", help="the games' languages, e.g. en,ja,es (one game of each)")
    parser.add_argument("--transcript", type=Path,
                        help="a folder for everything the bot said, one file per game, rough edges marked (!!)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    rows = []
    kinds = [False, True] if args.only is None else [args.only == "filler"]
    if args.transcript:
        args.transcript.mkdir(parents=True, exist_ok=True)
    for title, lang, filler in ((t, g, f) for t in args.titles.split(",") for g in args.lang.split(",") for f in kinds):
        said = args.transcript / f"{title}{'-ai' if filler else ''}-{lang}.txt" if args.transcript else None
        row = asyncio.run(play(title, args.seed, players=args.players, filler=filler, cap_days=args.cap_days,
                               away_day=args.away_day if args.away_day is not None else AWAY_DAY[title],
                               audit=args.audit, pictures=args.pictures, lang=lang, transcript=said))
        trace = row.pop("trace", [])
        if args.trace:
            with args.trace.open("a", encoding="utf-8") as fh:
                fh.write(f"== {title}{' +AI' if filler else ''} ({lang})\n" + "\n".join(trace) + "\n")
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

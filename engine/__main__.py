"""`python -m engine replay FILE`: replay a game exported with `/game export` (docs/EXPORT.md)
through the rules and say whether it reaches the result the file records.

Exit status: 0 the same result, 1 a different one (or a move the rules refuse), 2 a file that is
not a game record. Reads the file and uses engine code only: the rules stay pure.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .replay import RecordError, replay, result_of, same_result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Boardroom's rules from the command line.")
    verbs = parser.add_subparsers(dest="verb", required=True)
    r = verbs.add_parser("replay", help="replay an exported game and check its result")
    r.add_argument("file", type=Path, help="a JSON file from /game export")
    args = parser.parse_args(argv)
    try:
        record = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"python -m engine replay: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        _, outcome = replay(record)
    except RecordError as exc:
        print(f"python -m engine replay: {args.file}: {exc}", file=sys.stderr)
        return 1 if "refused" in str(exc) else 2
    got = result_of(outcome)
    moves = len(record["moves"])
    if same_result(record, outcome):
        print(f"{record['title']}: {moves} moves replayed to the recorded result: places {got['places']}")  # type: ignore[index]
        return 0
    print(f"{record['title']}: {moves} moves replayed to a different result: {got} (recorded: {record.get('result')})")
    return 1


if __name__ == "__main__":
    sys.exit(main())

"""`python -m bench --against REV`: the same benchmarks on this tree and on REV, side by side in
one run. REV is checked out in a temporary git worktree; the two trees' runs alternate (REV,
this, REV, this...), each in a process of its own with its own code, so a noisy machine weighs
on both alike. Prints each tree's figures and, per figure, the ratio this/REV of the medians
over the rounds: every performance claim is such a ratio (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import fmt

ROOT = Path(__file__).resolve().parents[1]
#: Figures where smaller is better (times, memory); the others (rates) are better larger.
SMALLER_IS_BETTER = ("ms", "s", "MiB", "KiB", "KB")


def worktree(rev: str, where: Path) -> Path:
    """REV checked out (detached) in a new worktree under `where`."""
    path = where / "against"
    subprocess.run(["git", "worktree", "add", "--detach", "--force", str(path), rev], cwd=ROOT, check=True,
                   capture_output=True, text=True)
    return path


def run_tree(tree: Path, argv: list[str], out: Path) -> list[dict]:
    """The benchmarks of `tree` (its own code), their rows."""
    subprocess.run([sys.executable, "-m", "bench", *argv, "--json", str(out)], cwd=tree, check=True)
    return json.loads(out.read_text())["rows"]


def key(row: dict) -> tuple[str, str, str]:
    return row["bench"], row["subject"], row["metric"]


def summarize(runs: list[list[dict]]) -> dict[tuple[str, str, str], tuple[float, str, list[float]]]:
    """Per figure: the median over the rounds, its unit, and every round's value."""
    values: dict[tuple[str, str, str], list[float]] = {}
    units: dict[tuple[str, str, str], str] = {}
    for rows in runs:
        for row in rows:
            if isinstance(row.get("median"), (int, float)):
                values.setdefault(key(row), []).append(float(row["median"]))
                units[key(row)] = row.get("unit") or ""
    return {k: (statistics.median(v), units[k], v) for k, v in values.items()}


def report(rev: str, head: str, theirs: list[list[dict]], ours: list[list[dict]]) -> str:
    before, after = summarize(theirs), summarize(ours)
    lines = [f"# this tree ({head}) against {rev}: medians over {len(ours)} alternating rounds each",
             f"{'bench':<9} {'subject':<22} {'metric':<46} {rev[:10]:>12} {head[:10]:>12} {'ratio':>7}  better?"]
    for k in sorted(set(before) & set(after)):
        (old, unit, _), (new, _, _) = before[k], after[k]
        ratio = new / old if old else float("nan")
        smaller = unit in SMALLER_IS_BETTER
        better = "yes" if (ratio < 1) == smaller and ratio != 1 else ("same" if ratio == 1 else "no")
        lines.append(f"{k[0]:<9} {k[1][:22]:<22} {k[2][:46]:<46} {fmt(old):>12} {fmt(new):>12} {ratio:>7.3f}  "
                     f"{better} ({unit})")
    for k in sorted(set(before) ^ set(after)):
        lines.append(f"{k[0]:<9} {k[1][:22]:<22} {k[2][:46]:<46} only in {'this tree' if k in after else rev}")
    return "\n".join(lines)


def against(rev: str, argv: list[str], rounds: int = 2) -> int:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bench-against-") as tmp:
        where = Path(tmp)
        other = worktree(rev, where)
        theirs: list[list[dict]] = []
        ours: list[list[dict]] = []
        try:
            for n in range(rounds):
                print(f"# round {n + 1} of {rounds}: {rev}", flush=True)
                theirs.append(run_tree(other, argv, where / f"theirs-{n}.json"))
                print(f"# round {n + 1} of {rounds}: this tree ({head})", flush=True)
                ours.append(run_tree(ROOT, argv, where / f"ours-{n}.json"))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=False,
                           capture_output=True)
        print(report(rev, head, theirs, ours))
    return 0

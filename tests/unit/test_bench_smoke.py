"""`python -m bench` runs every benchmark end to end on a tiny configuration and prints a
well-formed table (figures are not checked against targets here: this is not a timed test)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from bench.__main__ import BENCHES
from bench.common import COLUMNS

ROOT = Path(__file__).resolve().parents[2]


def test_bench_tiny_run_prints_a_well_formed_table(tmp_path):
    out_json = tmp_path / "rows.json"
    cmd = [sys.executable, "-m", "bench", "--quick", "--titles", "ewars", "--clicks", "3", "--samples", "2",
           "--games", "30", "--seconds", "0.3", "--rate", "50", "--stored", "40", "--startup-runs", "1",
           "--rules-games", "1", "--ai-games", "2", "--backend-games", "8", "--backend-seconds", "0.5",
           "--json", str(out_json)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    header = [c.strip() for c in lines[start].split("|")]
    assert header == COLUMNS
    assert set(lines[start + 1]) <= {"-", "+"}
    body = []
    for line in lines[start + 2:]:
        if line.startswith("#"):
            break
        cells = [c.strip() for c in line.split("|")]
        assert len(cells) == len(COLUMNS), line
        body.append(dict(zip(COLUMNS, cells)))
    assert {r["bench"] for r in body} == set(BENCHES) | {"memory"}
    for r in body:
        assert r["status"] in ("ok", "MISS", "-"), r
        assert r["median"] and r["median"] != "nan", r
        float(r["median"].replace(",", ""))
    # Every title-specific figure names the title asked for, at its largest player count.
    assert {r["subject"] for r in body if r["bench"] in ("click", "pictures")} == {"ewars 4p"}
    metrics = {(r["bench"], r["metric"]) for r in body}
    for needed in [("click", "total (act+panel+table)"), ("pictures", "table render+png"),
                   ("pictures", "panel size (p99=max)"), ("rules", "AI decision"), ("memory", "RSS, every game in the house cache"),
                   ("ai", "(a) 1 seat-filler among greedy: firsts"), ("ai", "(d) 1 seat-filler among random: firsts"),
                   ("ai", "all-AI game length")]:
        assert needed in metrics, needed
    assert any(m.startswith("committed actions/s") for b, m in metrics if b == "many")
    # The backends: each configuration's rate, and the ratios between them.
    subjects = {r["subject"] for r in body if r["bench"] == "backends"}
    assert {"8 games, sqlite, 1 process", "8 games, postgres, 1 process", "8 games, postgres, 2 processes",
            "ratio"} == subjects
    assert ("backends", "postgres 2 processes / 1 process (actions/s)") in metrics
    assert any(line.startswith("#   click") and "load" in line for line in lines)
    assert lines[-1].startswith("# targets:")
    saved = json.loads(out_json.read_text())
    assert len(saved["rows"]) == len(body)
    assert all(not math.isnan(r["median"]) for r in saved["rows"])

"""What every benchmark shares: statistics, the result rows, the machine's load, games played by
the seat-filler (for realistic states and logs), and a store with running games in it.

Nothing here is a timed test: benchmarks print figures; `bench/__main__.py` prints them as a
table with the targets beside them."""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.core import SYSTEM, Game, copy_json

#: The largest player count of each title (the heaviest tables).
MAX_PLAYERS = {"imtheboss": 6, "filthyrich": 5, "blackfriday": 5, "ewars": 4}
TITLES = tuple(MAX_PLAYERS)


# -- figures --------------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest-rank on sorted data (p99 of 50 values is the max)."""
    if not values:
        return math.nan
    data = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(data)))
    return data[min(rank, len(data)) - 1]


def median(values: list[float]) -> float:
    if not values:
        return math.nan
    data = sorted(values)
    mid = len(data) // 2
    return data[mid] if len(data) % 2 else (data[mid - 1] + data[mid]) / 2


@dataclass
class Row:
    """One line of the table. `median`/`p99` hold a distribution's figures; a single figure
    (a rate, a size) goes in `median` with `p99` None. `target` is text such as "<100 ms"; `met`
    is True/False when a target applies, None when the row is information only."""

    bench: str
    subject: str
    metric: str
    median: float
    p99: float | None = None
    unit: str = "ms"
    n: int | None = None
    target: str = ""
    met: bool | None = None

    def cells(self) -> list[str]:
        return [self.bench, self.subject, self.metric, fmt(self.median), fmt(self.p99), self.unit,
                "" if self.n is None else str(self.n), self.target or "-",
                "-" if self.met is None else ("ok" if self.met else "MISS")]


COLUMNS = ["bench", "subject", "metric", "median", "p99", "unit", "n", "target", "status"]


def fmt(value: float | None) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def dist_row(bench: str, subject: str, metric: str, seconds: list[float], *, median_max: float | None = None,
             p99_max: float | None = None, unit: str = "ms") -> Row:
    """A row for durations in seconds, shown in ms, checked against targets given in ms."""
    values = [s * 1000 for s in seconds]
    med, p99 = median(values), percentile(values, 99)
    parts, met = [], None
    if median_max is not None:
        parts.append(f"med<{median_max:g}")
        met = med < median_max
    if p99_max is not None:
        parts.append(f"p99<{p99_max:g}")
        met = (met is not False) and p99 < p99_max
    return Row(bench, subject, metric, med, p99, unit, len(values), " ".join(parts), met)


def table(rows: list[Row]) -> str:
    """The rows as a fixed-width text table (the first line names the columns)."""
    cells = [COLUMNS] + [r.cells() for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(COLUMNS))]
    right = {3, 4, 6}  # numbers

    def line(c: list[str]) -> str:
        return " | ".join(c[i].rjust(widths[i]) if i in right else c[i].ljust(widths[i]) for i in range(len(c))).rstrip()

    out = [line(cells[0]), "-+-".join("-" * w for w in widths)]
    out += [line(c) for c in cells[1:]]
    return "\n".join(out)


def load_average() -> str:
    """The 1/5/15-minute load averages, as `uptime` shows them (other people share these cores)."""
    try:
        one, five, fifteen = os.getloadavg()
        return f"{one:.2f} {five:.2f} {fifteen:.2f}"
    except OSError:
        return "unknown"


def rss_mb() -> float:
    """This process's resident memory (VmRSS) in MiB."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return math.nan


# -- games played by the seat-filler ------------------------------------------------------------------

@dataclass
class Played:
    """A whole game played by the seat-filler on every seat, as the bot would (AI turns, and a
    deadline passing when every seat waits). `states[v]` is the state at version v (kept every
    `keep_every` versions, and the last); `log[v-1]` is (seat, action, events) of version v."""

    title: str
    players: int
    seed: int
    log: list[tuple[int | None, dict, list]] = field(default_factory=list)
    states: dict[int, dict] = field(default_factory=dict)
    ai_seconds: list[float] = field(default_factory=list)
    finished: bool = False

    @property
    def length(self) -> int:
        return len(self.log)

    def state_near(self, fraction: float) -> tuple[int, dict]:
        """The kept state nearest to `fraction` of the game (0: the start, 1: the end)."""
        want = fraction * self.length
        version = min(self.states, key=lambda v: abs(v - want))
        return version, self.states[version]


def ai_decide(game: Game, state: dict, seat: int, rng: random.Random) -> dict | None:
    """What the house's `ai_choice` does: legal, the seat's view, the seat-filler's pick."""
    legal = game.legal(state, seat)
    if not legal:
        return None
    return game.ai_action(game.view(state, seat), legal, rng)


def play_ai(title: str, players: int, seed: int, *, keep_every: int = 1, max_steps: int = 20000,
            timed: bool = False) -> Played:
    game = engine.get(title)
    rng = random.Random(seed)
    state = game.setup(players, seed, {})
    out = Played(title, players, seed)
    out.states[0] = copy_json(state)
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            out.finished = True
            break
        seats = [s for s in range(players) if game.legal(state, s)]
        rng.shuffle(seats)
        seat, action = SYSTEM, None
        for s in seats:
            t0 = time.perf_counter()
            action = ai_decide(game, state, s, rng)
            if timed:
                out.ai_seconds.append(time.perf_counter() - t0)
            if action is not None:
                seat = s
                break
        if action is None:
            windows = game.windows(state)
            if not windows:
                raise RuntimeError(f"{title}: nobody acts and no window is open")
            action = {"type": "timeout", "id": rng.choice(windows).id}
        events = game.apply(state, seat, action)
        out.log.append((seat, action, events))
        if len(out.log) % keep_every == 0:
            out.states[len(out.log)] = copy_json(state)
    out.states[len(out.log)] = copy_json(state)
    return out


def play_random(title: str, players: int, seed: int, *, timeout_rate: float = 0.03, max_steps: int = 200000) -> int:
    """A whole game of uniformly random legal moves (deadlines pass now and then), as the engine
    harness plays it but without its checks. Returns the number of actions."""
    game = engine.get(title)
    rng = random.Random(seed)
    state = game.setup(players, seed, {})
    for step in range(max_steps):
        if game.outcome(state) is not None:
            return step
        movers = [s for s in range(players) if game.legal(state, s)]
        windows = game.windows(state)
        if windows and (not movers or rng.random() < timeout_rate):
            game.apply(state, SYSTEM, {"type": "timeout", "id": rng.choice(windows).id})
        else:
            seat = rng.choice(movers)
            game.apply(state, seat, rng.choice(game.legal(state, seat)))
    raise RuntimeError(f"{title} random game did not end in {max_steps} steps")


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

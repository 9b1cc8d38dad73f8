"""How well each title's seat-filler plays: `python -m bench --only ai`.

Per title, at its largest player count (where the seat-filler has the most rivals), against
the greedy baseline of bench/greedy.py (one move ahead, best immediate standing):
  (a) first places of ONE seat-filler among greedy seats (target: 3x the fair share);
  (b) first places of ONE greedy seat among seat-fillers (target: half the fair share or less);
  (c) head to head at two players: the seat-filler's wins (Filthy Rich: 60 % or more);
  (e) the friendly level head to head against the strong one at two players (it should lose);
and further:
  (d) win share of ONE seat-filler against random seats (uniform random legal moves), with the
    seat-filler's seat rotated round the table; a random seat's fair share is 1/players;
  - win share of ONE seat-filler against the PREVIOUS seat-filler on every other seat: the
    title's whole package `engine/<title>/` as it was at a git rev (`git archive`) is loaded
    under a throwaway package name beside today's, so the previous seat-filler runs with its own
    helpers (a seat-filler spread over several modules, such as Filthy Rich's race.py and
    value.py or E-Wars' ai_claim.py, is compared whole); nothing old is committed. The default
    rev: on a branch whose package differs from main's, the merge-base; with uncommitted changes
    to the package, HEAD; else main before the last commit of its first-parent history that
    changed the package (the merge of the last seat-filler work). Fair share: 1/players;
  - all-AI games: length (actions and rounds, where the title counts rounds) and, where the
    title has them, eliminations per game (and which payment caused them);
  - the seat-filler's decision time over all those games (target: p99 under 50 ms).

Each pairing plays the same `games` seeded games (the seat rotated round the table), so two
runs compare like with like.

Shared wins count as a share (two winners: half a win each). Games that do not end within the
step cap count as no win and are reported.
"""

from __future__ import annotations

import atexit
import functools
import importlib
import importlib.util
import io
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import engine
from engine.core import SYSTEM, Game

from bench.common import MAX_PLAYERS, Row, dist_row
from bench.greedy import Greedy

ROOT = Path(__file__).resolve().parents[1]
#: A game longer than this many actions is given up (counted as unfinished, no win).
MAX_STEPS = 20000
#: Random seats sometimes sit out a deadline, as in the engine harness, so negotiations between
#: random seats end; never the seat-filler's own window (it would measure the deadline, not it).
TIMEOUT_RATE = 0.03

Policy = Callable[[dict, list[dict], random.Random], "dict | None"]


# -- the previous seat-filler ------------------------------------------------------------------

def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


def previous_rev(title: str) -> str:
    """The commit holding the previous seat-filler of `title` (see the module note), or ""."""
    path = f"engine/{title}"
    if _git("status", "--porcelain", "--", path):
        return _git("rev-parse", "HEAD")
    base, head = _git("merge-base", "HEAD", "main"), _git("rev-parse", "HEAD")
    if base and base != head and _git("diff", "--name-only", base, "HEAD", "--", path):
        return base
    last = _git("log", "-1", "--first-parent", "--format=%H", "--", path)
    return _git("rev-parse", "--verify", "--quiet", f"{last}^1") if last else ""


@functools.lru_cache(maxsize=8)
def load_previous(title: str, rev: str) -> ModuleType:
    """The seat-filler module (`ai.py`) of `engine/<title>/` as the whole package was at `rev`,
    imported as a package of its own (`_previous_<title>_<rev>`) from a temporary folder, so its
    relative imports find its own helpers and rules of that time; `engine.core` is today's."""
    archive = subprocess.run(["git", "archive", rev, f"engine/{title}"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    folder = Path(tempfile.mkdtemp(prefix=f"boardroom-previous-{title}-"))
    atexit.register(shutil.rmtree, folder, True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    name = f"_previous_{title}_{rev[:12]}"
    package = folder / "engine" / title
    spec = importlib.util.spec_from_file_location(name, package / "__init__.py",
                                                  submodule_search_locations=[str(package)])
    if spec is None or spec.loader is None:
        raise ImportError(f"engine/{title} at {rev[:8]} is not a package")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its submodules import through it, now and in later calls
    spec.loader.exec_module(module)
    return importlib.import_module(f"{name}.ai")


# -- playing ------------------------------------------------------------------------------------

def random_policy(view: dict, legal: list[dict], rng: random.Random) -> dict | None:
    return rng.choice(legal) if legal else None


@dataclass
class Result:
    places: list[int | None] | None  # None: the game did not end
    actions: int
    rounds: int | None
    eliminated: list[int] = field(default_factory=list)
    causes: list[str] = field(default_factory=list)


def _eliminations(title: str, phase: str | None, events: list[dict], causes: list[str]) -> None:
    """Record what put seats out (titles whose rules eliminate: Filthy Rich's bankruptcies).
    `phase` is the game's phase before the action."""
    if title != "filthyrich":
        return
    kinds = {e["type"] for e in events}
    for e in events:
        if e["type"] == "bankrupt":
            if "interest_unpaid" in kinds:
                causes.append("interest")
            elif phase == "audit" or "audit" in kinds:
                causes.append("audit")
            else:
                causes.append("tax")


def play(title: str, policies: list[Policy], seed: int) -> Result:
    """One game, seat s played by policies[s] (None-returning policies wait, as the house lets
    a seat-filler wait when it owes nothing)."""
    game: Game = engine.get(title)
    n = len(policies)
    rng = random.Random(seed)
    state = game.setup(n, seed, {})
    causes: list[str] = []
    randoms = {s for s, p in enumerate(policies) if p is random_policy}
    for step in range(MAX_STEPS):
        out = game.outcome(state)
        if out is not None:
            return Result(out.places, step, state.get("round"), _out_seats(title, state), causes)
        movers = [s for s in range(n) if game.legal(state, s)]
        windows = game.windows(state)
        sleepy = [w for w in windows if w.seats and set(w.seats) <= randoms]
        seat, action = SYSTEM, None
        if sleepy and rng.random() < TIMEOUT_RATE:
            action = {"type": "timeout", "id": rng.choice(sleepy).id}
        else:
            for s in rng.sample(movers, len(movers)):
                legal = game.legal(state, s)
                policy = policies[s]
                if getattr(policy, "sees_state", False):  # the greedy baseline (bench/greedy.py)
                    action = policy.choose(state, s, legal, rng)
                else:
                    action = policy(game.view(state, s), legal, rng)
                if action is not None:
                    seat = s
                    break
            if action is None:
                if not windows:
                    raise RuntimeError(f"{title}: nobody acts and no window is open")
                seat, action = SYSTEM, {"type": "timeout", "id": rng.choice(windows).id}
        phase = state.get("phase")
        events = game.apply(state, seat, action)
        _eliminations(title, phase, events, causes)
    return Result(None, MAX_STEPS, state.get("round"), _out_seats(title, state), causes)


def _out_seats(title: str, state: dict) -> list[int]:
    alive = state.get("alive")
    if title == "filthyrich" and isinstance(alive, list):
        return [s for s, a in enumerate(alive) if not a]
    return []


def _win(places: list[int | None] | None, seat: int) -> float:
    if not places or places[seat] != 1:
        return 0.0
    return 1.0 / sum(1 for p in places if p == 1)


# -- figures ------------------------------------------------------------------------------------

def duel(title: str, players: int, games: int, hero: Policy, others: Policy, seed: int) -> tuple[float, list[Result]]:
    """Win share of `hero` on one seat (rotating) against `others` on every other seat."""
    wins, results = 0.0, []
    for k in range(games):
        seat = k % players
        policies = [hero if s == seat else others for s in range(players)]
        r = play(title, policies, seed + k)
        wins += _win(r.places, seat)
        results.append(r)
    return wins / max(1, games), results


class Timed:
    """A seat-filler policy that records how long each decision takes (the house calls it on
    the event loop's worker, so a slow decision delays a table)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.seconds: list[float] = []

    def __call__(self, view: dict, legal: list[dict], rng: random.Random) -> dict | None:
        t0 = time.perf_counter()
        try:
            return self.policy(view, legal, rng)
        finally:
            self.seconds.append(time.perf_counter() - t0)


#: Filthy Rich's own targets (issue 26: the seat-filler must beat the greedy rush).
RUSH_TARGETS = {"head_to_head": 0.60}


def _greedy_rows(title: str, n: int, games: int, seed: int, current: Policy) -> list[Row]:
    """The seat-filler against the greedy baseline (bench/greedy.py): (a) one seat-filler among
    greedy seats, (b) one greedy seat among seat-fillers, (c) head to head at two players."""
    greedy = Greedy(title)
    subject, fair = f"{title} {n}p", 1 / n
    aside = f"fair {100 * fair:.0f}%"
    share, _ = duel(title, n, games, current, greedy, seed + 10_000)
    rows = [Row("ai", subject, "(a) 1 seat-filler among greedy: firsts", 100 * share, None, "%", games,
                f">={300 * fair:.0f}% ({aside} x3)", share >= 3 * fair - 1e-9)]
    share, _ = duel(title, n, games, greedy, current, seed + 20_000)
    rows.append(Row("ai", subject, "(b) 1 greedy among seat-fillers: firsts", 100 * share, None, "%", games,
                    f"<={50 * fair:.0f}% ({aside} /2)", share <= fair / 2 + 1e-9))
    share, _ = duel(title, 2, games, current, greedy, seed + 30_000)
    want = RUSH_TARGETS["head_to_head"] if title == "filthyrich" else None
    rows.append(Row("ai", f"{title} 2p", "(c) seat-filler vs greedy, 2 players: wins", 100 * share, None, "%", games,
                    f">={100 * want:.0f}% (fair 50%)" if want else "fair 50%",
                    None if want is None else share >= want - 1e-9))
    return rows


def _friendly_rows(title: str, games: int, seed: int, game: Game) -> list[Row]:
    """(e) the friendly level against the strong one head to head, and its decision time."""
    friendly = Timed(_at_level(game, "friendly"))
    share, _ = duel(title, 2, games, friendly, game.ai_action, seed + 40_000)
    return [Row("ai", f"{title} 2p", "(e) friendly vs strong, 2 players: friendly's wins", 100 * share, None, "%",
                games, "<50% (weaker)", share < 0.5),
            dist_row("ai", f"{title} 2p", "seat-filler decision (friendly)", friendly.seconds, p99_max=50)]


def _previous_rows(title: str, n: int, games: int, seed: int, current: Policy, prev: str | None,
                   log: Callable[[str], None] | None) -> list[Row]:
    """ONE seat-filler against the previous seat-filler from git on every other seat."""
    if prev == "none":
        return []
    subject, fair = f"{title} {n}p", f"fair {100 / n:.0f}%"
    rev = prev if prev is not None else previous_rev(title)
    if not rev:
        if log:
            log(f"# ai: {title}: no previous seat-filler in git history")
        return []
    try:
        old = load_previous(title, rev)
        share, against = duel(title, n, games, current, old.choose, seed + 50_000)
    except Exception as exc:  # noqa: BLE001 - an old file that no longer loads is a fact to print, not a crash
        if log:
            log(f"# ai: {title}: the previous seat-filler at {rev[:8]} does not load: {exc!r}")
        return []
    rows = [Row("ai", subject, f"win share vs previous AI ({rev[:8]})", 100 * share, None, "%", games, fair, None)]
    # A previous seat-filler written for older rules may never finish a game (E-Wars' dispatch
    # confirm): an unended game is no win, so say how many there were.
    unended = sum(1 for r in against if r.places is None)
    if unended:
        rows.append(Row("ai", subject, "games vs previous AI not ended", unended, None, "games", games))
    return rows


def _selfplay_rows(title: str, n: int, games: int, seed: int, current: Policy,
                   log: Callable[[str], None] | None) -> list[Row]:
    subject = f"{title} {n}p"
    selfplay = [play(title, [current] * n, seed + 100_000 + k) for k in range(games)]
    ended = [r for r in selfplay if r.places is not None]
    rows = [Row("ai", subject, "all-AI game length", _mean([r.actions for r in selfplay]), None, "actions", games)]
    rounds = [r.rounds for r in ended if isinstance(r.rounds, int)]
    if rounds:
        rows.append(Row("ai", subject, "all-AI game length", _mean(rounds), None, "rounds", len(rounds)))
    if title == "filthyrich":
        outs = [len(r.eliminated) for r in selfplay]
        rows.append(Row("ai", subject, "eliminations per all-AI game", _mean(outs), None, "seats", games,
                        "<0.3", _mean(outs) < 0.3))
        causes = Counter(c for r in selfplay for c in r.causes)
        if causes and log:
            log(f"# ai: {title}: causes of all-AI eliminations: "
                + ", ".join(f"{k} {v}" for k, v in causes.most_common()))
    return rows


def run(titles: tuple[str, ...], games: int, *, seed: int = 7, prev: str | None = None,
        log: Callable[[str], None] | None = None, level: str = "strong") -> list[Row]:
    """Every figure of the module note for each title; `prev="none"` skips the previous
    seat-filler, `level` picks the seat-filler's strength (engine/core.py)."""
    rows: list[Row] = []
    for title in titles:
        game = engine.get(title)
        n = MAX_PLAYERS.get(title, game.max_players)
        subject = f"{title} {n}p"
        current = Timed(_at_level(game, level))
        rows += _greedy_rows(title, n, games, seed, current)
        share, results = duel(title, n, games, current, random_policy, seed)
        rows.append(Row("ai", subject, "(d) 1 seat-filler among random: firsts", 100 * share, None, "%", games,
                        f"fair {100 / n:.0f}%", None))
        unfinished = sum(1 for r in results if r.places is None)
        if unfinished:
            rows.append(Row("ai", subject, "games vs random not ended", unfinished, None, "games", games))
        rows += _friendly_rows(title, games, seed, game)
        rows += _previous_rows(title, n, games, seed, current, prev, log)
        rows += _selfplay_rows(title, n, games, seed, current, log)
        rows.append(dist_row("ai", subject, f"seat-filler decision ({level})", current.seconds, p99_max=50))
    return rows


def _at_level(game: Game, level: str) -> Policy:
    if level == "strong":
        return game.ai_action
    return functools.partial(game.ai_action, level=level)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - a convenience for one title
    import argparse

    from bench.common import table

    parser = argparse.ArgumentParser(prog="python -m bench.ai")
    parser.add_argument("titles", nargs="*", default=list(MAX_PLAYERS))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--prev", default=None, help='git rev of the previous seat-filler, or "none"')
    parser.add_argument("--level", default="strong", choices=("strong", "friendly"))
    args = parser.parse_args(argv)
    print(table(run(tuple(args.titles), args.games, prev=args.prev, log=print, level=args.level)))


if __name__ == "__main__":  # pragma: no cover
    main()


__all__ = ["Timed", "duel", "load_previous", "play", "previous_rev", "random_policy", "run"]

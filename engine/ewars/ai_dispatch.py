"""The seat-filler's dispatch by sampling: which employee to send where, judged by playing the
contract out (contract.resolve and contract.acquire, the rules' own code) against rival ranks
drawn from what each rival can still hold (its nine less its public discards).

Why not a formula: a contract turns on order (an Executive removes a Manager before the
Manager's row fires; equal ranks act parent first) and on sandwiches that a removal opens or
breaks, and a per-card survival guess missed both; the greedy baseline, which sends random
ranks, was winning a third of four-player games against it. A few dozen contracts of at most
twelve employees take a few milliseconds.
"""

from __future__ import annotations

import random
from typing import Any

from .contract import acquire, resolve
from .data import MIX, RANKS
from .grid import parse

#: Rival rank draws per decision (the same draws for every candidate, so they compare alike).
SAMPLES = 24
#: A card a rival wins counts against us this much (a card kept from a rival is worth less to
#: us than one we win, as there are several rivals), by the rival's standing: the leading
#: rival's (most cards won, ties alike) as much as one of ours, as only its cards stand
#: between us and first place; each other rival's less. Every rival alike at 0.8 (and at 0.4
#: or 1.2) won 66-67 % of first places among three greedy seats; the leader at 1.0 and the
#: rest at 0.6, 70-71 % (600 seeded games each, issue 26).
RIVAL_WEIGHT = {"leader": 1.0, "other": 0.6}
#: What spending a rank costs now (it is gone until the hand comes back).
COST = {"star": 0.4, "executive": 0.25, "manager": 0.2, "section_chief": 0.2, "subsection_chief": 0.15, "staff": 0.0}


def ranks_left(view: dict[str, Any], seat: int) -> list[str]:
    """The ranks `seat` may send: its nine less its public discards (all nine when unknown)."""
    left = dict(MIX)
    for r in view["seats"][seat].get("discards") or ():
        left[r] = max(0, left.get(r, 0) - 1)
    pool = [r for r in RANKS for _ in range(left[r])]
    return pool or [r for r in RANKS for _ in range(MIX[r])]


def rival_weights(view: dict[str, Any]) -> list[float]:
    """Seat -> what a card it wins counts against us (RIVAL_WEIGHT; 0 for ourselves)."""
    me = view["me"]
    scores = [s["score"] for s in view["seats"]]
    top = max((x for s, x in enumerate(scores) if s != me), default=0)
    return [0.0 if s == me else RIVAL_WEIGHT["leader" if x == top else "other"] for s, x in enumerate(scores)]


def _draws(view: dict[str, Any], rivals: dict[int, int], rng: random.Random) -> list[dict[int, tuple[int, str]]]:
    """SAMPLES guesses of the rivals' face-down employees: per rival, ranks drawn without
    replacement from its pool (with, once a pool runs short: its pile comes back)."""
    by_seat: dict[int, list[int]] = {}
    for cell, seat in rivals.items():
        by_seat.setdefault(seat, []).append(cell)
    pools = {s: ranks_left(view, s) for s in by_seat}
    out = []
    for _ in range(SAMPLES):
        emps: dict[int, tuple[int, str]] = {}
        for s, cells in by_seat.items():
            pool = pools[s]
            ranks = rng.sample(pool, len(cells)) if len(pool) >= len(cells) else [rng.choice(pool) for _ in cells]
            for cell, r in zip(cells, ranks, strict=True):
                emps[cell] = (s, r)
        out.append(emps)
    return out


def worths(view: dict[str, Any], fresh: list[dict[str, Any]], rng: random.Random) -> list[tuple[dict[str, Any], float]]:
    """Each of `fresh` (dispatch actions for cells still without a pick) with what it brings
    over the sampled contracts: our cards won less a share of the rivals' (`rival_weights`).
    Our picks so far stand; our claims still without one hold a plain employee for now."""
    me, rows, cols, n = view["me"], view["rows"], view["cols"], len(view["seats"])
    parent = view["parent"]
    grid = view["grid"]
    has_card = [c is not None for c in grid]
    claims = {i: c["claim"] for i, c in enumerate(grid) if c is not None and c["claim"] is not None}
    rivals = {i: s for i, s in claims.items() if s != me}
    base = {parse(p["pos"], rows, cols): (me, p["rank"]) for p in (view.get("private") or {}).get("picks", [])}
    base.update({i: (me, "staff") for i, s in claims.items() if s == me and i not in base})
    draws = _draws(view, rivals, rng)
    weight = rival_weights(view)
    memo: dict[tuple[int, str], float] = {}
    out = []
    for a in fresh:
        cell, rank = parse(a.get("pos"), rows, cols), a.get("rank")
        if cell is None or rank not in COST:
            continue
        if (cell, rank) not in memo:
            total = 0.0
            for emps in draws:
                _, alive = resolve({**emps, **base, cell: (me, rank)}, parent, n, rows, cols)
                won = acquire(alive, has_card, parent, n, cols)
                ours = sum(1 for w in won.values() if w == me)
                total += ours - sum(weight[w] for w in won.values() if w != me)
            memo[(cell, rank)] = total / len(draws)
        out.append((a, memo[(cell, rank)]))
    return out


def dispatch(view: dict[str, Any], fresh: list[dict[str, Any]], rng: random.Random, noise: float) -> dict[str, Any]:
    """The best of `fresh` by `worths`, less the cost of the rank, plus up to `noise` of chance."""
    best, best_v = fresh[0], -1e9
    for a, worth in worths(view, fresh, rng):
        v = worth - COST[a["rank"]] + rng.random() * noise
        if v > best_v:
            best, best_v = a, v
    return best

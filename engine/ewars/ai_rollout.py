"""The seat-filler's dice-time choice by short rollouts: claim which card, claim or roll, roll
or ring, judged by playing the rest of the dice time forward a few dozen times.

Why: every dice-time choice before this was a static formula (a claim's worth, the rivals'
threat, `ai_claim.later`). A formula misses what a choice does to the race: a claim puts two
dice down, so the next roll throws four dice, not six, while a roll keeps six dice but gives
the rivals moves, and a bell ends everyone's chances, ours too. A rollout counts those.

The model, from the seat's own view (the dice are public; only future rolls are unseen, and
they are fair dice): each step a seat drawn at random moves. A rival claims a free card its
dice fit (at random among them), else rings with chance RING (always, with no dice left),
else rolls. We move by today's heuristic (ai.py): the card worth most by itself, else ring
once we hold a claim and may ring, else roll, within the live-race limits of issue 28. The
end of dice time is scored like a claim's worth (ai._worth): each of our claims a card, less
the rival employees expected to reach it (from the rival claims at the end), plus the cards
two of our claims sandwich, plus BLOCK of a rival sandwich our claim cuts, less RIVAL of each
rival claim (by `rival_weights`). Every candidate sees the same draws (common random
numbers), so the comparison is between the choices, not between the dice.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from .ai_dispatch import ranks_left, rival_weights
from .data import FILLER_RING_ALONE, FILLER_ROLLS_MAX, REACH, SIDES
from .grid import between, reach

#: Rollouts per decision (the same draws for every candidate).
K = 24
#: Steps per rollout at most: a dice time longer than this ends here as it stands.
HORIZON = 40
#: Rolls drawn per seat per rollout (beyond them a seat's dice repeat its last roll).
ROLLS = 12
#: A rival with dice and nothing to claim rings with this chance, else rolls. Not the bench's
#: rule only: half is also what the fifth and sixth rounds counted (3.4 bells a game per
#: greedy seat, claims at 0.77 per move).
RING = 0.5
#: A rival claim at the end counts against us this much, times the rival's weight.
RIVAL = 0.5
THREAT = 0.5
BLOCK = 0.5
FACES = tuple(range(1, SIDES + 1))


class Board:
    """What every rollout of one decision shares: the table, the rival threat maps, the draws."""

    def __init__(self, view: dict[str, Any], worth: Callable[[int], float], rng: random.Random) -> None:
        self.me, self.n = view["me"], len(view["seats"])
        self.rows, self.cols = view["rows"], view["cols"]
        grid = view["grid"]
        self.cards = [c is not None for c in grid]
        self.faces = {i: (c["faces"][0], c["faces"][1]) for i, c in enumerate(grid) if c is not None}
        self.claims = {i: c["claim"] for i, c in enumerate(grid) if c is not None and c["claim"] is not None}
        self.dice = [list(s["dice"]) for s in view["seats"]]
        self.acted = [bool(s.get("acted", True)) for s in view["seats"]]
        self.rolls = view["seats"][self.me]["rolls"]
        self.weight = rival_weights(view)
        self.worth = worth
        self.shares = {}
        for s in range(self.n):
            if s != self.me:
                left = Counter(ranks_left(view, s))
                total = sum(left.values())
                self.shares[s] = [(REACH[r], k / total) for r, k in left.items() if REACH[r] != "none"]
        self.thr: dict[tuple[int, int], list[float]] = {}
        draw = random.Random(rng.getrandbits(64))
        self.movers = [draw.choices(range(self.n), k=HORIZON) for _ in range(K)]
        self.chance = [[draw.random() for _ in range(HORIZON)] for _ in range(K)]
        flat = draw.choices(FACES, k=K * self.n * ROLLS * 6)
        self.rolled = [[[flat[((k * self.n + s) * ROLLS + r) * 6:][:6] for r in range(ROLLS)]
                        for s in range(self.n)] for k in range(K)]
        self.fit_memo: dict[tuple[int, ...], list[int]] = {}

    def fitting(self, dice: list[int]) -> list[int]:
        """The cards (claimed or not) these dice fit: the same few dice come back often."""
        key = tuple(sorted(dice))
        if key not in self.fit_memo:
            self.fit_memo[key] = [i for i, f in self.faces.items() if _fits(dice, f) is not None]
        return self.fit_memo[key]

    def threat_from(self, seat: int, j: int) -> list[float]:
        """Cell -> rival employees of `seat` on cell j expected to reach it (ai_claim.threat)."""
        key = (seat, j)
        if key not in self.thr:
            out = [0.0] * (self.rows * self.cols)
            for kind, share in self.shares[seat]:
                for x in reach(kind, j, self.rows, self.cols):
                    out[x] += share
            self.thr[key] = out
        return self.thr[key]


def _fits(dice: list[int], faces: tuple[int, int]) -> list[int] | None:
    a, b = faces
    if a == b:
        if dice.count(a) < 2:
            return None
    elif a not in dice or b not in dice:
        return None
    left = list(dice)
    left.remove(a)
    left.remove(b)
    return left


def score(b: Board, claims: dict[int, int]) -> float:
    """The end of dice time as the heuristic values a claim (see the module note)."""
    me = b.me
    ours = [i for i, s in claims.items() if s == me]
    rivals = [(j, s) for j, s in claims.items() if s != me]
    v = -RIVAL * sum(b.weight[s] for _, s in rivals)
    if not ours:
        return v
    thr = [0.0] * len(b.cards)
    for j, s in rivals:
        for x, t in enumerate(b.threat_from(s, j)):
            thr[x] += t
    for a, i in enumerate(ours):
        v += 1 - THREAT * thr[i]
        for k in ours[a + 1:]:
            btw = between(i, k, b.cols)
            if btw and all(claims.get(x, me) == me for x in btw):
                v += sum(1 for x in btw if b.cards[x])
    for a, (j, s) in enumerate(rivals):
        for k, t in rivals[a + 1:]:
            btw = between(j, k, b.cols) if t == s else None
            if not btw:
                continue
            cut = [x for x in btw if claims.get(x, s) != s]
            if len(cut) == 1 and claims[cut[0]] == me:
                v += BLOCK * sum(1 for x in btw if b.cards[x] and x != cut[0])
    return v


def _our_move(b: Board, claims: dict[int, int], dice: list[int], rolls: int, acted: list[bool]) -> Any:
    """Today's heuristic, cheaply: the fitting card worth most, else ring or roll (ai._dice)."""
    best, best_v = None, -1e9
    for i in b.fitting(dice):
        if i not in claims and b.worth(i) > best_v:
            best, best_v = i, b.worth(i)
    if best is not None:
        return best
    if not dice:
        return "ring"
    if not (all(acted) or rolls >= FILLER_RING_ALONE):
        return "roll"
    if rolls >= FILLER_ROLLS_MAX or any(s == b.me for s in claims.values()) or rolls >= 10:
        return "ring"
    return "roll"


def _rival_move(b: Board, claims: dict[int, int], dice: list[int], u: float) -> Any:
    fits = [i for i in b.fitting(dice) if i not in claims]
    if fits:
        return fits[int(u * len(fits))]
    if not dice or u < RING:
        return "ring"
    return "roll"


def rollout(b: Board, k: int, first: Any) -> float:
    """Play dice time forward from our move `first` (a cell, "roll" or "ring") in draw set k."""
    claims = dict(b.claims)
    dice = [list(d) for d in b.dice]
    acted = list(b.acted)
    used = [0] * b.n
    rolls = b.rolls
    move, seat = first, b.me
    for t in range(HORIZON + 1):
        if move == "ring":
            break
        acted[seat] = True
        if move == "roll":
            dice[seat] = b.rolled[k][seat][min(used[seat], ROLLS - 1)][:len(dice[seat])]
            used[seat] += 1
            rolls += seat == b.me
        else:
            claims[move] = seat
            dice[seat] = _fits(dice[seat], b.faces[move]) or []
        if t == HORIZON:
            break
        seat = b.movers[k][t]
        if seat == b.me:
            move = _our_move(b, claims, dice[seat], rolls, acted)
        else:
            move = _rival_move(b, claims, dice[seat], b.chance[k][t])
    return score(b, claims)


def choose(view: dict[str, Any], options: list[tuple[Any, dict[str, Any]]], worth: Callable[[int], float],
           rng: random.Random) -> dict[str, Any]:
    """The option (our first move: a cell, "roll" or "ring", with its action) whose rollouts
    score best on average; the first listed on a tie."""
    b = Board(view, worth, rng)
    best, best_v = options[0][1], -1e9
    for first, action in options:
        v = sum(rollout(b, k, first) for k in range(K)) / K
        if v > best_v + 1e-9:
            best, best_v = action, v
    return best

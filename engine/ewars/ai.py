"""The seat-filling AI: one action per call, from the seat's view and legal list only.

The bot calls it on a timer during dice time, so each call returns one small step: roll,
claim, ring, or (in a slow game, see below) wait. Heuristics (a dispatch pick takes a few
milliseconds, every other decision well under one):
  - dice time: claim the card worth most (itself, plus the cards it would sandwich with our
    claims, plus half the cards of a rival sandwich it would cut, minus the rival employees
    expected to reach it by the ranks each rival has left, from the rivals' claims and from
    the free cards their dice fit now, plus what the dice left over can
    still claim without a roll, counting less the cards a rival's dice fit: ai_claim.py, so
    a contested card goes first); ring
    once all our dice are down, or as soon as it holds a claim and has nothing to claim now
    (a rival's claim wins less than ours, and rolling on gives three rivals their tries for
    each of ours), or after ten fruitless rolls; else roll. It plays a live race at a
    person's pace (issue 28: it
    won 56-0 against a person): the house spaces its moves (`Game.ai_gap`), it rings only once
    every seat has had a go (`_may_ring`), and it never rolls more often in one dice time than
    a person would (data.json "seat_filler"). Only in a live game: once a slow game's minimum
    time is over, it has waited for people already (hours, not a few rolls) and its rolls
    there are not spaced;
  - dispatch (ai_dispatch.py): each (claimed card, rank) pair is judged by playing the
    contract out against rival ranks sampled from their public discards: our cards won less
    a share of the rivals' (the leading rival's counting most), minus a small cost for spending a strong rank that would
    otherwise stay in hand. Picks go to cards still without one, then the seat confirms (it
    never reconsiders, so it always finishes its dispatch).

A slow game (view "pace" == "slow") must not be a race that a seat-filler, always online,
wins against people who look in a few times a day: there it takes one short turn at the dice
(the rolls its live self would take before ringing), then waits; it rings only once every
person has rolled or run out of time (view "min_over"), never while someone still has time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.core import check_level

from . import ai_claim as _claim
from . import ai_dispatch as _mc
from .data import FILLER_RING_ALONE, FILLER_ROLLS_MAX
from .grid import between, parse

#: How much chance goes into each choice (a random bonus up to this, in cards): the strong level
#: only breaks near-ties; the friendly level often takes the second-best card or rank.
NOISE = {"strong": (0.1, 0.05), "friendly": (0.9, 0.6)}


def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
           level: str = "strong") -> dict[str, Any] | None:
    """The seat-filler's move (see the module note); the friendly level claims and dispatches
    with more chance in it (often the second-best card or rank), but still claims what it can,
    places every employee and confirms, so it never leaves a round unfinished."""
    claim_noise, rank_noise = NOISE[check_level(level)]
    if not legal:
        raise ValueError("no legal action")
    phase = view.get("phase")
    if phase == "dice":
        return _dice(view, legal, rng, claim_noise)
    if phase == "dispatch":
        return _dispatch(view, legal, rng, rank_noise)
    return legal[0]  # await_start: the parent rings


def _board(view: dict[str, Any]) -> tuple[int, int, list[bool], dict[int, int]]:
    rows, cols = view["rows"], view["cols"]
    cards = [c is not None for c in view["grid"]]
    claims = {i: c["claim"] for i, c in enumerate(view["grid"]) if c is not None and c["claim"] is not None}
    return rows, cols, cards, claims


def _sandwich(i: int, me: int, cols: int, cards: list[bool], claims: dict[int, int], extra: tuple[int, ...] = ()) -> int:
    """Cards between cell i and each of our claims, on lines no rival claim blocks."""
    total = 0
    for j, s in list(claims.items()) + [(x, me) for x in extra]:
        if s != me or j == i:
            continue
        btw = between(i, j, cols)
        if not btw or any(claims.get(k, me) != me for k in btw):
            continue
        total += sum(1 for k in btw if cards[k])
    return total


#: What each rival employee expected to reach a card takes off a claim's worth (a reach is no
#: sure loss: our employee may be the star, or strike first; ai_claim.threat). Counting every rival claim in
#: line alike, whatever ranks that rival has left, won 61-64 % of first places among three
#: greedy seats; by the ranks left, 66-67 % (600 seeded games; 0.3-0.8 alike, 1.2 less).
THREAT = 0.5

#: What a card of a rival's sandwich cut by our claim is worth to us: our employee there must
#: survive to cut it, and the rival loses the card (a card kept from the leader counts).
BLOCK = 0.5


def _cut(i: int, me: int, cols: int, cards: list[bool], claims: dict[int, int]) -> int:
    """Cards of rival sandwiches (two claims of one rival with cell i between them) that a
    survivor of ours on i would keep from that rival."""
    total = 0
    rival = [(j, s) for j, s in claims.items() if s != me]
    for a, (j, s) in enumerate(rival):
        for k, t in rival[a + 1:]:
            if t != s:
                continue
            btw = between(j, k, cols)
            if btw and i in btw and all(claims.get(x, s) == s for x in btw if x != i):
                total += sum(1 for x in btw if cards[x] and x != i)
    return total


def _worth(view: dict[str, Any]) -> Callable[[int], float]:
    """Cell -> what a claim there is worth by itself: the card, the cards it would sandwich
    with our claims, half the cards of a rival sandwich it would cut, less the rival employees
    expected to reach it (ai_claim.threat: by the ranks each rival can still send)."""
    me = view["me"]
    _rows, cols, cards, claims = _board(view)
    memo: dict[int, float] = {}
    threat = _claim.threat(view)

    def worth(i: int) -> float:
        if i not in memo:
            memo[i] = (1 + _sandwich(i, me, cols, cards, claims) + BLOCK * _cut(i, me, cols, cards, claims)
                       - THREAT * threat.get(i, 0.0))
        return memo[i]
    return worth


def _best_claim(view: dict[str, Any], claims: list[dict[str, Any]], rng: random.Random,
                noise: float) -> dict[str, Any] | None:
    """The claim worth most now, counting what our other dice can still claim after it and
    which of those cards a rival may take first (ai_claim.plan)."""
    rows, cols = view["rows"], view["cols"]
    cells = {parse(a["pos"], rows, cols): a for a in claims}
    cells.pop(None, None)
    worths = _claim.plan(view, list(cells), _worth(view))
    best, best_v = None, -1e9
    for i, a in cells.items():
        if i in worths:
            v = worths[i] + rng.random() * noise
            if v > best_v:
                best, best_v = a, v
    return best


def _dice(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
          noise: float = 0.1) -> dict[str, Any] | None:
    if view.get("pace") == "slow" and not view.get("min_over", True):
        return _slow_dice(view, legal, rng, noise)
    me = view["me"]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    ring = by_type.get("ring_bell", [{"type": "ring_bell"}])[0]
    if by_type.get("claim"):
        best = _best_claim(view, by_type["claim"], rng, noise)
        if best is not None:
            return best
    seat = view["seats"][me]
    mine = len(seat["claims"])
    rolls = seat["rolls"]
    if "roll" not in by_type:
        return ring  # every die is down: a person would ring too
    if view.get("pace") != "slow":  # a live race; a slow game's minimum time waited for people
        if not _may_ring(view, rolls):
            return by_type["roll"][0]
        if rolls >= FILLER_ROLLS_MAX:
            return ring  # as many rolls as a person makes in one dice time
    if mine:
        # A claim in hand, nothing to claim now, everyone has had a go: stop, whether ahead or
        # behind. Rolling on gives every rival as many tries as us, and a claim of ours wins
        # about a card where a rival's wins two thirds of one (issue 26: it rolled on one claim
        # behind, and one seat-filler among three greedy seats won 56-57 % of first places;
        # ringing, 64-66 % over the same 600 seeded games, with the later claims counted).
        return ring
    if rolls >= 10:
        return ring  # nothing comes: at least take the parent's priority
    return by_type["roll"][0]


def _may_ring(view: dict[str, Any], rolls: int) -> bool:
    """A person rings once the others have had their go at the dice: every seat has rolled or
    claimed; or, when someone has not (a person who looked away), after a few rolls of its own,
    which at its pace (`Game.ai_gap`) is a person's wait. Its moves are spaced in time, so its
    roll count is its clock."""
    return all(s.get("acted", True) for s in view["seats"]) or rolls >= FILLER_RING_ALONE


def _slow_dice(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
               noise: float = 0.1) -> dict[str, Any] | None:
    """Before the minimum time of a slow game: claim what the dice allow, roll as long as its
    live self would before ringing (fewer rolls once it holds claims), then wait. It always
    acts while the bell waits for it (it is in `to_act`), and never rings."""
    me = view["me"]
    options = [a for a in legal if a["type"] != "ring_bell"]
    if any(a["type"] == "claim" for a in options):
        return _dice(dict(view, pace="live"), options, rng, noise)
    mine = len(view["seats"][me]["claims"])
    budget = 3 + 2 * mine if mine else 10
    roll = next((a for a in options if a["type"] == "roll"), None)
    if roll is not None and (me in view.get("to_act", []) or view["seats"][me]["rolls"] < budget):
        return roll
    return None


def _dispatch(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
              noise: float = 0.05) -> dict[str, Any]:
    """One pick at a time (ai_dispatch: the contract played out against sampled rival ranks),
    then confirm: it never reconsiders a pick, so it always finishes its dispatch."""
    picked = {p["pos"] for p in (view.get("private") or {}).get("picks", [])}
    fresh = [a for a in legal if a["type"] == "dispatch" and a["pos"] not in picked]
    if not fresh:
        return next((a for a in legal if a["type"] == "confirm"), legal[0])
    return _mc.dispatch(view, fresh, rng, noise)

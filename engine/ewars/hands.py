"""A seat's employees during dispatch: tentative picks, the refill rule, and confirming.

The refill (rulebook 【獲得フェイズ】: 「派遣フェイズのときに、手札が1枚も無くなった段階で
すべての自分の捨て札の社員カードを、手札に戻します」; issue 14 #8): the moment a placement
empties the hand, the whole discard pile comes back to hand. The employee just placed is on the
table, so it does not come back with the others, and a seat whose last placement of a round
emptied its hand starts the next round holding the pile that came back, never an empty hand.

Picks: in dispatch a seat chooses an employee for each of its claimed cards tentatively
(`state["picks"]`, as secret as its hand), may change or take back a choice, and confirms.
Only confirming puts the employees on the table (`state["emps"]`) and moves cards between hand
and discard pile; until then the state keeps the hand and pile as they were, and `split`
derives what the seat would hold after its picks.

Within one seat the order of its own face-down placements is invisible to everyone and changes
nothing but that seat's refill, so picks are a multiset P. From hand H and discard pile D,
P can be placed one by one iff P is part of H (the hand runs out exactly when P = H: the pile
comes back afterwards), or P holds all of H and the rest, P - H, comes from D (the hand ran out
on the way and the pile came back in time).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .data import LOW_TO_HIGH, RANK_INDEX, rank_of

Pick = tuple[int, str]  # (cell index, rank)


@dataclass
class Split:
    """What placing a seat's picks does: the employee id sent to each cell, the hand and
    discard pile afterwards, and how many employees came back from the pile (0: none)."""

    assigned: dict[int, str]
    hand: list[str]
    discards: list[str]
    refilled: int


def owed(state: dict[str, Any], seat: int) -> list[int]:
    """The seat's claimed cards still without a confirmed employee (dispatch)."""
    emps = state["emps"]
    return [i for i, s in enumerate(state["claims"]) if s == seat and emps[i] is None]


def picks_of(state: dict[str, Any], seat: int) -> list[Pick]:
    """The seat's tentative picks in the order made (states saved before picks existed have
    none)."""
    picks = state.get("picks")
    if not picks:
        return []
    return [(int(c), str(r)) for c, r in picks[seat]]


def set_picks(state: dict[str, Any], seat: int, picks: list[Pick]) -> None:
    if not state.get("picks"):
        state["picks"] = [[] for _ in range(state["n"])]
    state["picks"][seat] = [[c, r] for c, r in picks]


def fits(need: Counter, have: Counter, pile: Counter) -> bool:
    """Can picks of these ranks be placed from a hand and pile of these ranks?"""
    return need <= have or (have <= need and need - have <= pile)


def split(hand: list[str], discards: list[str], picks: list[Pick]) -> Split | None:
    """Place `picks` from `hand`, the pile coming back the moment the hand runs out; None when
    the picks cannot all be placed."""
    need = Counter(r for _, r in picks)
    have = Counter(rank_of(e) for e in hand)
    if need <= have:
        left = list(hand)
        assigned = {}
        for cell, rank in picks:
            emp = next(e for e in left if rank_of(e) == rank)
            left.remove(emp)
            assigned[cell] = emp
        if left:
            return Split(assigned, left, list(discards), 0)
        return Split(assigned, list(discards), [], len(discards))
    if not have <= need or not need - have <= Counter(rank_of(e) for e in discards):
        return None
    # The hand runs out on the way: each rank's first picks use the hand's copies, the rest
    # come from the pile that returned.
    left, pile = list(hand), list(discards)
    assigned = {}
    for cell, rank in picks:
        source = left if any(rank_of(e) == rank for e in left) else pile
        emp = next(e for e in source if rank_of(e) == rank)
        source.remove(emp)
        assigned[cell] = emp
    return Split(assigned, pile, [], len(discards))


def after_picks(state: dict[str, Any], seat: int, picks: list[Pick] | None = None) -> Split | None:
    picks = picks_of(state, seat) if picks is None else picks
    return split(state["hands"][seat], state["discards"][seat], picks)


def ranks_of(ids: list[str]) -> list[str]:
    """Ranks of employee ids, strongest first."""
    return sorted((rank_of(e) for e in ids), key=RANK_INDEX.__getitem__)


def choices(state: dict[str, Any], seat: int, cell: int) -> list[str]:
    """The ranks the seat may pick for `cell` now, given its other picks (strongest first),
    the current pick included."""
    need = Counter(r for c, r in picks_of(state, seat) if c != cell)
    have = Counter(rank_of(e) for e in state["hands"][seat])
    pile = Counter(rank_of(e) for e in state["discards"][seat])
    out = []
    for rank in sorted(have | pile, key=RANK_INDEX.__getitem__):
        need[rank] += 1
        if fits(need, have, pile):
            out.append(rank)
        need[rank] -= 1
    return out


def pick(state: dict[str, Any], seat: int, cell: int, rank: str) -> bool:
    """Choose (or change) the employee for `cell`. False when the hand cannot pay for it."""
    picks = picks_of(state, seat)
    new = [(c, rank if c == cell else r) for c, r in picks]
    if all(c != cell for c, _ in picks):
        new.append((cell, rank))
    if after_picks(state, seat, new) is None:
        return False
    set_picks(state, seat, new)
    return True


def withdraw(state: dict[str, Any], seat: int, cell: int) -> list[int]:
    """Take back the pick on `cell`. Picks that only the returning pile paid for go back too
    (taking an employee back means the hand did not run out after all). Returns every cell
    whose pick was taken back."""
    rest = [p for p in picks_of(state, seat) if p[0] != cell]
    back = [cell]
    if after_picks(state, seat, rest) is None:
        pool = Counter(rank_of(e) for e in state["hands"][seat])
        kept = []
        for c, r in rest:
            if pool[r] > 0:
                pool[r] -= 1
                kept.append((c, r))
            else:
                back.append(c)
        rest = kept
    set_picks(state, seat, rest)
    return back


def lowest_pick(state: dict[str, Any], seat: int, cell: int) -> str:
    """The lowest rank the seat can still send to `cell` (a missed deadline's default)."""
    ranks = choices(state, seat, cell)
    return min(ranks, key=LOW_TO_HIGH.index)


def confirm(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Put the seat's picks on the table for good: the employees go face down, the hand and
    pile become what the picks leave (the pile comes back if the hand ran out)."""
    picks = picks_of(state, seat)
    result = after_picks(state, seat, picks)
    assert result is not None, "picks are checked when made"
    for cell, emp in result.assigned.items():
        state["emps"][cell] = [seat, emp]
    state["hands"][seat] = result.hand
    state["discards"][seat] = result.discards
    set_picks(state, seat, [])
    events: list[dict[str, Any]] = [{"type": "confirmed", "seat": seat, "count": len(picks)}]
    if result.refilled:
        events.append({"type": "hand_refilled", "seat": seat, "count": result.refilled})
    return events


def refill_if_empty(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """A seat that owes a placement with an empty hand takes its pile back first. Under the
    rule above a hand is never empty at the start of dispatch; this serves games saved under
    the earlier reading, whose hands could stay empty until the next placement."""
    if state["hands"][seat] or not owed(state, seat):
        return []
    back = state["discards"][seat]
    state["hands"][seat] = back
    state["discards"][seat] = []
    return [{"type": "hand_refilled", "seat": seat, "count": len(back)}]

"""Dice time (営業フェイズ): what a seat's dice can claim, and when the bell may end it.

A live table races, as the rulebook has it: anyone may ring at any time (「いつでも」「誰でも」).
In a slow game (the house option `pace` is "slow": played over hours, people not online at the
same moment) that race would go to whoever happens to be awake when dice time starts, so the end
bell stays locked until every seat has taken part (rolled or claimed at least once) or run out of
time (the timer kind `dice_min`: each person's own time, which lapses seat by seat). Then the
minimum is over (`min_over`) and anyone may ring, seat-fillers too (see ai.py): dice time ends
when every person has rolled or used their time, never by a seat-filler rolling for a sleeper.
"""

from __future__ import annotations

from typing import Any

from .contract import priority
from .data import SIDES


def claimable(state: dict[str, Any], seat: int) -> list[int]:
    """Cells the seat could claim now with its unplaced dice (cheap: the live panel asks
    for this every few seconds during dice time)."""
    dice = state["dice"][seat]
    if len(dice) < 2:
        return []
    count = [0] * (SIDES + 1)
    for d in dice:
        count[d] += 1
    out = []
    claims = state["claims"]
    for i, card in enumerate(state["cells"]):
        if card is None or claims[i] is not None:
            continue
        a, b = int(card[0]), int(card[1])
        if (count[a] >= 2) if a == b else (count[a] and count[b]):
            out.append(i)
    return out


def slow(state: dict[str, Any]) -> bool:
    """A slow game. Games saved before the option existed were live."""
    return state["opts"].get("pace", "live") == "slow"


def acted(state: dict[str, Any]) -> list[bool]:
    """Per seat: has it rolled or claimed in this dice time?"""
    got = state.get("acted")
    if got is None:  # saved before the flag existed: a roll or a claim shows it
        return [state["rolls"][s] > 0 or s in state["claims"] for s in range(state["n"])]
    return list(got)


def min_over(state: dict[str, Any]) -> bool:
    """Has the minimum dice time passed? Always, in a live game."""
    return not slow(state) or bool(state.get("min_over", True))


def bell_free(state: dict[str, Any]) -> bool:
    """May the end bell ring now?"""
    return min_over(state) or all(acted(state))


def yet_to_act(state: dict[str, Any]) -> list[int]:
    """While the minimum time runs, the seats that have not rolled or claimed yet, from the
    parent clockwise: they are the ones the slow bell waits for."""
    if min_over(state):
        return []
    done = acted(state)
    return [s for s in priority(state["parent"], state["n"]) if not done[s]]


def start(state: dict[str, Any]) -> None:
    """A new dice time: nobody has acted; the minimum time runs in a slow game."""
    state["acted"] = [False] * state["n"]
    state["min_over"] = not slow(state)


def took_part(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The seat rolled or claimed. When it was the last one the slow bell waited for, the bell
    is free from now on: say so."""
    was_free = bell_free(state)
    done = acted(state)
    done[seat] = True
    state["acted"] = done
    if not was_free and bell_free(state):
        state["min_over"] = True  # everyone has had their turn: the seat-fillers may ring too
        return [{"type": "bell_free", "seat": state["parent"]}]
    return []


def lapsed(state: dict[str, Any], seats: list[int]) -> list[dict[str, Any]]:
    """These seats' time ran out before they rolled: they took part with nothing."""
    was_free = bell_free(state)
    done = acted(state)
    for seat in seats:
        done[seat] = True
    state["acted"] = done
    events: list[dict[str, Any]] = [{"type": "dice_lapsed", "seats": sorted(seats), "count": len(seats)}]
    if not was_free and bell_free(state):
        state["min_over"] = True
        events.append({"type": "bell_free", "seat": state["parent"]})
    return events


def end_minimum(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The minimum dice time has passed (its timeout): anyone may ring, seat-fillers too."""
    state["min_over"] = True
    absent = [s for s, done in enumerate(acted(state)) if not done]
    return [{"type": "dice_min_over", "seats": absent, "count": len(absent)}]

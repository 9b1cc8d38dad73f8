"""The end of a round, once every claimed card holds a confirmed employee: the reveal, the
abilities, the acquisition (digest 6-7), the refill of the table (digest 8) and the end check.
Functions over the game state; the rules call `settle` from the action that covers the last
claimed card."""

from __future__ import annotations

from typing import Any

from .contract import acquire, priority, resolve
from .data import END_AT, POINTS_PER_CARD, faces, rank_of
from .grid import layout, names


def settle(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Reveal, abilities, acquisition, refill and the end check, in one go."""
    n, rows, cols, parent = state["n"], state["rows"], state["cols"], state["parent"]
    nm = names(rows, cols)
    cells = state["cells"]
    emps = {i: (e[0], rank_of(e[1])) for i, e in enumerate(state["emps"]) if e is not None}
    ids = {i: e[1] for i, e in enumerate(state["emps"]) if e is not None}
    events: list[dict[str, Any]] = [{
        "type": "revealed", "count": len(emps),
        "employees": [{"pos": nm[i], "seat": s, "rank": r} for i, (s, r) in sorted(emps.items())],
    }]
    steps, alive = resolve(emps, parent, n, rows, cols)
    for st in steps:
        if not st.removed:
            continue
        for j in st.removed:
            owner = emps[j][0]
            state["discards"][owner].append(ids[j])
        events.append({
            "type": "ability", "seat": st.seat, "pos": nm[st.index], "rank": st.rank,
            "reach": [nm[j] for j in st.reach], "removed": [nm[j] for j in st.removed],
            "seats": sorted({emps[j][0] for j in st.removed}),
        })
    won = acquire(alive, [c is not None for c in cells], parent, n, cols)
    state["last"] = {
        "round": state["round"], "parent": parent, "rows": rows, "cols": cols,
        "cells": [None if card is None else {
            "faces": list(faces(card)),
            "emp": None if i not in emps else {"seat": emps[i][0], "rank": emps[i][1], "removed": i not in alive},
            "won_by": won.get(i),
        } for i, card in enumerate(cells)],
        "steps": [{"seat": st.seat, "pos": nm[st.index], "rank": st.rank,
                   "reach": [nm[j] for j in st.reach], "removed": [nm[j] for j in st.removed]} for st in steps],
        "won": [sum(1 for w in won.values() if w == s) for s in range(n)],
    }
    any_won = False
    for s in priority(parent, n):
        mine = sorted(j for j, w in won.items() if w == s)
        if mine:
            any_won = True
            events.append({"type": "acquired", "seat": s, "count": len(mine), "cards": [nm[j] for j in mine]})
            state["scores"][s] += [cells[j] for j in mine]
    if not any_won:
        events.append({"type": "nothing_acquired"})
    for j in won:
        cells[j] = None
    for i, (s, _r) in alive.items():
        state["discards"][s].append(ids[i])
    state["emps"] = [None] * (rows * cols)
    state["claims"] = [None] * (rows * cols)
    events += refill_table(state)
    left = sum(1 for c in state["cells"] if c is not None)
    if left <= END_AT:
        state["phase"] = "over"
        top = max(len(p) for p in state["scores"])
        winners = [s for s in range(n) if len(state["scores"][s]) == top]
        events.append({"type": "game_over", "seats": winners, "count": top * POINTS_PER_CARD, "left": left})
        return events
    return events + next_round(state)


def refill_table(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Fill holes from the deck in reading order; once the deck cannot, compact the cards
    into the squarest grid, in the old reading order (digest 8)."""
    cells, deck = state["cells"], state["deck"]
    holes = [i for i, c in enumerate(cells) if c is None]
    events: list[dict[str, Any]] = []
    filled = 0
    for i in holes:
        if not deck:
            break
        cells[i] = deck.pop(0)
        filled += 1
    if filled:
        events.append({"type": "table_refilled", "count": filled, "deck": len(deck)})
    if None in cells:
        cards = [c for c in cells if c is not None]
        rows, cols = layout(len(cards))
        new = cards + [None] * (rows * cols - len(cards))
        if (rows, cols) != (state["rows"], state["cols"]) or new != cells:
            state["rows"], state["cols"], state["cells"] = rows, cols, new
            state["claims"] = [None] * (rows * cols)
            state["emps"] = [None] * (rows * cols)
            events.append({"type": "compacted", "rows": rows, "cols": cols, "count": len(cards)})
    return events


def next_round(state: dict[str, Any]) -> list[dict[str, Any]]:
    state["round"] += 1
    state["phase"] = "await_start"
    return [{"type": "next_round", "round": state["round"], "seat": state["parent"]}]

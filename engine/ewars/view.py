"""What a seat may see of an E-Wars game (`Game.view`): the public table for everyone, and under
"private" the viewer's own hand, picks and face-down ranks."""

from __future__ import annotations

from typing import Any

from . import dice as _dice
from . import hands as _hands
from .data import COLOURS, END_AT, POINTS_PER_CARD, RANK_INDEX, faces, rank_of
from .grid import names

TITLE = "ewars"


def view(state: dict[str, Any], seat: int | None, to_act: list[int]) -> dict[str, Any]:
    n, rows, cols, phase = state["n"], state["rows"], state["cols"], state["phase"]
    nm = names(rows, cols)
    public_discards = state["opts"].get("public_discards", True)
    grid = []
    for i, card in enumerate(state["cells"]):
        if card is None:
            grid.append(None)
            continue
        emp = state["emps"][i]
        grid.append({"pos": nm[i], "id": card, "faces": list(faces(card)), "claim": state["claims"][i],
                     "emp": None if emp is None else {"seat": emp[0]}})
    # Public hand sizes and discard piles are the confirmed ones: tentative picks are secret.
    acted = _dice.acted(state) if phase == "dice" else [False] * n
    seats = []
    for s in range(n):
        disc = state["discards"][s]
        seats.append({
            "colour": COLOURS[s],
            "dice": list(state["dice"][s]),
            "claims": [nm[i] for i, c in enumerate(state["claims"]) if c == s],
            "hand": len(state["hands"][s]),
            "discards": _hands.ranks_of(disc) if public_discards else None,
            "discard_count": len(disc),
            "score": len(state["scores"][s]) * POINTS_PER_CARD,
            "rolls": state["rolls"][s],
            "acted": acted[s],
            "owed": len(_hands.owed(state, s)) if phase == "dispatch" else 0,
        })
    over = phase == "over"
    out: dict[str, Any] = {
        "title": TITLE, "phase": phase, "me": seat, "over": over, "to_act": to_act,
        "round": state["round"], "parent": state["parent"], "rows": rows, "cols": cols, "grid": grid,
        "deck": len(state["deck"]), "seats": seats, "last": state["last"], "idle_rounds": state["idle"],
        "options": {"public_discards": public_discards}, "end_at": END_AT,
        # Dice time's bell: in a slow game it waits for `waiting` (seats yet to roll) or the
        # minimum time; seat-fillers wait for the minimum time itself.
        "pace": "slow" if _dice.slow(state) else "live",
        "bell_free": phase == "dice" and _dice.bell_free(state),
        "min_over": phase != "dice" or _dice.min_over(state),
        "waiting": _dice.yet_to_act(state) if phase == "dice" else [],
    }
    if over:
        top = max(s["score"] for s in seats)
        out["winners"] = [s for s in range(n) if seats[s]["score"] == top]
    if seat is not None and 0 <= seat < n:
        out["private"] = _private(state, seat, nm)
    return out


def _private(state: dict[str, Any], seat: int, nm: tuple[str, ...]) -> dict[str, Any]:
    phase = state["phase"]
    picks = _hands.picks_of(state, seat) if phase == "dispatch" else []
    after = _hands.after_picks(state, seat, picks) if picks else None
    hand = after.hand if after is not None else state["hands"][seat]
    discards = after.discards if after is not None else state["discards"][seat]
    hand = sorted(hand, key=lambda e: RANK_INDEX[rank_of(e)])
    return {
        # The hand and discards as they will be once the picks are confirmed (the pile comes
        # back if the picks empty the hand): what the seat can still choose from.
        "hand": [rank_of(e) for e in hand],
        "hand_ids": hand,
        "discards": _hands.ranks_of(discards),
        "placed": [{"pos": nm[i], "rank": rank_of(e[1]), "id": e[1]}
                   for i, e in enumerate(state["emps"]) if e is not None and e[0] == seat],
        "picks": [{"pos": nm[c], "rank": r} for c, r in sorted(picks)],
        "comes_back": after.refilled if after is not None else 0,
        "claimable": [nm[i] for i in _dice.claimable(state, seat)] if phase == "dice" else [],
        "owed": [nm[i] for i in _hands.owed(state, seat)] if phase == "dispatch" else [],
    }

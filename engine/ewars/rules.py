"""E-Wars: Real Estate Acquisition, the Game. See ../../docs/ENGINE.md for the contract and
/work/shared/rules/ewars.md for the rules digest this follows.

A round: `await_start` (the parent rings) -> `dice` (everyone rolls and claims at once, in
arrival order, until someone rings or the deadline passes) -> `dispatch` (every seat with
claims places face-down employees, all seats at once) -> the contract, acquisition and refill
run inside the action that covers the last claimed card -> the next `await_start`, or `over`.

Dispatch is concurrent (digest 5, "Secrecy"): a placement tells nobody anything, and each
seat's refill depends only on its own hand, so taking every seat's placements in parallel
gives the same table as going round from the parent; nobody waits for anyone.

Privacy: a seat's hand and the ranks of its face-down employees are its own. Dice, claims,
score piles, hand sizes and (option `public_discards`, default on) discards are public. The
deck's order is nobody's.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Chance, Game, OptionSpec, Outcome, RuleError, TimerKind, Window

from . import ai as _ai
from .contract import acquire, priority, resolve
from .data import (
    COLOURS,
    DICE,
    END_AT,
    LOW_TO_HIGH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POINTS_PER_CARD,
    RANK_INDEX,
    RANKS,
    ROWS,
    COLS,
    SIDES,
    card_ids,
    employee_ids,
    faces,
    rank_of,
)
from .grid import layout, names, parse

TITLE = "ewars"
PHASES = ("await_start", "dice", "dispatch", "over")


def _sorted_ranks(ids: list[str]) -> list[str]:
    return sorted((rank_of(e) for e in ids), key=RANK_INDEX.__getitem__)


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


def owed(state: dict[str, Any], seat: int) -> list[int]:
    """The seat's claimed cards still without an employee (dispatch)."""
    emps = state["emps"]
    return [i for i, s in enumerate(state["claims"]) if s == seat and emps[i] is None]


class EWars(Game):
    title = TITLE
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (OptionSpec("public_discards", "bool", True),)
    # start: the parent's wait before ringing; dice: dice time itself (0 = no deadline: only a
    # bell ends it, digest 9); dispatch: the face-down placements.
    timers = (TimerKind("start", 600, 86400), TimerKind("dice", 0, 0), TimerKind("dispatch", 600, 86400))

    # -- setup --------------------------------------------------------------------------------

    def _setup(self, seats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
        box = Chance.new(seed)
        ch = Chance(box)
        deck = card_ids()
        ch.shuffle(deck)
        cells = deck[: ROWS * COLS]
        deck = deck[ROWS * COLS:]
        return {
            "n": seats,
            "opts": dict(options),
            "chance": box,
            "phase": "await_start",
            "round": 1,
            "parent": ch.randint(0, seats - 1),
            "rows": ROWS,
            "cols": COLS,
            "cells": cells,
            "deck": deck,
            "claims": [None] * (ROWS * COLS),
            "emps": [None] * (ROWS * COLS),
            "dice": [[] for _ in range(seats)],
            "rolls": [0] * seats,
            "hands": [employee_ids(s) for s in range(seats)],
            "discards": [[] for _ in range(seats)],
            "scores": [[] for _ in range(seats)],
            "last": None,
            "idle": 0,
        }

    # -- legal --------------------------------------------------------------------------------

    def _legal(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        phase = state["phase"]
        if phase == "await_start":
            return [{"type": "ring_bell"}] if seat == state["parent"] else []
        if phase == "dice":
            cols = state["cols"]
            acts: list[dict[str, Any]] = []
            if state["dice"][seat]:
                acts.append({"type": "roll"})
            acts += [{"type": "claim", "pos": names(state["rows"], cols)[i]} for i in claimable(state, seat)]
            acts.append({"type": "ring_bell"})
            return acts
        if phase == "dispatch":
            cells = owed(state, seat)
            if not cells:
                return []
            ranks = sorted(set(rank_of(e) for e in state["hands"][seat]), key=RANK_INDEX.__getitem__)
            nm = names(state["rows"], state["cols"])
            return [{"type": "dispatch", "pos": nm[i], "rank": r} for i in cells for r in ranks]
        return []

    # -- apply --------------------------------------------------------------------------------

    def _apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["n"]:
            raise RuleError("core.error.not_allowed")
        kind = action["type"]
        if kind == "ring_bell":
            return self._ring(state, seat)
        if kind == "roll":
            return self._roll(state, seat)
        if kind == "claim":
            return self._claim(state, seat, action.get("pos"))
        if kind == "dispatch":
            return self._dispatch(state, seat, action.get("pos"), action.get("rank"))
        raise RuleError("core.error.bad_action")

    def _ring(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        phase = state["phase"]
        if phase == "await_start":
            if seat != state["parent"]:
                raise RuleError("only_parent_starts")
            return self._start_dice(state, "dice_time")
        if phase != "dice":
            raise RuleError("dice_time_over")
        state["parent"] = seat
        events = [{"type": "bell", "seat": seat, "round": state["round"]}]
        return events + self._end_dice(state)

    def _roll(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        self._in_dice(state)
        dice = state["dice"][seat]
        if not dice:
            raise RuleError("no_dice")
        state["dice"][seat] = Chance(state["chance"]).dice(len(dice), SIDES)
        state["rolls"][seat] += 1
        return [{"type": "rolled", "seat": seat, "dice": state["dice"][seat]}]

    def _claim(self, state: dict[str, Any], seat: int, pos: Any) -> list[dict[str, Any]]:
        self._in_dice(state)
        i = parse(pos, state["rows"], state["cols"])
        if i is None:
            raise RuleError("bad_pos")
        name = names(state["rows"], state["cols"])[i]
        card = state["cells"][i]
        if card is None:
            raise RuleError("no_card", pos=name)
        if state["claims"][i] is not None:
            raise RuleError("taken", pos=name)
        a, b = faces(card)
        dice = list(state["dice"][seat])
        for face in (a, b):
            if face not in dice:
                raise RuleError("no_match", pos=name, a=a, b=b)
            dice.remove(face)
        state["dice"][seat] = dice
        state["claims"][i] = seat
        return [{"type": "claimed", "seat": seat, "pos": name}]

    def _dispatch(self, state: dict[str, Any], seat: int, pos: Any, rank: Any) -> list[dict[str, Any]]:
        if state["phase"] != "dispatch":
            raise RuleError("not_dispatch")
        if not owed(state, seat):
            raise RuleError("nothing_to_place")
        i = parse(pos, state["rows"], state["cols"])
        if i is None:
            raise RuleError("bad_pos")
        name = names(state["rows"], state["cols"])[i]
        if state["claims"][i] != seat:
            raise RuleError("not_your_claim", pos=name)
        if state["emps"][i] is not None:
            raise RuleError("covered", pos=name)
        if not isinstance(rank, str) or rank not in RANKS:
            raise RuleError("bad_rank")
        hand = state["hands"][seat]
        emp = next((e for e in hand if rank_of(e) == rank), None)
        if emp is None:
            raise RuleError("not_in_hand", rank=rank)
        hand.remove(emp)
        state["emps"][i] = [seat, emp]
        events = [{"type": "placed", "seat": seat, "pos": name}]
        events += self._refill_hand(state, seat)
        return events + self._maybe_contract(state)

    # -- timeouts -----------------------------------------------------------------------------

    def _timeout(self, state: dict[str, Any], window_id: str) -> list[dict[str, Any]]:
        phase = state["phase"]
        if phase == "await_start":
            return self._start_dice(state, "dice_time_auto")
        if phase == "dice":
            return [{"type": "dice_timeout", "seat": state["parent"]}] + self._end_dice(state)
        # dispatch: every late seat's remaining claims in reading order, each with its lowest
        # rank in hand (digest 5, dispatch_limit_s).
        events: list[dict[str, Any]] = []
        nm = names(state["rows"], state["cols"])
        for seat in priority(state["parent"], state["n"]):
            cells = owed(state, seat)
            if not cells:
                continue
            for i in cells:
                events += self._refill_hand(state, seat)
                hand = state["hands"][seat]
                emp = min(hand, key=lambda e: LOW_TO_HIGH.index(rank_of(e)))
                hand.remove(emp)
                state["emps"][i] = [seat, emp]
            events.append({"type": "auto_placed", "seat": seat, "cards": [nm[i] for i in cells]})
            events += self._refill_hand(state, seat)
        return events + self._maybe_contract(state)

    # -- phase changes ------------------------------------------------------------------------

    def _in_dice(self, state: dict[str, Any]) -> None:
        if state["phase"] == "await_start":
            raise RuleError("dice_not_started")
        if state["phase"] != "dice":
            raise RuleError("dice_time_over")

    def _start_dice(self, state: dict[str, Any], event: str) -> list[dict[str, Any]]:
        ch = Chance(state["chance"])
        state["dice"] = [ch.dice(DICE, SIDES) for _ in range(state["n"])]
        state["rolls"] = [0] * state["n"]
        state["phase"] = "dice"
        return [{"type": event, "seat": state["parent"], "round": state["round"]}]

    def _end_dice(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Dice time is over: unplaced dice are picked up; then dispatch, or an empty round."""
        n = state["n"]
        state["dice"] = [[] for _ in range(n)]
        if all(c is None for c in state["claims"]):
            state["idle"] += 1
            return [{"type": "empty_round", "seat": state["parent"]}] + self._next_round(state)
        state["idle"] = 0
        state["phase"] = "dispatch"
        order = [s for s in priority(state["parent"], n) if owed(state, s)]
        events: list[dict[str, Any]] = [{"type": "dispatch_start", "seat": state["parent"], "seats": order}]
        for s in order:
            events += self._refill_hand(state, s)
        return events

    def _refill_hand(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        """A seat that must place with an empty hand takes its whole discard pile back first
        (digest 5, D2). Done as soon as it owes a placement, so its panel shows the hand."""
        if state["hands"][seat] or not owed(state, seat):
            return []
        back = state["discards"][seat]
        state["hands"][seat] = back
        state["discards"][seat] = []
        return [{"type": "hand_refilled", "seat": seat, "count": len(back)}]

    def _maybe_contract(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        if any(s is not None and state["emps"][i] is None for i, s in enumerate(state["claims"])):
            return []
        return self._contract(state)

    def _contract(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Reveal, abilities, acquisition, refill and the end check, in one go (digest 6-8)."""
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
        events += self._refill_table(state)
        left = sum(1 for c in state["cells"] if c is not None)
        if left <= END_AT:
            state["phase"] = "over"
            top = max(len(p) for p in state["scores"])
            winners = [s for s in range(n) if len(state["scores"][s]) == top]
            events.append({"type": "game_over", "seats": winners, "count": top * POINTS_PER_CARD, "left": left})
            return events
        return events + self._next_round(state)

    def _refill_table(self, state: dict[str, Any]) -> list[dict[str, Any]]:
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

    def _next_round(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        state["round"] += 1
        state["phase"] = "await_start"
        return [{"type": "next_round", "round": state["round"], "seat": state["parent"]}]

    # -- views and the rest of the contract ---------------------------------------------------

    def _view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        n, rows, cols = state["n"], state["rows"], state["cols"]
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
        seats = []
        for s in range(n):
            disc = state["discards"][s]
            seats.append({
                "colour": COLOURS[s],
                "dice": list(state["dice"][s]),
                "claims": [nm[i] for i, c in enumerate(state["claims"]) if c == s],
                "hand": len(state["hands"][s]),
                "discards": _sorted_ranks(disc) if public_discards else None,
                "discard_count": len(disc),
                "score": len(state["scores"][s]) * POINTS_PER_CARD,
                "rolls": state["rolls"][s],
                "owed": len(owed(state, s)) if state["phase"] == "dispatch" else 0,
            })
        over = state["phase"] == "over"
        view: dict[str, Any] = {
            "title": TITLE, "phase": state["phase"], "me": seat, "over": over, "to_act": self.to_act(state),
            "round": state["round"], "parent": state["parent"], "rows": rows, "cols": cols, "grid": grid,
            "deck": len(state["deck"]), "seats": seats, "last": state["last"], "idle_rounds": state["idle"],
            "options": {"public_discards": public_discards}, "end_at": END_AT,
        }
        if over:
            top = max(s["score"] for s in seats)
            view["winners"] = [s for s in range(n) if seats[s]["score"] == top]
        if seat is not None and 0 <= seat < n:
            hand = sorted(state["hands"][seat], key=lambda e: RANK_INDEX[rank_of(e)])
            view["private"] = {
                "hand": [rank_of(e) for e in hand],
                "hand_ids": hand,
                "placed": [{"pos": nm[i], "rank": rank_of(e[1]), "id": e[1]}
                           for i, e in enumerate(state["emps"]) if e is not None and e[0] == seat],
                "discards": _sorted_ranks(state["discards"][seat]),
                "claimable": [nm[i] for i in claimable(state, seat)] if state["phase"] == "dice" else [],
                "owed": [nm[i] for i in owed(state, seat)] if state["phase"] == "dispatch" else [],
            }
        return view

    def windows(self, state: dict[str, Any]) -> list[Window]:
        phase, rnd = state["phase"], state["round"]
        if phase == "await_start":
            return [Window(f"start:{rnd}", "start", (state["parent"],))]
        if phase == "dice":
            # Nobody owes an answer in dice time (anyone may act, nobody must), so a deadline
            # never makes the AI roll or ring for a late seat: the timeout just ends it.
            return [Window(f"dice:{rnd}", "dice", ())]
        if phase == "dispatch":
            late = tuple(s for s in priority(state["parent"], state["n"]) if owed(state, s))
            return [Window(f"dispatch:{rnd}", "dispatch", late)]
        return []

    def to_act(self, state: dict[str, Any]) -> list[int]:
        phase = state["phase"]
        if phase == "await_start":
            return [state["parent"]]
        if phase == "dice":
            return list(range(state["n"]))
        if phase == "dispatch":
            return [s for s in priority(state["parent"], state["n"]) if owed(state, s)]
        return []

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state["phase"] != "over":
            return None
        scores = [len(p) * POINTS_PER_CARD for p in state["scores"]]
        places = [1 + sum(1 for o in scores if o > s) for s in scores]
        return Outcome(places, [{"cards": s} for s in scores], "result")

    def ai_action(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        return _ai.choose(view, legal, rng)

    def secrets(self, state: dict[str, Any]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {"hidden": list(state["deck"])}
        for s in range(state["n"]):
            mine = list(state["hands"][s])
            mine += [e[1] for e in state["emps"] if e is not None and e[0] == s]
            if not state["opts"].get("public_discards", True):
                mine += state["discards"][s]
            out[str(s)] = mine
        return out


GAME = EWars()

"""E-Wars: Real Estate Acquisition, the Game. See ../../docs/ENGINE.md for the contract and
../shared/rules/ewars.md for the rules digest this follows.

A round: `await_start` (the parent rings) -> `dice` (everyone rolls and claims at once, in
arrival order, until someone rings or the deadline passes; in a slow game the end bell waits,
see dice.py) -> `dispatch` (every seat with claims picks a face-down employee for each claimed
card, may change its picks, and confirms; all seats at once) -> the contract, acquisition and
refill run inside the action that covers the last claimed card (settle.py) -> the next
`await_start`, or `over`.

Dispatch is concurrent (digest 5, "Secrecy"): a placement tells nobody anything, and each
seat's refill depends only on its own hand, so taking every seat's placements in parallel
gives the same table as going round from the parent; nobody waits for anyone.

Privacy: a seat's hand, its tentative picks and the ranks of its face-down employees are its
own. Dice, claims, score piles, hand sizes and (option `public_discards`, default on) discards
are public. The deck's order is nobody's.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Chance, Game, OptionSpec, Outcome, RuleError, TimerKind, Window

from . import ai as _ai
from . import dice as _dice
from . import hands as _hands
from .contract import priority
from .data import (COLS, DICE, FILLER_GAP, MAX_PLAYERS, MIN_PLAYERS, POINTS_PER_CARD, RANKS, ROWS, SIDES, card_ids,
                   employee_ids, faces)
from .dice import claimable
from .grid import names, parse
from .hands import owed
from .settle import next_round, settle
from .view import view

TITLE = "ewars"
PHASES = ("await_start", "dice", "dispatch", "over")

__all__ = ["EWars", "GAME", "claimable", "owed"]


class EWars(Game):
    title = TITLE
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (
        OptionSpec("public_discards", "bool", True),
        # Set by the house from the game's pace (never offered in the lobby): a slow game keeps
        # the end bell locked for a while (dice.py). Games saved without it are live.
        OptionSpec("pace", "choice", "live", choices=("live", "slow"), house=True),
    )
    timers = (
        # The parent's wait before ringing: a person is waited for, so a day when slow.
        TimerKind("start", 600, 24 * 3600),
        # Each person's time to take part in a slow game's dice time (a live game never opens
        # it). 12 h is its allowance; the bot adds the person's own minimum time to look and
        # their time bank, outside their quiet hours. When it runs out they simply miss this
        # dice time (`lapse`: nobody rolls for them), so nobody's absence locks the bell.
        TimerKind("dice_min", 120, 12 * 3600, lapse=True),
        # Dice time itself, counted once the bell is free and someone has rolled. Live: no
        # deadline (only a bell ends the race, digest 9). Slow: 12 h more after the minimum,
        # so a round's dice time lasts a day at most even if nobody remembers the bell.
        TimerKind("dice", 0, 12 * 3600),
        # The face-down placements: people are waited for, a day when slow.
        TimerKind("dispatch", 600, 24 * 3600),
    )

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
            "acted": [False] * seats,
            "min_over": True,
            "hands": [employee_ids(s) for s in range(seats)],
            "discards": [[] for _ in range(seats)],
            "picks": [[] for _ in range(seats)],
            "scores": [[] for _ in range(seats)],
            "last": None,
            "idle": 0,
        }

    # -- legal --------------------------------------------------------------------------------

    def _legal(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        phase = state["phase"]
        nm = names(state["rows"], state["cols"])
        if phase == "await_start":
            return [{"type": "ring_bell"}] if seat == state["parent"] else []
        if phase == "dice":
            acts: list[dict[str, Any]] = []
            if state["dice"][seat]:
                acts.append({"type": "roll"})
            acts += [{"type": "claim", "pos": nm[i]} for i in claimable(state, seat)]
            if _dice.bell_free(state):
                acts.append({"type": "ring_bell"})
            return acts
        if phase == "dispatch":
            cells = owed(state, seat)
            if not cells:
                return []
            current = dict(_hands.picks_of(state, seat))
            acts = [{"type": "dispatch", "pos": nm[i], "rank": r}
                    for i in cells for r in _hands.choices(state, seat, i) if current.get(i) != r]
            acts += [{"type": "withdraw", "pos": nm[i]} for i in cells if i in current]
            if all(i in current for i in cells):
                acts.append({"type": "confirm"})
            return acts
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
            return self._pick(state, seat, action.get("pos"), action.get("rank"))
        if kind == "withdraw":
            return self._withdraw(state, seat, action.get("pos"))
        if kind == "confirm":
            return self._confirm(state, seat)
        raise RuleError("core.error.bad_action")

    def _ring(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        phase = state["phase"]
        if phase == "await_start":
            if seat != state["parent"]:
                raise RuleError("only_parent_starts")
            return self._start_dice(state, "dice_time")
        if phase != "dice":
            raise RuleError("dice_time_over")
        if not _dice.bell_free(state):
            raise RuleError("bell_locked", count=len(_dice.yet_to_act(state)))
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
        return [{"type": "rolled", "seat": seat, "dice": state["dice"][seat]}] + _dice.took_part(state, seat)

    def _claim(self, state: dict[str, Any], seat: int, pos: Any) -> list[dict[str, Any]]:
        self._in_dice(state)
        i = self._cell(state, pos)
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
        return [{"type": "claimed", "seat": seat, "pos": name}] + _dice.took_part(state, seat)

    # -- dispatch: picks, changes, confirmation (hands.py) --------------------------------------

    def _my_cell(self, state: dict[str, Any], seat: int, pos: Any) -> int:
        """The cell `pos` names, checked to be one of the seat's claims still to cover."""
        if state["phase"] != "dispatch":
            raise RuleError("not_dispatch")
        if not owed(state, seat):
            raise RuleError("nothing_to_place")
        i = self._cell(state, pos)
        name = names(state["rows"], state["cols"])[i]
        if state["claims"][i] != seat:
            raise RuleError("not_your_claim", pos=name)
        if state["emps"][i] is not None:
            raise RuleError("covered", pos=name)
        return i

    def _pick(self, state: dict[str, Any], seat: int, pos: Any, rank: Any) -> list[dict[str, Any]]:
        i = self._my_cell(state, seat, pos)
        name = names(state["rows"], state["cols"])[i]
        if not isinstance(rank, str) or rank not in RANKS:
            raise RuleError("bad_rank")
        if dict(_hands.picks_of(state, seat)).get(i) == rank:
            raise RuleError("already_picked", pos=name, rank=rank)
        if not _hands.pick(state, seat, i, rank):
            raise RuleError("not_in_hand", rank=rank)
        # Only the seat itself hears which rank it chose: the pick is as secret as its hand.
        return [{"type": "picked", "seat": seat, "pos": name, "rank": rank, "to": [seat]}]

    def _withdraw(self, state: dict[str, Any], seat: int, pos: Any) -> list[dict[str, Any]]:
        i = self._my_cell(state, seat, pos)
        nm = names(state["rows"], state["cols"])
        if i not in dict(_hands.picks_of(state, seat)):
            raise RuleError("nothing_picked", pos=nm[i])
        back = _hands.withdraw(state, seat, i)
        return [{"type": "withdrawn", "seat": seat, "cards": [nm[c] for c in back], "count": len(back),
                 "to": [seat]}]

    def _confirm(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if state["phase"] != "dispatch":
            raise RuleError("not_dispatch")
        cells = owed(state, seat)
        if not cells:
            raise RuleError("nothing_to_place")
        picked = dict(_hands.picks_of(state, seat))
        missing = [i for i in cells if i not in picked]
        if missing:
            raise RuleError("picks_missing", count=len(missing))
        return self._confirmed(state, seat)

    def _confirmed(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        nm = names(state["rows"], state["cols"])
        cells = sorted(i for i, _ in _hands.picks_of(state, seat))
        events = _hands.confirm(state, seat)
        events[0]["cards"] = [nm[i] for i in cells]
        return events + self._maybe_settle(state)

    # -- timeouts -----------------------------------------------------------------------------

    def _lapse(self, state: dict[str, Any], window_id: str, seats: list[int]) -> list[dict[str, Any]]:
        """Slow dice time: these people's time ran out before they rolled. They took part with
        nothing, so the bell no longer waits for them."""
        if state["phase"] != "dice" or not window_id.startswith("dice_min:"):
            raise RuleError("core.error.bad_action")
        waiting = _dice.yet_to_act(state)
        if not set(seats) <= set(waiting):
            raise RuleError("core.error.stale_timeout")
        return _dice.lapsed(state, seats)

    def _timeout(self, state: dict[str, Any], window_id: str) -> list[dict[str, Any]]:
        phase = state["phase"]
        if phase == "await_start":
            return self._start_dice(state, "dice_time_auto")
        if phase == "dice":
            if window_id.startswith("dice_min:"):
                return _dice.end_minimum(state)
            return [{"type": "dice_timeout", "seat": state["parent"]}] + self._end_dice(state)
        # Dispatch: a late seat's picks stand as it left them (they are its own choices, only
        # the Confirm is missing, and replacing them would punish a player for one forgotten
        # click); each claimed card it left without a pick gets its lowest rank in hand, in
        # reading order (digest 5, dispatch_limit_s); then its dispatch is confirmed.
        events: list[dict[str, Any]] = []
        nm = names(state["rows"], state["cols"])
        for seat in priority(state["parent"], state["n"]):
            cells = owed(state, seat)
            if not cells:
                continue
            chosen = dict(_hands.picks_of(state, seat))
            filled = []
            for i in cells:
                if i not in chosen:
                    _hands.pick(state, seat, i, _hands.lowest_pick(state, seat, i))
                    filled.append(nm[i])
            if filled:
                events.append({"type": "auto_placed", "seat": seat, "cards": filled, "count": len(filled)})
            else:
                events.append({"type": "auto_confirmed", "seat": seat, "cards": [nm[i] for i in cells],
                               "count": len(cells)})
            events += _hands.confirm(state, seat)
        return events + self._maybe_settle(state)

    # -- phase changes ------------------------------------------------------------------------

    def _cell(self, state: dict[str, Any], pos: Any) -> int:
        i = parse(pos, state["rows"], state["cols"])
        if i is None:
            raise RuleError("bad_pos")
        return i

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
        _dice.start(state)
        return [{"type": event, "seat": state["parent"], "round": state["round"], "slow": _dice.slow(state)}]

    def _end_dice(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Dice time is over: unplaced dice are picked up; then dispatch, or an empty round."""
        n = state["n"]
        state["dice"] = [[] for _ in range(n)]
        if all(c is None for c in state["claims"]):
            state["idle"] += 1
            return [{"type": "empty_round", "seat": state["parent"]}] + next_round(state)
        state["idle"] = 0
        state["phase"] = "dispatch"
        state["picks"] = [[] for _ in range(n)]
        order = [s for s in priority(state["parent"], n) if owed(state, s)]
        events: list[dict[str, Any]] = [{"type": "dispatch_start", "seat": state["parent"], "seats": order,
                                         "count": len(order)}]
        for s in order:
            events += _hands.refill_if_empty(state, s)
        return events

    def _maybe_settle(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        if any(s is not None and state["emps"][i] is None for i, s in enumerate(state["claims"])):
            return []
        return settle(state)

    # -- views, windows and the rest of the contract --------------------------------------------

    def _view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return view(state, seat, self.to_act(state))

    def windows(self, state: dict[str, Any]) -> list[Window]:
        phase, rnd = state["phase"], state["round"]
        if phase == "await_start":
            return [Window(f"start:{rnd}", "start", (state["parent"],))]
        if phase == "dice":
            out = []
            if not _dice.min_over(state):
                # The slow bell's minimum time. It names the seats that have not rolled yet (they
                # are pinged and reminded); once all have, it stays open naming nobody, as a
                # pure timer: the seat-fillers still wait for its end before they ring.
                out.append(Window(f"dice_min:{rnd}", "dice_min", tuple(_dice.yet_to_act(state))))
            if _dice.bell_free(state) and any(_dice.acted(state)):
                # Dice time's own deadline, a pure timer: nobody owes a roll or the bell, so a
                # deadline never makes the AI play dice time for a late seat, it only ends it.
                # It opens only once someone took part: dice time that nobody plays waits for a
                # person instead of ending in empty round after empty round with nobody there.
                out.append(Window(f"dice:{rnd}", "dice", ()))
            return out
        if phase == "dispatch":
            return [Window(f"dispatch:{rnd}", "dispatch", tuple(self.to_act(state)))]
        return []

    def to_act(self, state: dict[str, Any]) -> list[int]:
        phase = state["phase"]
        if phase == "await_start":
            return [state["parent"]]
        if phase == "dice":
            # Live: everyone races. Slow: the seats the bell still waits for; the others may
            # roll and ring, but nobody owes it.
            return _dice.yet_to_act(state) if _dice.slow(state) else list(range(state["n"]))
        if phase == "dispatch":
            return [s for s in priority(state["parent"], state["n"]) if owed(state, s)]
        return []

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state["phase"] != "over":
            return None
        scores = [len(p) * POINTS_PER_CARD for p in state["scores"]]
        places = [1 + sum(1 for o in scores if o > s) for s in scores]
        return Outcome(places, [{"cards": s} for s in scores], "result")

    def ai_action(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
                  level: str = "strong") -> dict[str, Any] | None:
        return _ai.choose(view, legal, rng, level)

    def ai_gap(self, state: dict[str, Any]) -> float:
        """A live dice time is a race of clicks: the seat-filler rolls and claims at a person's
        pace, never at a timer's (a slow one waits for hours anyway)."""
        return FILLER_GAP if state["phase"] == "dice" and not _dice.slow(state) else 0.0

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

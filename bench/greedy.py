"""The greedy baseline of `python -m bench --only ai`: one move ahead, the legal move after
which the seat's immediate standing is best, ties broken at random.

It plays through the engine contract: each candidate move is applied to a copy of the game
with a fresh chance box drawn from the greedy seat's own generator, so it sees what its move
does but never the dice or cards the game will really deal. Standing is read from the seat's
own view after the move (what it may see, nothing more). A move that wins the game outright is
worth more than anything; one that ends it lost, less.

Standing per title, in the title's money:
  - I'm the Boss!: money, plus what the current deal will bring the seat as it stands (the
    boss: the proceeds less the shares promised, once the requirements are met; a partner:
    its accepted ask), plus $0.5M per card in hand and $1M per placard (cards and investors
    are what later deals are made of);
  - Filthy Rich: money, plus $50 per luxury (dearer than any single price: three win, so a
    greedy seat buys the cheapest it can at once), plus each business's sale value;
  - Black Friday: money less owed interest, stock at today's prices, and silver and gold at
    $100 a silver (what money buys at the end, when the rest is sold);
  - E-Wars: cards won, plus half a card for each card it holds with dice or an employee.

An E-Wars greedy seat confirms its picks as soon as it may: the reveal that follows the last
confirm turns on the rivals' face-down employees, which a trial move must not peek at.

When no move improves its standing, a greedy seat that owes nothing waits (as a seat-filler
may), and so does the boss of an I'm the Boss! deal waiting for offers; a seat that owes a move
takes one of the best at random.

Titles with long legal lists (Black Friday's buys and sells run to 1,500) are judged on a
random sample of at most CANDIDATES moves, which keeps a game to seconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import engine
from engine.core import Game, RuleError, copy_json

#: The most candidate moves judged per decision (a uniform sample beyond it), and when the seat
#: may wait anyway (in a negotiation it is asked again after every move anyone makes).
CANDIDATES = 40
CANDIDATES_IDLE = 12
WIN = 1e6


def _imtheboss(game: Game, state: dict, seat: int) -> float:
    """Read from the state, the seat's own part only (the view's history and piles make it the
    slowest of the four to build, and judging a move builds one per candidate)."""
    from engine.imtheboss import table
    from engine.imtheboss.fields import ask_amount

    value = state["money"][seat] + 0.5 * len(state["hands"][seat]) + sum(1 for o in state["placards"] if o == seat)
    deal = state.get("deal")
    if deal is None:
        return value
    accepted = [o for o in deal["offers"] if o["state"] != "pending"]
    if deal["boss"] == seat and table.requirements_met(state):
        value += deal["P"] - sum(ask_amount(o["ask"], deal["value"]) for o in accepted)
        if state["shared"]:
            try:
                value -= len(table.shared_plan(state)[1]) * table.share(deal["space"], deal["P"])
            except ValueError:
                pass
    elif deal["boss"] != seat:
        value += sum(ask_amount(o["ask"], deal["value"]) for o in accepted if o["seat"] == seat)
    return value


def _filthyrich(view: dict) -> float:
    from engine.filthyrich import risk

    me = view["seats"][view["me"]]
    if not me["alive"]:
        return -WIN
    return me["money"] + 50 * len(me["luxuries"]) + sum(risk.sale_of(me, c) for c in me["businesses"])


def _blackfriday(view: dict) -> float:
    priv = view.get("private") or {}
    stock = sum(k * view["prices"][c]["price"] for c, k in priv.get("bags", {}).items())
    metal = 100 * (priv.get("silver", 0) + 5 * priv.get("gold", 0))
    return priv.get("money", 0) - priv.get("owed", 0) + stock + metal


def _ewars(view: dict) -> float:
    me = view["seats"][view["me"]]
    priv = view.get("private") or {}
    # A hundredth of a card per employee picked: picking is progress, taking a pick back is not.
    return me["score"] + 0.5 * len(me["claims"]) + 0.01 * len(priv.get("picks", ()))


#: Standing from the seat's own view (the view is the contract; I'm the Boss! reads its state).
STANDING: dict[str, Callable[[dict], float]] = {"filthyrich": _filthyrich, "blackfriday": _blackfriday, "ewars": _ewars}


def standing(game: Game, state: dict, seat: int) -> float:
    """The seat's standing in `state` (see the module note); a finished game counts its place."""
    out = game.outcome(state)
    if out is not None:
        place = out.places[seat]
        return WIN if place == 1 else -WIN if place is None else -place
    if game.title == "imtheboss":
        return _imtheboss(game, state, seat)
    # The title's own view, read only: `view`'s JSON copy would cost more than the judging.
    return STANDING[game.title](game._view(state, seat))


def _thin(legal: list[dict], rng: random.Random) -> list[dict]:
    """I'm the Boss! lists an offer for every price of every source, and no price changes the
    standing until the boss accepts: judge two random prices per source, not all of them."""
    offers: dict[str, list[dict]] = {}
    rest = []
    for a in legal:
        if a["type"] == "offer":
            offers.setdefault(a["src"], []).append(a)
        else:
            rest.append(a)
    for group in offers.values():
        rest += rng.sample(group, min(2, len(group)))
    return rest


class Greedy:
    """A seat policy that needs the game state (the bench's `play` hands it over)."""

    sees_state = True

    def __init__(self, title: str) -> None:
        self.game = engine.get(title)

    def may_wait(self, state: dict, seat: int) -> bool:
        """A seat that owes nothing may wait; so may a boss whose deal is waiting for offers."""
        if seat not in self.game.to_act(state):
            return True
        deal = state.get("deal") if self.game.title == "imtheboss" else None
        return bool(deal) and deal["boss"] == seat and state.get("window") is None

    def choose(self, state: dict, seat: int, legal: list[dict], rng: random.Random) -> dict | None:
        if not legal:
            return None
        if self.game.title == "ewars" and {"type": "confirm"} in legal:
            return {"type": "confirm"}
        idle = self.may_wait(state, seat)
        size = CANDIDATES_IDLE if idle else CANDIDATES
        pool = _thin(legal, rng)
        pool = pool if len(pool) <= size else rng.sample(pool, size)
        best: list[dict] = []
        top = -float("inf")
        key = self.game.chance_key
        for action in pool:
            # What `apply` does, on one deep copy of our own (with a fresh chance box): its
            # extra copies of the action and the events cost more than the rules.
            trial = copy_json(state)
            trial[key] = {"seed": rng.getrandbits(64), "n": 0}
            try:
                self.game._apply(trial, seat, copy_json(action))
            except RuleError:
                continue
            value = standing(self.game, trial, seat)
            if value > top + 1e-9:
                best, top = [action], value
            elif abs(value - top) <= 1e-9:
                best.append(action)
        if not best:
            return rng.choice(legal)
        if idle and top <= standing(self.game, state, seat) + 1e-9:
            return None
        return rng.choice(best)

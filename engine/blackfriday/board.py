"""Small operations on a Black Friday state shared by the actions and the price adjustment:
limits of the current level, moving one bag to a table with its price effects, money in
(which pays owed interest first), subsidies, special cards.

State layout (all lists indexed by colour in the order Y, B, R, G, O, or by seat):
  market, bag, buy, silver_table: [5] counts;  bag_black: blacks in the bag
  sell: [[5] x 3] coloured counts per sell table;  sell_black: [3];  sell_cur: 0..2;  sell_k:
  sell-table adjustments so far;  wsj: blacks in the WSJ stock;  out: [5] out of the game
  cells: [[row, col] x 5];  level;  silver: index on the track;  purchases: silver bought since
  the last adjustment;  players[s]: bags [5], money, units, owed, silver, gold, cards
"""

from __future__ import annotations

from .data import (
    COLOURS,
    LEVELS,
    NC,
    SELL_LEFT,
    SELL_LEFT_5P,
    SILVER_PER_GOLD,
    SUBSIDY_UNIT,
    TABLE_FULL,
    TABLE_FULL_5P,
)
from .prices import price_of, right

Events = list


def sub_limit(state) -> int:
    return LEVELS[state["level"]][0]


def act_limit(state) -> int:
    return LEVELS[state["level"]][1]


def draw_count(state) -> int:
    return LEVELS[state["level"]][2]


def table_full(state) -> int:
    return TABLE_FULL_5P if state["n"] == 5 else TABLE_FULL


def sell_left(state) -> int:
    return SELL_LEFT_5P if state["n"] == 5 else SELL_LEFT


def prices(state) -> list[int]:
    return [price_of(c) for c in state["cells"]]


def step(state, colour: int, mover, cause: str, events: Events) -> None:
    """One single-step price move of a colour, narrated with its cause."""
    cell = state["cells"][colour]
    old = price_of(cell)
    mover(cell)
    events.append({"type": "price", "colour": COLOURS[colour], "cause": cause, "old": old, "new": price_of(cell)})


def to_table(state, colour: int, table: str, events: Events) -> None:
    """One bag from the market to the buy or silver table, with the last-bag and 3rd-bag moves.
    (The buy action moves several bags at once and applies the last-bag rule itself.)"""
    state["market"][colour] -= 1
    state[table][colour] += 1
    if state["market"][colour] == 0:
        step(state, colour, right, "last_bag", events)
    if state[table][colour] == 3:
        step(state, colour, right, "third_bag", events)


def receive(state, seat: int, amount: int, events: Events) -> None:
    """Money in: owed interest is paid first; the face-down card turns up when it is paid."""
    p = state["players"][seat]
    if p["owed"] and amount > 0:
        pay = min(p["owed"], amount)
        p["owed"] -= pay
        amount -= pay
        events.append({"type": "debt_payment", "to": [seat], "paid": pay, "owed": p["owed"]})
        if p["owed"] == 0:
            events.append({"type": "debt_paid", "seat": seat})
    p["money"] += amount


def subsidy_room(state, seat: int) -> int:
    return max(0, sub_limit(state) - state["players"][seat]["units"])


def take_subsidy(state, seat: int, units: int, events: Events) -> None:
    p = state["players"][seat]
    p["units"] += units
    events.append({"type": "subsidy", "to": [seat], "units": units, "amount": units * SUBSIDY_UNIT, "total": p["units"]})
    receive(state, seat, units * SUBSIDY_UNIT, events)


def convert_gold(state, seat: int, events: Events) -> None:
    p = state["players"][seat]
    if p["silver"] >= SILVER_PER_GOLD:
        bars = p["silver"] // SILVER_PER_GOLD
        p["gold"] += bars
        p["silver"] -= bars * SILVER_PER_GOLD
        events.append({"type": "gold", "to": [seat], "count": bars, "gold": p["gold"]})


def holdings(state, seat: int) -> int:
    return sum(state["players"][seat]["bags"])


def must_settle(state, seat: int) -> bool:
    """Owes interest and can still do something about it (sell, or take subsidies)."""
    p = state["players"][seat]
    return p["owed"] > 0 and (holdings(state, seat) > 0 or subsidy_room(state, seat) > 0)


def stuck_in_debt(state, seat: int) -> bool:
    """Owes interest and can neither sell nor borrow: only a pass is left (the debt stays)."""
    p = state["players"][seat]
    return p["owed"] > 0 and not must_settle(state, seat)


def special_card(state, seat: int, option: str) -> int | None:
    """The index of an unused special card of the seat offering `option`, or None."""
    for i, card in enumerate(state["players"][seat]["cards"]):
        if not card["used"] and option in card["options"]:
            return i
    return None


def use_special(state, seat: int, option: str, events: Events) -> None:
    i = special_card(state, seat, option)
    assert i is not None
    state["players"][seat]["cards"][i]["used"] = True
    events.append({"type": "special", "seat": seat, "option": option})


def unused_options(state, seat: int) -> list[list[str]]:
    return [list(c["options"]) for c in state["players"][seat]["cards"] if not c["used"]]


def most_in_market(state) -> int | None:
    """The colour the market holds most of (ties: colour order); None if it is empty."""
    market = state["market"]
    best = max(range(NC), key=lambda c: (market[c], -c))
    return best if market[best] > 0 else None

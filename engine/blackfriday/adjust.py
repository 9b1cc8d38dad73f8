"""The price adjustment (digest section 6, steps 1 to 10, in that order) and the end of the game
(section 7: the final liquidation and the ranking).

The end is immediate (issue 14 #6-7, the rulebook's "100に達したら直ちに"): the moment silver
stands on 100, whether by a black or by the purchase count, the game ends and the adjustment's
remaining steps (price moves, the level check) do not run.

An adjustment resolves at once inside the action that triggered it and is narrated as one block
of events. Interest is narrated publicly without amounts: what each player paid or owes goes
only to that player; who could not pay in full is public (their subsidy card turns face down).
"""

from __future__ import annotations

from engine.core import Chance

from .board import draw_count, sell_left, step, sub_limit, table_full, prices
from .data import (
    COLOURS,
    INTEREST_PER_UNIT,
    NC,
    PURCHASE_DIVISOR,
    REFILL_BLACKS,
    REFILL_PER_COLOUR,
    SILVER,
    SILVER_LAST,
    SILVER_PER_GOLD,
    SUBSIDY_UNIT,
)
from .prices import move, price_of, top_row, up, wsj_steps

END_PRICE = SILVER[-1]
TABLE_NAMES = ("sell1", "sell2", "sell3")


def trigger(state, table: str, seat: int, events: list) -> None:
    """After an action that touched `table` ("buy", "silver_table" or "sell"): start an
    adjustment if that table is due. An action touches one table, so at most one starts."""
    if state["phase"] == "over":
        return
    if table == "sell":
        due = sum(state["sell"][state["sell_cur"]]) <= sell_left(state)
    else:
        due = sum(state[table]) >= table_full(state)
    if due:
        adjust(state, table, seat, events)


def silver_steps(state, steps: int, cause: str, events: list) -> None:
    """Silver up `steps` spaces; it never passes 100 and extra steps are ignored."""
    if steps <= 0:
        return
    old = state["silver"]
    state["silver"] = min(SILVER_LAST, old + steps)
    events.append({"type": "silver_price", "cause": cause, "steps": steps,
                   "old": SILVER[old], "new": SILVER[state["silver"]]})


def adjust(state, table: str, seat: int, events: list) -> None:
    name = TABLE_NAMES[state["sell_cur"]] if table == "sell" else ("buy" if table == "buy" else "silver")
    before = prices(state)  # what the adjustment moves the prices from (its history entry keeps it)
    events.append({"type": "adjust", "seat": seat, "table": name})
    players = state["players"]

    # 1. Interest: $1 per unit held; a player short of cash pays all of it and owes the rest.
    events.append({"type": "interest"})
    for s, p in enumerate(players):
        if p["units"] <= 0:
            continue
        due = p["units"] * INTEREST_PER_UNIT
        pay = min(p["money"], due)
        p["money"] -= pay
        p["owed"] += due - pay
        events.append({"type": "interest_paid", "to": [s], "paid": pay, "owed": p["owed"]})
        if due > pay:
            events.append({"type": "debt", "seat": s})

    # 2. Draw the level's count at random, or all that remain (drawn by the triggering player).
    bag = state["bag"]
    items = [c for c in range(NC) for _ in range(bag[c])] + [NC] * state["bag_black"]
    k = min(draw_count(state), len(items))
    drawn_items = Chance(state["chance"]).sample(items, k) if k else []
    drawn = [0] * (NC + 1)
    for it in drawn_items:
        drawn[it] += 1
    for c in range(NC):
        bag[c] -= drawn[c]
    b = drawn[NC]
    state["bag_black"] -= b
    shown = [COLOURS[c] for c in range(NC) for _ in range(drawn[c])] + ["black"] * b
    events.append({"type": "draw", "seat": seat, "count": k, "bags": shown or ["none"]})
    state["last_draw"] = {"seat": seat, "bags": drawn[:NC], "black": b}

    # 3. Blacks. Exactly one: silver +1 first (the rulebook moves silver, then the prices) and
    #    the black goes back into the bag; if that puts silver on 100 the game ends at once,
    #    before any stock marker moves (issue 14 #6).
    if b == 1:
        state["bag_black"] += 1
        events.append({"type": "black_one"})
        silver_steps(state, 1, "black", events)
        if _at_end(state):
            return _end_now(state, drawn, events, before)

    # 4. WSJ moves, every colour in colour order (n = 0 moves left 1). Two or more blacks are
    #    subtracted from every colour first; then they go to the WSJ stock and silver rises one
    #    space each (the rulebook: subtract, prices fall, then silver), ending the game at once
    #    on 100 (our reading of "100に達したら直ちに").
    minus = b if b >= 2 else 0
    for c in range(NC):
        n = drawn[c] - minus
        cell = state["cells"][c]
        old = price_of(cell)
        move(cell, *wsj_steps(n))
        events.append({"type": "wsj", "colour": COLOURS[c], "n": n, "old": old, "new": price_of(cell)})
    if b >= 2:
        state["wsj"] += b
        events.append({"type": "black_crash", "count": b})
        silver_steps(state, b, "black", events)
        if _at_end(state):
            return _end_now(state, drawn, events, before)

    # 5. The drawn coloured bags go to the market.
    for c in range(NC):
        state["market"][c] += drawn[c]

    # 6. The triggering table's bags go into the bag (blacks too from a sell table).
    if table == "sell":
        t = state["sell_cur"]
        for c in range(NC):
            bag[c] += state["sell"][t][c]
            state["sell"][t][c] = 0
        state["bag_black"] += state["sell_black"][t]
        state["sell_black"][t] = 0
    else:
        for c in range(NC):
            bag[c] += state[table][c]
            state[table][c] = 0
    events.append({"type": "table_cleared", "table": name})

    # 7. After a sell-table trigger: the next sell table (1, 2, 3, then 2 again, refilled).
    if table == "sell":
        next_sell_table(state, events)

    # 8. Each colour with no bag in the market goes up 1.
    for c in range(NC):
        if state["market"][c] == 0:
            step(state, c, up, "missing", events)

    # 9. Silver by purchases: +1 space per 3 bought; the count resets, the remainder is lost.
    #    Silver on 100 here ends the game at once: the level check below does not run, so no
    #    new level card (nor its higher subsidy limit) reaches the final liquidation (#7).
    count = state["purchases"]
    state["purchases"] = 0
    if count // PURCHASE_DIVISOR:
        silver_steps(state, count // PURCHASE_DIVISOR, "purchases", events)
    events.append({"type": "purchases", "count": count, "steps": count // PURCHASE_DIVISOR})
    if _at_end(state):
        return _end_now(state, None, events, before)

    # 10. Level.
    raise_level(state, events)
    _record(state, before)


def _at_end(state) -> bool:
    return state["silver"] >= SILVER_LAST


def _record(state, before: list[int]) -> None:
    """The adjustment's entry in the price history: the prices it left, and (`from`) the ones
    it found, so the table shows the adjustment's own change, as its narration tells it, not
    the change since the previous adjustment, trades between them included (issue 30)."""
    state["adjustments"] += 1
    state["history"].append({"prices": prices(state), "from": before, "silver": SILVER[state["silver"]],
                             "level": state["level"]})


def _end_now(state, drawn: list[int] | None, events: list, before: list[int]) -> None:
    """Silver stands on 100: the game ends here (the rulebook's "直ちに"). The adjustment's
    remaining steps do not run; bags drawn but not yet placed are laid in the market so every
    bag stays counted (nothing is priced from them any more)."""
    if drawn is not None:
        for c in range(NC):
            state["market"][c] += drawn[c]
    _record(state, before)
    finish(state, "silver", events)


def raise_level(state, events: list) -> None:
    """The level follows the row of the highest price (ties: the higher row); it never falls
    and may skip. Each change moves one black from the WSJ stock into the bag (none if the
    stock is empty), even a change of several levels. New limits apply from the next action."""
    row = top_row(state["cells"])
    if row > state["level"]:
        # One black per level change, however many levels it skips (the rulebook:
        # "各、レベル変更した際に…1つ"; issue 14 #5).
        moved = min(1, state["wsj"])
        state["wsj"] -= moved
        state["bag_black"] += moved
        state["level"] = row
        events.append({"type": "level", "level": row, "count": moved})


def next_sell_table(state, events: list) -> None:
    state["sell_k"] += 1
    k = state["sell_k"]
    cur = k if k < 3 else 1
    state["sell_cur"] = cur
    events.append({"type": "sell_table", "table": TABLE_NAMES[cur]})
    if k < 3:
        return
    # Refill of table 2 [house]: 2 of each colour from the market (shortfall from the bag,
    # else fewer) and 2 blacks from the WSJ stock (shortfall from the bag, else fewer).
    table = state["sell"][cur]
    for c in range(NC):
        need = REFILL_PER_COLOUR
        got = min(need, state["market"][c])
        state["market"][c] -= got
        more = min(need - got, state["bag"][c])
        state["bag"][c] -= more
        table[c] += got + more
    got = min(REFILL_BLACKS, state["wsj"])
    state["wsj"] -= got
    more = min(REFILL_BLACKS - got, state["bag_black"])
    state["bag_black"] -= more
    state["sell_black"][cur] += got + more
    events.append({"type": "refill", "table": TABLE_NAMES[cur], "count": sum(table), "black": state["sell_black"][cur]})


def finish(state, reason: str, events: list) -> None:
    """The end: every player sells everything at the final prices (no price or bag effects),
    takes subsidies up to the level limit, pays owed interest, buys all the silver they can
    at 100 and turns each 5 silver into 1 gold. The results are public from here on."""
    state["phase"] = "over"
    state["end"] = reason
    state["acted"] = False
    events.append({"type": "game_end", "reason": reason})
    limit = sub_limit(state)
    final = []
    cur = prices(state)
    for p in state["players"]:
        sold = sum(p["bags"][c] * cur[c] for c in range(NC))
        for c in range(NC):
            state["market"][c] += p["bags"][c]
            p["bags"][c] = 0
        p["money"] += sold
        taken = max(0, limit - p["units"])
        p["units"] += taken
        p["money"] += taken * SUBSIDY_UNIT
        pay = min(p["owed"], p["money"])
        p["money"] -= pay
        p["owed"] -= pay
        bought = p["money"] // END_PRICE
        p["money"] -= bought * END_PRICE
        p["silver"] += bought
        bars = p["silver"] // SILVER_PER_GOLD
        p["gold"] += bars
        p["silver"] -= bars * SILVER_PER_GOLD
        final.append({"gold": p["gold"], "silver": p["silver"], "money": p["money"],
                      "sold": sold, "subsidy": taken, "bought": bought})
    state["final"] = final
    places = ranking(final)
    for s, f in enumerate(final):
        f["place"] = places[s]
        events.append({"type": "final", "seat": s, "place": places[s], "gold": f["gold"],
                       "silver": f["silver"], "money": f["money"]})


def ranking(final: list[dict]) -> list[int]:
    """Most gold, then silver, then money; equal on all three share the place."""
    key = [(f["gold"], f["silver"], f["money"]) for f in final]
    return [1 + sum(1 for other in key if other > mine) for mine in key]

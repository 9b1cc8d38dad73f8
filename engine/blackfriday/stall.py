"""The stall guard (digest 9.11 as issue 26 reads it): the rulebook ends the game only when silver
reaches 100 (■ゲーム終了), so the engine may end it earlier only when NO sequence of legal moves
(and no luck at the draws) can ever move silver again. `silver_can_move` says whether one might;
it errs towards "yes": a game it cannot prove dead goes on.

Silver moves only at a price adjustment (digest 6): by a black drawn from the bag (step 3) or by
the purchase count (step 9, three silver bought since the last adjustment). An adjustment needs
a trigger: bags onto the buy or silver table (from the market) or sales off the sell table. So:

  1. Someone holds stock: they may sell. Money comes in (silver, stock bought low and sold
     high), sales empty the sell table, whose blacks then go into the bag, and table 2's refill
     brings blacks from the WSJ stock. Not provably dead.
  2. Nobody holds stock and the market is empty: no bag can reach a table and nobody can sell,
     so no adjustment can ever happen again. Dead, whatever the money (silver bought now
     would never be counted at an adjustment).
  3. Otherwise, if someone can still buy something with money and the subsidies their level
     allows: not provably dead. When passes alone can fill the silver table, adjustments will
     come (silver bought counts at them) and move the prices: a colour left undrawn falls a
     step each time down to the $4 floor, so any seat with $4 could buy a stock one day. When
     passes cannot, no price can fall and silver bought would never be counted: only a stock
     the market offers now could help.
  4. Nobody can buy anything. If passes cannot fill the silver table, no adjustment can come:
     dead. If they can, the next adjustments draw from the bag:
       - a black in the bag may be drawn, and moves silver: alive;
       - three or more silver bought since the last adjustment move silver: alive;
       - below the top level, prices driven up by the draws change the level, which puts a
         black from the WSJ stock into the bag and raises everyone's subsidy limit (money to
         buy with): alive;
       - at the top level with no black in the bag: dead. The blacks on the sell tables and
         in the WSJ stock can only reach the bag through a sale, and nobody can ever own a
         stock again.
"""

from __future__ import annotations

from .board import holdings, prices, sub_limit, subsidy_room, table_full
from .data import FLOOR_CELL, LEVELS, NC, PURCHASE_DIVISOR, SILVER, SUBSIDY_UNIT, price

TOP_LEVEL = len(LEVELS) - 1
FLOOR_PRICE = price(FLOOR_CELL)


def spending_power(state, seat: int) -> int:
    """What the seat could spend now: money, plus the subsidies its level still allows, less
    the owed interest the first money received pays."""
    p = state["players"][seat]
    return p["money"] + SUBSIDY_UNIT * subsidy_room(state, seat) - p["owed"]


def passes_adjust(state) -> bool:
    """Can passes alone (one market bag each to the silver table) start an adjustment?"""
    return sum(state["market"]) + sum(state["silver_table"]) >= table_full(state)


def silver_can_move(state) -> bool:
    """False only when no sequence of legal moves can move silver again (the module note)."""
    seats = range(state["n"])
    if any(holdings(state, s) for s in seats):
        return True
    market = state["market"]
    if not any(market):
        return False
    cycle = passes_adjust(state)
    if cycle:
        cheapest = min(FLOOR_PRICE, SILVER[state["silver"]])
    else:
        # No adjustment can come by passes: no price can fall, and silver bought now would
        # never be counted; only a stock bought (its extra bag, its later sale) could help.
        cost = prices(state)
        cheapest = min(cost[c] for c in range(NC) if market[c])
    if any(spending_power(state, s) >= cheapest for s in seats):
        return True
    if not cycle:
        return False
    if state["bag_black"] > 0 or state["purchases"] >= PURCHASE_DIVISOR:
        return True
    # Below the top level a level change can still come: a black (if the WSJ stock holds one)
    # or a higher subsidy limit, which is money to buy with.
    higher_limit = LEVELS[TOP_LEVEL][0] > sub_limit(state)
    return state["level"] < TOP_LEVEL and (state["wsj"] > 0 or higher_limit)

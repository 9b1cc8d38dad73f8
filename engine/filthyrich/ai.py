"""The seat-filler: a greedy player that reads only its view and the legal list.

It values everything in dollars over a short horizon of future rolls:
  - an ad is worth the hits it will catch: each die picks slots 1-9 equally, so what matters is
    on how many open pages a card stays visible (a card on page t shows on pages t..4 unless a
    higher page already has a card in that slot) and how many dice those pages roll; cards on
    high pages are also hard to cover, since fewer pages lie above them;
  - every $ mark costs about a quarter of a dollar per roll in taxes;
  - it never spends (luxury, business with its cover fees, asset, bid, takeover) below the
    reserve of `risk.reserve`: the taxes the rolls before its next turn will most likely bring,
    paid from money alone, and nearly surely from money plus every business sold. Taxes on
    other players' rolls while holding $0-5 were what bankrupted it (1.3 seats per 5-player game);
  - a luxury that does not win is bought only with a business (an income) behind it, never the
    tax-doubling one; the third at any price; against a rush (race.py) the cheapest it can
    while keeping its reserve, business or not, at auction too, and with the bank's loan;
  - in a tax window it sells the cheapest set of businesses that keeps it solvent;
  - at auction it bids the minimum while the price stays near the printed one and the reserve holds,
    and whatever the reserve when the lot, let go, would give a rival its third luxury.
"""

from __future__ import annotations

import random
from typing import Any

from . import race
from . import score as S
from . import value as V
from .data import ACTIONS, ASSETS, BUSINESSES, DISCARD_GAIN, LUXURIES, LUXURIES_TO_WIN, kind
from .value import View

#: The tax-doubling luxury is raced for only while a zero costs the seat this much or less.
DOUBLING_TAX_LIMIT = 2


def _race_buy(view: View, buys: list[dict[str, Any]], plays: list[dict[str, Any]]) -> dict[str, Any] | None:
    """In a race (race.threat), the cheapest luxury that keeps the reserve: luxuries are bought
    as soon as the taxes allow, income or not, and the cheap ones are those the rusher needs."""
    rusher, when = race.threat(view)
    if when > race.RACE_ROUNDS:
        return None
    deny = race.denial(view)
    if deny is not None:  # it wins at its next turn otherwise: every dollar goes to stop it
        # ...unless a card in hand stops it for nothing (seed 10039 of the benchmark: $18 of
        # its $19 on the denial, a lawsuit that left the rusher short in hand; both businesses
        # sold at the next zero, bankrupt four rounds later).
        return _free_stop(view, plays, rusher) or next((a for a in buys if a["luxury"] == deny), None)
    mine = V.me_of(view)
    for a in buys:
        x = a["luxury"]
        if LUXURIES[x].get("special") == "double_taxes" and mine["tax_per_zero"] > DOUBLING_TAX_LIMIT:
            continue
        keep = race.race_keep(view, x)
        if mine["money"] - LUXURIES[x]["price"] >= keep:
            return a
    return None


def _free_stop(view: View, plays: list[dict[str, Any]], rusher: int) -> dict[str, Any] | None:
    """A lawsuit or an audit in hand that stops `rusher` finishing at its next turn: what it
    takes (the suit's sum; the audit, one zero's tax) leaves it short (race.drained_short), or
    the audit bankrupts it and its lots finish nobody. None when no card does."""
    target = view["seats"][rusher]
    if "lawyer" in V.asset_effects(target):
        return None  # the first card against it does nothing
    for a in plays:
        k = kind(a["card"])
        if a.get("target") != rusher or k not in ACTIONS:
            continue
        effect = ACTIONS[k]["effect"]
        if effect == "lawsuit" and race.drained_short(view, rusher, ACTIONS[k]["params"]["take"]):
            return a
        if effect == "audit":
            if race.exposed(view, rusher):
                if not race.lots_finish_a_rival(view, rusher):
                    return a
            elif race.drained_short(view, rusher, target["tax_per_zero"]):
                return a
    return None


def _sell_to_win(view: View, by_type: dict[str, list[dict[str, Any]]]) -> dict[str, Any] | None:
    """With two luxuries and the buying still open, the first business to sell when selling
    some pays for the cheapest third (the win ends the game: what they would earn is moot).
    The same to buy the luxury a rusher needs to finish at its next turn (race.denial). An
    Estate Sale in hand takes its discount off the third: sold up to that, the card wins."""
    mine = V.me_of(view)
    if not view["turn"]["may_buy"] or not view["market"]:
        return None
    wins = len(mine["luxuries"]) >= LUXURIES_TO_WIN - 1
    if not wins and race.threat(view)[1] > 0:
        return None
    price = min(LUXURIES[x]["price"] for x in view["market"])
    if wins:
        price -= max((ACTIONS[c["kind"]]["params"]["discount"] for c in view["private"]["hand"]
                      if c["kind"] in ACTIONS and ACTIONS[c["kind"]]["effect"] == "estate_sale"), default=0)
    if mine["money"] >= price:
        return None
    sells = V.sell_to_reach(view, price)
    return next((a for a in by_type.get("sell", []) if sells and a["business"] == sells[0]), None)


def _turn(view: View, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    mine = V.me_of(view)
    money = mine["money"]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    # 0. the win is for sale: businesses sold (free, before acting) pay for the third luxury.
    sale = _sell_to_win(view, by_type)
    if sale is not None:
        return sale
    # 1. luxuries: the winning one at any price; in a race, the cheapest it can keep its taxes
    #    after; otherwise the cheapest that leaves a reserve and, when a good business could be
    #    opened this turn, the money to open it.
    buys = sorted(by_type.get("buy_luxury", []), key=lambda a: LUXURIES[a["luxury"]]["price"])
    if buys:
        # The money pays for every luxury still needed: the cheapest now, the rest at once, the
        # win. The race and the reserve below only decide purchases that do not win; without
        # this, a seat that took the finishing loan (race.loan_finishes) and had no business or
        # no race on the table kept the money, repaid the loan and later went bankrupt.
        if len(mine["luxuries"]) >= LUXURIES_TO_WIN - 1 or race.pays_the_rest(view):
            return buys[0]
        racing = _race_buy(view, buys, by_type.get("play", []))
        if racing is not None:
            return racing
        invest = 0
        for a in by_type.get("play", []):
            need = V.opening_need(view, a)
            if need and S.score_play(view, a) > 4:
                invest = max(invest, need)
        for a in buys:
            if V.may_buy_luxury(view, a["luxury"], money - LUXURIES[a["luxury"]]["price"] - invest):
                return a
    # 2. loans: clear the shark when comfortably rich (in a race, only with the luxuries still
    #    needed paid for as well: a loan taken to race is spent on the race).
    spare = money - (race.luxuries_cost(view) if race.racing(view) else 0)
    for a in by_type.get("repay", []):
        p = ASSETS[kind(a["asset"])]["params"]
        if spare - p["repay"] >= V.reserve(view) + (5 if p["interest"] else 30):
            return a
    # 3. actions: the best play, or discard the least useful card.
    best = _action(view, by_type, rng)
    if best is not None:
        return best
    # 4. before rolling: sell to pay interest if needed.
    if mine["interest"] > money:
        sells = V.sell_to_reach(view, mine["interest"])
        if sells:
            return {"type": "sell", "business": sells[0]}
    return by_type.get("roll", legal)[0]


#: The friendly seat-filler plays any move within this many dollars of its best (never one that
#: loses money: it stays at or above what a discard brings).
FRIENDLY_MARGIN = 3.0


def _action(view: View, by_type: dict[str, list[dict[str, Any]]], rng: random.Random) -> dict[str, Any] | None:
    """The best play or discard; the friendly level any of the good ones."""
    racing = race.racing(view)
    scored = [(S.score_play(view, a), a) for a in by_type.get("play", [])]
    # In a race a card is worth the dollar it brings now: the game ends before most pay off;
    # not an audit the strong level holds for the seat it would bankrupt (V.held_for_a_kill),
    # nor a card a rusher would draw again and turn into money (V.hoarded).
    scored += [(DISCARD_GAIN - (1.0 if V.held_for_a_kill(view, a["card"]) else 0.01 if racing else 0.5)
                * V.keep_value(view, a["card"]) - (V.HOARD_VALUE if V.hoarded(view, a["card"]) else 0.0), a)
               for a in by_type.get("discard", [])]
    if not scored:
        return None
    top = max(s for s, _ in scored)
    best = next(a for s, a in scored if s == top)
    if not race.friendly(view):
        return best
    good = [a for s, a in scored if s >= top - FRIENDLY_MARGIN and s >= min(top, 0.0)]
    return rng.choice(good)


# -- windows -----------------------------------------------------------------------------------

def _tax_window(view: View, legal: list[dict[str, Any]]) -> dict[str, Any]:
    mine = V.me_of(view)
    zeros = view["tax"]["zeros"]
    money = mine["money"]
    if money >= V.tax(mine, mine["marks"], zeros):
        return {"type": "tax_decision", "sell": []}
    # The cheapest set of businesses whose sale keeps me solvent (subsets are few: <= 2^k).
    cards = sorted(mine["businesses"], key=lambda c: BUSINESSES[kind(c)]["cost"])
    best, best_loss = None, None
    k = len(cards)
    if k <= 10:
        for mask in range(1, 1 << k):
            chosen = [cards[i] for i in range(k) if mask >> i & 1]
            cash = money + sum(V.sale(mine, c) for c in chosen)
            m = mine["marks"] - sum(BUSINESSES[kind(c)]["marks"] for c in chosen)
            if cash >= V.tax(mine, m, zeros):
                loss = sum(BUSINESSES[kind(c)]["cost"] for c in chosen)
                if best_loss is None or loss < best_loss:
                    best, best_loss = chosen, loss
    else:
        chosen, cash, m = [], money, mine["marks"]
        for c in cards:
            if cash >= V.tax(mine, m, zeros):
                break
            chosen.append(c)
            cash += V.sale(mine, c)
            m -= BUSINESSES[kind(c)]["marks"]
        best = chosen if cash >= V.tax(mine, m, zeros) else None
    return {"type": "tax_decision", "sell": best or []}


def _auction(view: View, legal: list[dict[str, Any]]) -> dict[str, Any]:
    a = view["auction"]
    mine = V.me_of(view)
    money = mine["money"]
    lo = a["min"]
    if lo > money:
        return {"type": "pass"}
    x = LUXURIES[a["luxury"]]
    if len(mine["luxuries"]) >= LUXURIES_TO_WIN - 1:
        return {"type": "bid", "amount": lo}
    if not race.friendly(view) and race.lot_to_a_finisher(view):
        # Let go, the lot ends the game; a bid that is outbid costs nothing, one that holds
        # costs money the seat may miss later, reserve or not. It passed at $12 with $18 in
        # hand while the high bid, $11, was all the money of a seat holding two luxuries
        # (seed 300211): a fifth of the lost games end on a bankrupt seat's lot.
        return {"type": "bid", "amount": lo}
    if lo <= x["price"] + 3 and V.may_buy_luxury(view, a["luxury"], money - lo):
        return {"type": "bid", "amount": lo}
    # A lot is a luxury like the market's: worth up to the cheapest one there. Passed, it goes
    # to a rival (a rusher bids all it has) or leaves the game, and the cheap ones are few.
    market = race.cheapest(view, 1)
    if lo > max(x["price"] + 3, market[0] if market else 0):
        return {"type": "pass"}
    if race.racing(view) and money - lo >= race.race_keep(view, a["luxury"]):
        return {"type": "bid", "amount": lo}
    if not race.friendly(view) and _worth_a_lot(view, a["luxury"], money - lo):
        return {"type": "bid", "amount": lo}
    return {"type": "pass"}


def _worth_a_lot(view: View, luxury: str, after: int) -> bool:
    """Outside a race, a lot is bought (business or not) when the reserve holds afterwards and
    it is not the tax-doubling luxury on a seat whose zeros already cost more than a little."""
    if LUXURIES[luxury].get("special") == "double_taxes" and V.me_of(view)["tax_per_zero"] > DOUBLING_TAX_LIMIT:
        return False
    return after >= V.reserve(view, add_luxury=luxury)


def choose(view: View, legal: list[dict[str, Any]], rng: random.Random, level: str = "strong") -> dict[str, Any]:
    """The seat-filler's move. The friendly level reads no race (it neither races nor blocks a
    rush) and plays any good move rather than the best; both keep the reserve and buy the
    winning luxury, so neither throws a game away."""
    if not legal:
        return {"type": "pass"}
    view = race.at_level(view, level)
    phase = view["phase"]
    if phase == "turn":
        act = _turn(view, legal, rng)
    elif phase in ("tax", "audit"):
        act = _tax_window(view, legal)
    elif phase == "auction":
        act = _auction(view, legal)
    else:
        act = legal[0]
    return act


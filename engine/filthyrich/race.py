"""The luxury race (issue 26): how soon each seat could buy its way to three luxuries, read from
the public table (money, luxuries, ads and the luxury market are all public in Filthy Rich).

A seat that discards every card for $1 and buys the cheapest luxury whenever it can (the
"rush") ends a five-player game by about round 8, long before businesses pay for themselves.
The seat-filler recognises it by the numbers: luxuries held, money in hand, the cheapest prices
left in the market, and the income the seat can count on. Then it races (buys cheap luxuries
early, which also takes them from the rusher), counts its investments over the few rounds the
game has left, and blocks the seat about to win (denies it the luxury it can afford, takes its
money with lawsuits and audits).
"""

from __future__ import annotations

import math
from typing import Any

from engine.core import check_level

from . import risk
from .data import ACTIONS_PER_TURN, BUSINESSES, LUXURIES, LUXURIES_TO_WIN
from .risk import ZERO_CHANCE, sale_of, taxes_ahead

View = dict[str, Any]

#: A rusher this many rounds from three luxuries makes it a race...
RACE_ROUNDS = 12
#: ...and this many, an emergency: it could finish within a round or two.
URGENT = 2
#: A rusher buys a luxury at least every this many rounds (a builder that sold its businesses
#: to pay taxes, seen as a rusher by mistake, made all-AI games lose 0.4 seats a game).
RUSH_PACE = 6
#: Dollars an action brings a seat that spends it on money: $1 for a discard, more now and then
#: (Angel Investor, Tax Refund, a loan, a lawsuit).
ACTION_DOLLARS = 1.5
#: What knocking a rusher out is worth when it would otherwise win soon (2 players: the game).
ELIMINATION_VALUE = 40.0

#: Dice per roll in the long run (the open page is about uniform over 1-4).
AVERAGE_DICE = 2.5
#: A hit lands on a given slot with this chance per die.
SLOT_CHANCE = 1 / 10


def _hit_value(business_kind: str) -> float:
    hit = BUSINESSES[business_kind]["hit"]
    if hit["key"] == "pay_d10":
        return 4.5
    return float(hit["args"][0]) if hit["args"] else 2.0


def income(view: View, seat: int) -> float:
    """Dollars a seat can count on per round: its two actions spent on money, plus what its visible ads catch on
    every living seat's roll (at the open page's dice), less the taxes its $ marks cost."""
    alive = sum(1 for s in view["seats"] if s["alive"])
    dice = max(1, view.get("page", 2))
    hits = sum(_hit_value(g["kind"]) for g in view["grid"] if g and g["owner"] == seat)
    ads = hits * SLOT_CHANCE * (dice + AVERAGE_DICE) / 2 * alive
    taxes = view["seats"][seat]["tax_per_zero"] * ZERO_CHANCE * AVERAGE_DICE * alive
    return ACTIONS_PER_TURN * ACTION_DOLLARS + ads - taxes


def cheapest(view: View, k: int) -> list[int]:
    """The k cheapest prices in the luxury market (fewer if it holds fewer)."""
    return sorted(LUXURIES[x]["price"] for x in view["market"])[:k]


def eta(view: View, seat: int) -> float:
    """Rounds until `seat` could hold three luxuries, buying the cheapest as soon as it can pay:
    0 means it can on its next turn; infinite when the market cannot supply them."""
    return cached(view, ("eta", seat), lambda: _eta(view, seat))


def _eta(view: View, seat: int) -> float:
    s = view["seats"][seat]
    if not s["alive"]:
        return math.inf
    need = LUXURIES_TO_WIN - len(s["luxuries"])
    prices = cheapest(view, need)
    if len(prices) < need:
        return math.inf
    short = sum(prices) - s["money"]
    if short <= 0:
        return 0.0
    return short / max(0.5, income(view, seat))


def rushing(view: View, seat: int) -> bool:
    """A rush, as the table shows it: luxuries bought early with no business behind them (a
    builder buys its luxuries later, out of an income; a rusher out of discards, at least one
    every RUSH_PACE rounds). A builder that sold its businesses to pay its taxes is not one."""
    s = view["seats"][seat]
    return s["alive"] and bool(s["luxuries"]) and not s["businesses"] and len(s["luxuries"]) * RUSH_PACE >= view["round"]


def luxuries_cost(view: View, seat: int | None = None) -> int:
    """What the luxuries `seat` (default: the viewer) still needs cost at the cheapest."""
    seat = view["me"] if seat is None else seat
    return sum(cheapest(view, LUXURIES_TO_WIN - len(view["seats"][seat]["luxuries"])))


def pays_the_rest(view: View) -> bool:
    """Does the viewer's money pay for every luxury it still needs, at the market's cheapest?"""
    me = view["seats"][view["me"]]
    need = LUXURIES_TO_WIN - len(me["luxuries"])
    prices = cheapest(view, need)
    return len(prices) == need and sum(prices) <= me["money"]


def eta_with(view: View, gain: int) -> float:
    """The viewer's eta with `gain` dollars more."""
    me = view["me"]
    seats = list(view["seats"])
    seats[me] = dict(seats[me], money=seats[me]["money"] + gain)
    return eta(dict(view, seats=seats, **{MEMO_KEY: None}), me)


def rival(view: View, rushers_only: bool = False) -> tuple[int | None, float]:
    """The rival nearest to three luxuries (among rushers only, if asked), and its eta."""
    me = view["me"]
    best, when = None, math.inf
    for seat, s in enumerate(view["seats"]):
        if seat != me and s["alive"] and (not rushers_only or rushing(view, seat)):
            t = eta(view, seat)
            if t < when:
                best, when = seat, t
    return best, when


#: Where `at_level` marks the friendly seat-filler's copy of its view (not an engine view key).
LEVEL_KEY = "_ai_level"


#: Where `at_level` keeps what one decision works out once (etas, the reserve of a purchase):
#: a turn weighs up to 170 plays, and each asks the same questions.
MEMO_KEY = "_ai_memo"


def at_level(view: View, level: str) -> View:
    """The view as the seat-filler of `level` reads it for one decision: a copy (never the
    caller's view) with a memo, and the friendly one sees no race."""
    check_level(level)
    out = dict(view, **{MEMO_KEY: {}})
    if level != "strong":
        out[LEVEL_KEY] = level
    return out


def cached(view: View, key: Any, compute: Any) -> Any:
    """compute(), worked out once per decision (views without a memo compute every time)."""
    memo = view.get(MEMO_KEY)
    if memo is None:
        return compute()
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def friendly(view: View) -> bool:
    return view.get(LEVEL_KEY) == "friendly"


def head_to_head(view: View) -> bool:
    return sum(1 for s in view["seats"] if s["alive"]) == 2


def threat(view: View) -> tuple[int | None, float]:
    """The rusher nearest to three luxuries, and its eta (None, inf: no rush on the table, or a
    friendly seat-filler, which does not look). Two players race from the start: the other seat
    needs only the three cheapest luxuries, and a business pays back over more rolls than a
    two-player game usually has."""
    if friendly(view):
        return None, math.inf
    return cached(view, "threat", lambda: rival(view, rushers_only=not head_to_head(view)))


def racing(view: View) -> bool:
    """Is a rusher within RACE_ROUNDS of three luxuries?"""
    return threat(view)[1] <= RACE_ROUNDS


def race_keep(view: View, luxury: str) -> int:
    """Money to keep after buying `luxury` in a race: the reserve (risk.reserve; lower
    confidences lost more races to bad rolls than they won: 55-57 % against 58 % over 600
    two-player games), or only the taxes to expect when the rusher could finish within URGENT
    rounds: losing the race is then surer than a bad roll."""
    me = view["seats"][view["me"]]
    if threat(view)[1] <= URGENT:
        return taxes_ahead(view, add_luxury=luxury) + me["interest"]
    return risk.reserve(view, add_luxury=luxury)


def rounds_left(view: View) -> float:
    """About how many rounds the game has left if a rusher gets its way: its eta, plus one. At
    three players or more the usual length stands: ads are hit on every seat's roll there, and
    a seat-filler that stops building to race goes broke on the taxes."""
    if not head_to_head(view):
        return math.inf
    return threat(view)[1] + 1


def brings_luxury(view: View, gain: int) -> bool:
    """Would `gain` dollars more let the seat buy a luxury at its next turn?"""
    money = view["seats"][view["me"]]["money"] + gain
    return any(LUXURIES[x]["price"] <= money for x in view["market"])


def elimination_value(view: View, seat: int) -> float:
    """What knocking `seat` out is worth: the game at two players, else its nearness to winning."""
    alive = sum(1 for s in view["seats"] if s["alive"])
    if alive == 2:
        return ELIMINATION_VALUE * 2
    return ELIMINATION_VALUE / (1 + eta(view, seat))


def exposed(view: View, seat: int) -> bool:
    """Would one zero bankrupt `seat`? Its tax per zero above its money and what its businesses
    would sell for."""
    s = view["seats"][seat]
    liquid = s["money"] + sum(sale_of(s, c) for c in s["businesses"])
    return s["tax_per_zero"] > liquid


def zero_threat(view: View, extra_dice: int) -> float:
    """What `extra_dice` more dice on this roll are worth against exposed rushers (each die shows
    0 one time in ten), if the seat itself can pay the zero."""
    if extra_dice <= 0:
        return 0.0
    me = view["seats"][view["me"]]
    if me["tax_per_zero"] > me["money"]:
        return 0.0
    chance = 1 - (1 - ZERO_CHANCE) ** extra_dice
    return sum(chance * elimination_value(view, s) for s in range(len(view["seats"]))
               if s != view["me"] and rushing(view, s) and exposed(view, s) and not lots_finish_a_rival(view, s))


def lots_finish_a_rival(view: View, victim: int) -> bool:
    """Would `victim`'s bankruptcy hand a rival the game? Its luxuries are auctioned cheapest
    first, and a greedy bidder bids up to all it has, so each lot goes to the richest seat that
    can pay, at about the runner-up's money plus one. If that gives a rival (not the viewer) its
    third luxury, the kill finishes that rival: in 8 of 600 games a kill's lots did at once."""
    money = {s: x["money"] for s, x in enumerate(view["seats"]) if x["alive"] and s != victim}
    held = {s: len(view["seats"][s]["luxuries"]) for s in money}
    for x in sorted(view["seats"][victim]["luxuries"], key=lambda y: LUXURIES[y]["price"]):
        price = LUXURIES[x]["price"]
        able = sorted((s for s in money if money[s] >= price), key=lambda s: -money[s])
        if not able:
            continue  # unsold: it leaves the game
        top = able[0]
        money[top] -= min(money[top], max(price, money[able[1]] + 1 if len(able) > 1 else price))
        held[top] += 1
        if held[top] >= LUXURIES_TO_WIN:
            return top != view["me"]
    return False


def lot_to_a_finisher(view: View) -> bool:
    """Would the lot on auction, let go by the viewer, win a rival the game? It goes to the
    standing high bidder or to a seat that can still bid (the prompt goes round until all but
    the high bidder pass), and a seat one luxury short of three wins with it."""
    a = view["auction"]
    me = view["me"]
    takers = {s for s, x in enumerate(view["seats"]) if s != me and x["alive"] and x["money"] >= a["min"]}
    if a.get("high_seat") not in (None, me):
        takers.add(a["high_seat"])
    return any(len(view["seats"][s]["luxuries"]) >= LUXURIES_TO_WIN - 1 for s in takers)


def drain_value(view: View, seat: int, take: int) -> float:
    """Taking `take` dollars from a rusher that could otherwise finish at its next turn: worth
    the race if it leaves it short."""
    s = view["seats"][seat]
    if not rushing(view, seat) or eta(view, seat) > 0:
        return 0.0
    need = sum(cheapest(view, LUXURIES_TO_WIN - len(s["luxuries"])))
    return elimination_value(view, seat) / 2 if s["money"] - min(take, s["money"]) < need else 0.0


def affordable_next(view: View, seat: int) -> list[str]:
    """The luxuries `seat` could buy at the start of its next turn, cheapest first."""
    money = view["seats"][seat]["money"]
    return sorted((x for x in view["market"] if LUXURIES[x]["price"] <= money), key=lambda x: LUXURIES[x]["price"])


def denial(view: View) -> str | None:
    """The luxury to buy now against a rusher who could finish at its next turn: the cheapest
    that stops it, counting the seats still to play before it (`finishes_after`). None when it
    does not finish anyway (a seat before it takes the cheap ones) or when nothing the seat can
    pay stops it: a denial that changes nothing only spends the money its taxes need (in round 1
    it bought the $10 luxury with its $10, the next seat would have bought it, and the first zero
    bankrupted it: 14 of its 59 denial purchases in 300 games came in games it ended bankrupt)."""
    seat, when = threat(view)
    if seat is None or when > 0:
        return None
    market = sorted(view["market"], key=lambda x: LUXURIES[x]["price"])
    if not finishes_after(view, seat, market):
        return None
    money = view["seats"][view["me"]]["money"]
    for x in market:
        if LUXURIES[x]["price"] > money:
            return None
        if not finishes_after(view, seat, [y for y in market if y != x]):
            return x
    return None


def finishes_after(view: View, rusher: int, market: list[str]) -> bool:
    """Could `rusher` buy its way to three luxuries at its next turn from `market` (cheapest
    first), after the seats between the viewer and it have played? Each of those with no
    business behind it buys the cheapest luxuries it can pay for, as a rusher does."""
    market = list(market)
    n = len(view["seats"])
    for k in range(1, n):
        seat = (view["me"] + k) % n
        s = view["seats"][seat]
        if seat == rusher:
            need = LUXURIES_TO_WIN - len(s["luxuries"])
            return len(market) >= need and sum(LUXURIES[x]["price"] for x in market[:need]) <= s["money"]
        _rush(s, market)
    return False


def _rush(seat: dict[str, Any], market: list[str]) -> None:
    """A living seat with no business behind it buys the cheapest luxuries of `market` (cheapest
    first) it can pay for, as the rushers do: they leave `market`."""
    if seat["alive"] and not seat["businesses"]:
        money = seat["money"]
        while market and LUXURIES[market[0]]["price"] <= money:
            money -= LUXURIES[market.pop(0)]["price"]


def market_at_next_turn(view: View) -> list[str]:
    """The luxuries the viewer can expect to find at its next turn, cheapest first: every other
    seat plays before then, and each with no business behind it takes the cheapest it can pay
    for (`_rush`)."""
    market = sorted(view["market"], key=lambda x: LUXURIES[x]["price"])
    n = len(view["seats"])
    for k in range(1, n):
        _rush(view["seats"][(view["me"] + k) % n], market)
    return market


def drained_short(view: View, rusher: int, take: int) -> bool:
    """Would taking `take` dollars from `rusher` now leave it unable to buy its way to three
    luxuries at its next turn (`finishes_after`, the market as it stands)?"""
    s = view["seats"][rusher]
    seats = list(view["seats"])
    seats[rusher] = dict(s, money=s["money"] - min(take, s["money"]))
    market = sorted(view["market"], key=lambda x: LUXURIES[x]["price"])
    return not finishes_after(dict(view, seats=seats), rusher, market)


#: What a move that lets the seat buy every luxury it still needs at its next turn is worth
#: (above any business: the game ends there if nobody takes the cheap ones first).
FINISH_VALUE = 30.0


def loan_finishes(view: View, gain: int) -> bool:
    """Would `gain` dollars borrowed now pay for every luxury the seat still needs at its next
    turn (the greedy rusher's winning move: two loans in round 1, three luxuries in round 2)?
    Not for the friendly seat-filler, which does not race. The reserve for the taxes before
    that turn is kept (a zero would otherwise leave it short, with the loan's marks to pay).
    The luxuries counted are those the other seats leave it (`market_at_next_turn`): in round 1
    it bought the $8 luxury, took the shark for the $10 and $12 ones with the four seats after
    it holding $10 each, found them gone, and paid $3 a turn until it went bankrupt."""
    if friendly(view):
        return False
    me = view["seats"][view["me"]]
    need = LUXURIES_TO_WIN - len(me["luxuries"])
    left = [LUXURIES[x]["price"] for x in market_at_next_turn(view)][:need]
    if luxuries_cost(view) <= me["money"] or len(left) < need:
        return False
    return me["money"] + gain - sum(left) >= taxes_ahead(view)

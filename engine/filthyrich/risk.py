"""Money sense shared by the seat-filler and the panel's warnings: how many zeros may come
before a seat's next turn, and how much money it should keep so that they do not bankrupt it.

Everything works on a VIEW (the public part of it is enough): money, holdings and the open page
are public in Filthy Rich, so the same numbers can be shown to a player and used by the AI.

Why a reserve: taxes are forced payments (digest 4.1, 4.3). Every other player's roll may show
zeros, and each 0 taxes everyone by their $ marks. A seat that spends down to a few dollars
while holding luxuries (marks that can never be sold) goes bankrupt on someone else's roll.
The seat can sell businesses in the tax window, so money plus what its businesses would sell
for is the last line of defence; money alone should cover the usual case without selling.
"""

from __future__ import annotations

import math
from typing import Any

from .data import ASSETS, BUSINESSES, LUXURIES, PAGES, SALE_PER_CARD, TAX_PER_MARK, kind

View = dict[str, Any]
Seat = dict[str, Any]

#: One business die in ten shows 0 (faces 0-9).
ZERO_CHANCE = 0.1
#: Dice per roll in the long run: the page die sends the binder to page 1-4 or leaves it, so
#: over a game the open page is about uniform over 1-4 and a roll has 2.5 dice on average.
AVERAGE_DICE = (PAGES + 1) / 2
#: How sure the money in hand should be to pay the zeros before the next turn without selling
#: (a 1-in-10 miss only means selling a business in the tax window)...
CASH_CONFIDENCE = 0.9
#: ...and how sure money plus every business sold must be to pay them (a miss is bankruptcy).
SOLVENT_CONFIDENCE = 0.995


def zeros_ahead(view: View, seat: int | None = None) -> float:
    """Expected zeros from now until `seat`'s next turn: its own roll if still to come this
    turn, and one roll of every other living seat (whose pages are unknown: 2.5 dice each)."""
    seat = view["me"] if seat is None else seat
    others = sum(1 for s, x in enumerate(view["seats"]) if x["alive"] and s != seat)
    lam = others * AVERAGE_DICE * ZERO_CHANCE
    turn = view.get("turn") or {}
    if view.get("phase") == "turn" and view.get("active") == seat and not turn.get("rolled"):
        lam += max(0, turn.get("dice", 0)) * ZERO_CHANCE
    return lam


def zeros_to_cover(lam: float, confidence: float) -> int:
    """The fewest zeros k with P(Poisson(lam) <= k) >= confidence."""
    k, term = 0, math.exp(-lam)
    total = term
    while total < confidence and k < 50:
        k += 1
        term *= lam / k
        total += term
    return k


def asset_kinds(seat: Seat) -> list[str]:
    return [a["kind"] for a in seat["assets"]]


def tax_for(seat: Seat, marks: int, zeros: int, luxuries: list[str] | None = None) -> int:
    """The tax formula (digest 4.1) for `zeros` zeros of ONE roll on a hypothetical mark count
    (and luxuries, for the doubling ones)."""
    if zeros <= 0:
        return 0
    kinds = asset_kinds(seat)
    shelter = sum(ASSETS[k]["params"]["marks"] for k in kinds if ASSETS[k]["effect"] == "tax_shelter")
    m = max(0, marks - shelter)
    times = 1 if zeros >= 2 and any(ASSETS[k]["effect"] == "one_zero_only" for k in kinds) else zeros
    lux = seat["luxuries"] if luxuries is None else luxuries
    doubles = sum(1 for x in lux if LUXURIES[x].get("special") == "double_taxes")
    return m * TAX_PER_MARK * times * 2 ** doubles


def sale_of(seat: Seat, card: str) -> int:
    per = SALE_PER_CARD
    for k in asset_kinds(seat):
        if ASSETS[k]["effect"] == "sale_per_card":
            per = max(per, ASSETS[k]["params"]["per_card"])
    return per * BUSINESSES[kind(card)]["cards"]


def fixed_marks(seat: Seat) -> int:
    """Marks that no sale can shed: assets and luxuries."""
    return sum(ASSETS[k]["marks"] for k in asset_kinds(seat)) + sum(LUXURIES[x]["marks"] for x in seat["luxuries"])


def _holding(view: View, seat: int, add_business: str | None, add_asset: str | None, add_luxury: str | None,
             drop_asset: str | None) -> tuple[Seat, int, int, int]:
    """The seat as it would be with a business, asset or luxury more (or a loan repaid):
    (seat, its $ marks, the marks no sale can shed, what its businesses would sell for)."""
    me = view["seats"][seat]
    assets = [a for a in me["assets"] if a.get("id") != drop_asset] + ([{"kind": add_asset}] if add_asset else [])
    hypo = dict(me, assets=assets, luxuries=list(me["luxuries"]) + ([add_luxury] if add_luxury else []))
    businesses = list(me["businesses"]) + ([add_business] if add_business else [])
    fixed = fixed_marks(hypo)
    marks = fixed + sum(BUSINESSES[kind(c)]["marks"] for c in businesses)
    liquid = sum(sale_of(hypo, c) for c in businesses)
    return hypo, marks, fixed, liquid


def reserve(view: View, *, add_business: str | None = None, add_asset: str | None = None,
            add_luxury: str | None = None, drop_asset: str | None = None, seat: int | None = None) -> int:
    """Money the seat should keep after a voluntary spend (with the thing bought, if any):
    enough to pay the zeros likely before its next turn from money alone, and enough that
    money plus every business sold survives nearly all of them, plus the next loan interest.
    Taxes of separate rolls add up, so k zeros cost k times one zero's tax."""
    seat = view["me"] if seat is None else seat
    hypo, marks, fixed, liquid = _holding(view, seat, add_business, add_asset, add_luxury, drop_asset)
    lam = zeros_ahead(view, seat)
    cash = tax_for(hypo, marks, 1) * zeros_to_cover(lam, CASH_CONFIDENCE)
    solvent = tax_for(hypo, fixed, 1) * zeros_to_cover(lam, SOLVENT_CONFIDENCE) - liquid
    return max(cash, solvent, 0) + view["seats"][seat]["interest"]


def taxes_ahead(view: View, seat: int | None = None, *, add_business: str | None = None,
                add_asset: str | None = None, add_luxury: str | None = None, drop_asset: str | None = None) -> int:
    """The taxes a seat can expect before its next turn (with the thing bought, if any),
    rounded up: what the panel warns a player not to spend below."""
    seat = view["me"] if seat is None else seat
    hypo, marks, _, _ = _holding(view, seat, add_business, add_asset, add_luxury, drop_asset)
    return math.ceil(tax_for(hypo, marks, 1) * zeros_ahead(view, seat))


def expected_taxes(view: View, seat: int | None = None) -> int:
    """The taxes a seat can expect before its next turn with what it holds now."""
    return taxes_ahead(view, seat)

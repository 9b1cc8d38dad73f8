"""What things are worth to Filthy Rich's seat-filler, in dollars, from its view alone: an ad by
the hits it will catch, a $ mark by the taxes it brings, money kept back by `risk.reserve`, and
the horizon all of it is counted over (the rolls still to come)."""

from __future__ import annotations

from typing import Any

from . import race, risk
from .data import ACTIONS, ASSETS, BUSINESSES, LUXURIES, PAGES, SALE_PER_CARD, TAX_PER_MARK, kind

#: Rounds a game lasts, roughly (digest 6: about 9-14); the horizon of an investment is the
#: rolls still to come (one per living player per round), discounted because ads get covered,
#: burnt or sold.
GAME_ROUNDS = 11
DISCOUNT = 0.75
#: The most rounds a slow race lets the horizon count.
LONG_GAME = 8
#: Expected zeros per roll (about 2.5 dice a roll, 1 in 10 shows 0): the tax cost of a mark.
ZERO_RATE = 0.25
#: The page is uniform-ish over 1-4 in the long run (page die 1-4 moves it, 5-6 keeps it).
PAGE_WEIGHT = 1 / PAGES

View = dict[str, Any]


def horizon(view: View) -> float:
    """Rolls an investment made now will see (discounted): one per living seat per round left,
    the rounds left being the usual length of a game, or fewer when a rusher can soon buy its
    way to three luxuries (race.rounds_left): against a rush, a business that pays back over
    ten rounds is a loss."""
    def compute() -> float:
        alive = sum(1 for s in view["seats"] if s["alive"])
        # A game nobody can finish soon runs on past the usual length: count the rounds the
        # nearest rival still needs (an ad bought at round 12 of a slow game pays as at round 2).
        usual = max(2, GAME_ROUNDS - view["round"], min(race.rival(view)[1], LONG_GAME))
        rounds = min(usual, race.rounds_left(view))
        return min(36.0, max(2.0, alive * rounds * DISCOUNT))

    return race.cached(view, "horizon", compute)


# -- reading the view --------------------------------------------------------------------------

def me_of(view: View) -> dict[str, Any]:
    return view["seats"][view["me"]]


asset_kinds = risk.asset_kinds
tax = risk.tax_for
sale = risk.sale_of


def asset_effects(seat: dict[str, Any]) -> list[str]:
    return [ASSETS[k]["effect"] for k in asset_kinds(seat)]


def reserve(view: View, **bought: str) -> int:
    """Money to keep back after a voluntary spend (with what it buys): see `risk.reserve`."""
    return race.cached(view, ("reserve", tuple(sorted(bought.items()))), lambda: risk.reserve(view, **bought))


def may_buy_luxury(view: View, luxury: str, after: int) -> bool:
    """A luxury that does not win earns nothing and its marks can never be sold: buy one only
    with an income (a business) behind it, never the tax-doubling one, and keeping the reserve."""
    if not me_of(view)["businesses"] or LUXURIES[luxury].get("special") == "double_taxes":
        return False
    return after >= reserve(view, add_luxury=luxury)


def short(view: View, after: int, **bought: str) -> float:
    """How far a spend leaving `after` dollars falls below the reserve (0: it does not)."""
    return max(0, reserve(view, **bought) - after)


#: The weight of a rival's nearness to three luxuries in what hurting it is worth.
RACE_URGENCY = 3.0

#: A play that leaves less than the reserve scores this much lower per missing dollar (and
#: never above discarding a card): taxes on other players' rolls are what bankrupts.
SHORT_PENALTY = 3.0


def payout(view: View, business_kind: str, owner: int, page: int | None = None) -> float:
    """Expected dollars of one hit for `owner`."""
    b = BUSINESSES[business_kind]
    key, args = b["hit"]["key"], b["hit"]["args"]
    seat = view["seats"][owner]
    if key == "pay":
        base = args[0]
    elif key == "pay_if_poor":
        base = args[1] if seat["money"] < args[2] else args[0]
    elif key == "pay_per_page":
        base = args[0] * (page or 2.5)
    elif key == "pay_d10":
        base = 4.5
    elif key == "pay_chain":
        base = args[0] + args[1] * len([c for c in seat["businesses"] if kind(c) != business_kind])
    else:  # skim_neighbours: the bank's part plus about half the neighbours paying
        base = args[0] + args[1] * 1.5
    bonus = sum(ASSETS[k]["params"]["bonus"] for k in asset_kinds(seat) if ASSETS[k]["effect"] == "hit_bonus")
    return base + bonus


#: Each empty sleeve above a card may later be filled by someone's ad, hiding it from there up.
COVER_RISK = 0.85


def slot_hits(binder: list[list[str | None]], page: int, slot: int, ignore: str | None = None) -> float:
    """Expected dice per roll landing on a card at (page, slot) while it shows: for each open
    page v >= page where no higher page up to v has a card in the slot, v dice x 1/10, a little
    less for every empty sleeve above it that a rival could still fill (hard-to-cover spots,
    like high pages, keep their value)."""
    total = 0.0
    keep = 1.0
    for v in range(page, PAGES + 1):
        if v > page:
            above = binder[v - 1][slot - 1]
            if above is not None and above != ignore:
                break
            keep *= COVER_RISK
        total += PAGE_WEIGHT * v / 10 * keep
    return total


def ad_value(view: View, business_kind: str, page: int, slots: list[int], ignore: str | None = None) -> float:
    """Future income of an ad at (page, slots) for me, over the horizon."""
    hits = sum(slot_hits(view["binder"], page, s, ignore) for s in slots)
    return hits * payout(view, business_kind, view["me"]) * horizon(view)


def fees(view: View, page: int, slots: list[int], ignore: str | None = None) -> int:
    me = view["me"]
    if "no_cover_fees" in asset_effects(me_of(view)):
        return 0
    total = 0
    for s in slots:
        for p in range(page - 1, 0, -1):
            sign = view["binder"][p - 1][s - 1]
            if sign is not None and sign != ignore:
                owner = view["ads"][sign]["owner"]
                if owner != me:
                    lease = [ASSETS[k]["params"]["per_card"] for k in asset_kinds(view["seats"][owner])
                             if ASSETS[k]["effect"] == "cover_fee_to_me"]
                    total += max(lease) if lease else 2
                break
    return total


def own_cover_loss(view: View, page: int, slots: list[int]) -> float:
    """Covering my own lower cards hides them on this page and above: some lost income."""
    me = view["me"]
    loss = 0.0
    for s in slots:
        for p in range(page - 1, 0, -1):
            sign = view["binder"][p - 1][s - 1]
            if sign is not None:
                ad = view["ads"][sign]
                if ad["owner"] == me:
                    loss += slot_hits(view["binder"], p, s) * payout(view, ad["kind"], me) * horizon(view) * 0.5
                break
    return loss


def marks_cost(view: View, n: int) -> float:
    return n * ZERO_RATE * horizon(view) * TAX_PER_MARK


def business_score(view: View, business_kind: str, page: int, slots: list[int], cost: int) -> float:
    b = BUSINESSES[business_kind]
    value = ad_value(view, business_kind, page, slots) - own_cover_loss(view, page, slots)
    value += SALE_PER_CARD * b["cards"] * 0.5  # what selling it later would bring back
    value -= cost + fees(view, page, slots) + marks_cost(view, b["marks"])
    if b.get("on_zero"):
        value += b["on_zero"] * ZERO_RATE * horizon(view) * 0.6
    gap = short(view, me_of(view)["money"] - cost - fees(view, page, slots), add_business=business_kind)
    if gap:
        value = min(value, 0.0) - gap * SHORT_PENALTY
    return value


def my_visible_income(view: View, v: int | None = None) -> float:
    """My expected income from one die on the current grid (or the page v if given)."""
    me = view["me"]
    if v is None or v == view["page"]:
        grid = [(g["owner"], g["kind"]) if g else None for g in view["grid"]]
        v = view["page"]
    else:
        grid = []
        for s in range(1, 10):
            cell = None
            for p in range(v, 0, -1):
                sign = view["binder"][p - 1][s - 1]
                if sign is not None:
                    cell = (view["ads"][sign]["owner"], view["ads"][sign]["kind"])
                    break
            grid.append(cell)
    total = 0.0
    for cell in grid:
        if cell and cell[0] == me:
            total += payout(view, cell[1], me, v) / 10
    return total


def leader_bonus(view: View, seat: int) -> float:
    """Hurting the player closest to winning is worth more: luxuries held, money, and how soon
    it could buy the rest (race.eta)."""
    s = view["seats"][seat]
    return 1 + 0.5 * len(s["luxuries"]) + s["money"] / 40 + RACE_URGENCY / (1 + race.eta(view, seat))



def opening_need(view: View, act: dict[str, Any]) -> int:
    """Money a play that opens a business needs (cost and fees), or 0 for other plays."""
    k = kind(act["card"])
    if k in BUSINESSES:
        return BUSINESSES[k]["cost"] + fees(view, view["page"], act["slots"])
    if k in ACTIONS and ACTIONS[k]["effect"] in ("open_discount", "open_any_page"):
        bk = kind(act["business"])
        disc = ACTIONS[k]["params"].get("discount", 0)
        return max(0, BUSINESSES[bk]["cost"] - disc) + fees(view, act.get("page", view["page"]), act["slots"])
    return 0


def keep_value(view: View, card: str) -> float:
    """What a card in hand is worth keeping for a later turn (discarding gives $1)."""
    k = kind(card)
    if k in BUSINESSES:
        return 1.5
    if k in ASSETS:
        return 0.8
    eff = ACTIONS[k]["effect"]
    if eff in ("estate_sale", "open_discount", "open_any_page", "audit", "destroy"):
        return 2.0
    return 0.7


def held_for_a_kill(view: View, card: str) -> bool:
    """Is `card` an audit the strong seat-filler keeps for the rival it would bankrupt (one
    zero's tax above its money and sales: a rusher holding luxuries and a few dollars, often
    several times a game)? Played early for the few dollars it takes, or discarded in a race
    for $1, it is gone when that moment comes."""
    k = kind(card)
    return not race.friendly(view) and k in ACTIONS and ACTIONS[k]["effect"] == "audit"


#: What discarding a card that a rusher turns into money or a luxury costs the strong
#: seat-filler beyond its keep value: a discard goes back into the deck at the next reshuffle,
#: and the greedy seat that draws a loan plays it at once (two loans in round 1, three luxuries
#: in round 2). Held instead, it stays out of play; the seat-filler still plays it when it is
#: its own best move.
HOARD_VALUE = 3.0
#: Asset and action effects a rusher plays for money now: the loans, Angel Investor, Estate
#: Sale (a luxury $4 off), Tax Refund ($1 a mark: luxuries carry marks) and Frivolous Lawsuit.
RUSHER_EFFECTS = ("loan", "gain", "estate_sale", "per_mark", "lawsuit")


def hoarded(view: View, card: str) -> bool:
    """Does the strong seat-filler keep `card` out of the discards (HOARD_VALUE)?"""
    k = kind(card)
    effect = ASSETS[k]["effect"] if k in ASSETS else ACTIONS[k]["effect"] if k in ACTIONS else None
    return not race.friendly(view) and effect in RUSHER_EFFECTS


def sell_to_reach(view: View, need: int) -> list[str]:
    """Businesses to sell (cheapest loss first) to have at least `need` dollars."""
    mine = me_of(view)
    money = mine["money"]
    out = []
    for c in sorted(mine["businesses"], key=lambda c: BUSINESSES[kind(c)]["cost"]):
        if money >= need:
            break
        out.append(c)
        money += sale(mine, c)
    return out if money >= need else []



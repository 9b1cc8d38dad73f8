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
    tax-doubling one; the third at any price;
  - in a tax window it sells the cheapest set of businesses that keeps it solvent;
  - at auction it bids the minimum while the price stays near the printed one and the reserve holds.
"""

from __future__ import annotations

import random
from typing import Any

from . import risk
from .binder import row_of
from .data import ACTIONS, ASSETS, BUSINESSES, LUXURIES, LUXURIES_TO_WIN, PAGES, SALE_PER_CARD, TAX_PER_MARK, kind

#: Rounds a game lasts, roughly (digest 6: about 9-14); the horizon of an investment is the
#: rolls still to come (one per living player per round), discounted because ads get covered,
#: burnt or sold.
GAME_ROUNDS = 11
DISCOUNT = 0.75
#: Expected zeros per roll (about 2.5 dice a roll, 1 in 10 shows 0): the tax cost of a mark.
ZERO_RATE = 0.25
#: The page is uniform-ish over 1-4 in the long run (page die 1-4 moves it, 5-6 keeps it).
PAGE_WEIGHT = 1 / PAGES

View = dict[str, Any]


def _horizon(view: View) -> float:
    alive = sum(1 for s in view["seats"] if s["alive"])
    rolls = alive * max(2, GAME_ROUNDS - view["round"])
    return min(36.0, max(6.0, rolls * DISCOUNT))


# -- reading the view --------------------------------------------------------------------------

def _me(view: View) -> dict[str, Any]:
    return view["seats"][view["me"]]


_asset_kinds = risk.asset_kinds
_tax = risk.tax_for
_sale = risk.sale_of


def _asset_effects(seat: dict[str, Any]) -> list[str]:
    return [ASSETS[k]["effect"] for k in _asset_kinds(seat)]


def _reserve(view: View, **bought: str) -> int:
    """Money to keep back after a voluntary spend (with what it buys): see `risk.reserve`."""
    return risk.reserve(view, **bought)


def _may_buy_luxury(view: View, luxury: str, after: int) -> bool:
    """A luxury that does not win earns nothing and its marks can never be sold: buy one only
    with an income (a business) behind it, never the tax-doubling one, and keeping the reserve."""
    if not _me(view)["businesses"] or LUXURIES[luxury].get("special") == "double_taxes":
        return False
    return after >= _reserve(view, add_luxury=luxury)


def _short(view: View, after: int, **bought: str) -> float:
    """How far a spend leaving `after` dollars falls below the reserve (0: it does not)."""
    return max(0, _reserve(view, **bought) - after)


#: A play that leaves less than the reserve scores this much lower per missing dollar (and
#: never above discarding a card): taxes on other players' rolls are what bankrupts.
SHORT_PENALTY = 3.0


def _payout(view: View, business_kind: str, owner: int, page: int | None = None) -> float:
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
    bonus = sum(ASSETS[k]["params"]["bonus"] for k in _asset_kinds(seat) if ASSETS[k]["effect"] == "hit_bonus")
    return base + bonus


#: Each empty sleeve above a card may later be filled by someone's ad, hiding it from there up.
COVER_RISK = 0.85


def _slot_hits(binder: list[list[str | None]], page: int, slot: int, ignore: str | None = None) -> float:
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


def _ad_value(view: View, business_kind: str, page: int, slots: list[int], ignore: str | None = None) -> float:
    """Future income of an ad at (page, slots) for me, over the horizon."""
    hits = sum(_slot_hits(view["binder"], page, s, ignore) for s in slots)
    return hits * _payout(view, business_kind, view["me"]) * _horizon(view)


def _fees(view: View, page: int, slots: list[int], ignore: str | None = None) -> int:
    me = view["me"]
    if "no_cover_fees" in _asset_effects(_me(view)):
        return 0
    total = 0
    for s in slots:
        for p in range(page - 1, 0, -1):
            sign = view["binder"][p - 1][s - 1]
            if sign is not None and sign != ignore:
                owner = view["ads"][sign]["owner"]
                if owner != me:
                    lease = [ASSETS[k]["params"]["per_card"] for k in _asset_kinds(view["seats"][owner])
                             if ASSETS[k]["effect"] == "cover_fee_to_me"]
                    total += max(lease) if lease else 2
                break
    return total


def _own_cover_loss(view: View, page: int, slots: list[int]) -> float:
    """Covering my own lower cards hides them on this page and above: some lost income."""
    me = view["me"]
    loss = 0.0
    for s in slots:
        for p in range(page - 1, 0, -1):
            sign = view["binder"][p - 1][s - 1]
            if sign is not None:
                ad = view["ads"][sign]
                if ad["owner"] == me:
                    loss += _slot_hits(view["binder"], p, s) * _payout(view, ad["kind"], me) * _horizon(view) * 0.5
                break
    return loss


def _marks_cost(view: View, n: int) -> float:
    return n * ZERO_RATE * _horizon(view) * TAX_PER_MARK


def _business_score(view: View, business_kind: str, page: int, slots: list[int], cost: int) -> float:
    b = BUSINESSES[business_kind]
    value = _ad_value(view, business_kind, page, slots) - _own_cover_loss(view, page, slots)
    value += SALE_PER_CARD * b["cards"] * 0.5  # what selling it later would bring back
    value -= cost + _fees(view, page, slots) + _marks_cost(view, b["marks"])
    if b.get("on_zero"):
        value += b["on_zero"] * ZERO_RATE * _horizon(view) * 0.6
    short = _short(view, _me(view)["money"] - cost - _fees(view, page, slots), add_business=business_kind)
    if short:
        value = min(value, 0.0) - short * SHORT_PENALTY
    return value


def _my_visible_income(view: View, v: int | None = None) -> float:
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
            total += _payout(view, cell[1], me, v) / 10
    return total


def _leader_bonus(view: View, seat: int) -> float:
    """Hurting the player closest to winning is worth more."""
    s = view["seats"][seat]
    return 1 + 0.5 * len(s["luxuries"]) + s["money"] / 40


# -- turn --------------------------------------------------------------------------------------

def _score_play(view: View, act: dict[str, Any]) -> float:
    me = view["me"]
    mine = _me(view)
    money = mine["money"]
    k = kind(act["card"])
    dice = view["turn"]["dice"]
    if k in BUSINESSES:
        return _business_score(view, k, view["page"], act["slots"], BUSINESSES[k]["cost"])
    if k in ASSETS:
        a = ASSETS[k]
        eff, p = a["effect"], a["params"]
        cost = a["cost"] + _marks_cost(view, a["marks"])
        my_cards = sum(1 for g in view["grid"] if g and g["owner"] == me)
        if eff == "hit_bonus":
            value = len(mine["businesses"]) * 1.5 * 0.2 * _horizon(view) * p["bonus"]
        elif eff == "tax_shelter":
            value = min(mine["marks"], p["marks"]) * ZERO_RATE * _horizon(view)
        elif eff == "one_zero_only":
            value = mine["marks"] * 0.03 * _horizon(view)
        elif eff == "muscle":
            rivals = sum(1 for s, g in enumerate(view["grid"], 1) if g and g["owner"] != me and row_of(s) == act["row"])
            value = rivals * 0.25 * 0.5 * _horizon(view) * p["take"]
        elif eff == "per_zero":
            value = ZERO_RATE * _horizon(view) * p["gain"]
        elif eff == "loan":
            if p["interest"]:
                near_win = len(mine["luxuries"]) >= LUXURIES_TO_WIN - 1 and any(
                    LUXURIES[x]["price"] <= money + p["gain"] for x in view["market"])
                return 8.0 if near_win and money < 10 else -6.0
            return 3.0 if money < 8 else -2.0
        elif eff == "no_cover_fees":
            value = 4
        elif eff in ("cover_fee_to_me", "fire_insurance", "lawyer", "sale_per_card"):
            value = 1.5 + my_cards * 0.3
        else:
            value = 0
        short = _short(view, money - a["cost"], add_asset=k)
        if short:
            return min(value - cost, 0.0) - short * SHORT_PENALTY
        return value - cost
    a = ACTIONS[k]
    eff, p = a["effect"], a["params"]
    if eff == "open_discount":
        bk = kind(act["business"])
        return _business_score(view, bk, view["page"], act["slots"], max(0, BUSINESSES[bk]["cost"] - p["discount"])) + 1
    if eff == "open_any_page":
        bk = kind(act["business"])
        return _business_score(view, bk, act["page"], act["slots"], BUSINESSES[bk]["cost"]) + 1
    if eff == "move_ad":
        b = act["business"]
        ad = view["ads"][BUSINESSES[kind(b)]["sign"]]
        if ad["page"] == view["page"] and sorted(ad["slots"]) == sorted(act["slots"]):
            return -5
        now = _ad_value(view, kind(b), ad["page"], ad["slots"])
        new = _ad_value(view, kind(b), view["page"], act["slots"], ignore=BUSINESSES[kind(b)]["sign"])
        return new - now - _fees(view, view["page"], act["slots"], ignore=BUSINESSES[kind(b)]["sign"])
    if eff == "set_page":
        gain = (_my_visible_income(view, act["page"]) * max(0, act["page"] + dice - view["page"])
                - _my_visible_income(view) * dice)
        zero_cost = (act["page"] - view["page"]) * 0.1 * mine["tax_per_zero"]
        return gain * 1.5 - zero_cost
    if eff == "dice":
        per_die = _my_visible_income(view) - 0.1 * mine["tax_per_zero"]
        return per_die * p["dice"] * 1.5 if dice + p["dice"] >= 0 and dice > 0 else -1
    if eff == "destroy":
        owner = view["ads"][BUSINESSES[kind(act["business"])]["sign"]]["owner"]
        if "lawyer" in _asset_effects(view["seats"][owner]):
            return 0.5
        b = BUSINESSES[kind(act["business"])]
        return b["cost"] * 0.35 * _leader_bonus(view, owner)
    if eff == "audit":
        t = view["seats"][act["target"]]
        if "lawyer" in _asset_effects(t):
            return 0.5
        due = t["tax_per_zero"]
        sale = sum(_sale(t, c) for c in t["businesses"])
        if due > t["money"] + sale:
            return 25.0 * _leader_bonus(view, act["target"])
        return due * 0.4 * _leader_bonus(view, act["target"])
    if eff == "research":
        if kind(act["business"]) in {kind(c) for c in view["discard"]}:
            b = BUSINESSES[kind(act["business"])]
            return 1.5 + b["hit"]["args"][0] * 0.3 if b["hit"]["args"] else 2.0
        return 1.2
    if eff == "extra_actions":
        return 1.5 * min(p["actions"], len(view["private"]["hand"]) - 1)
    if eff == "gain":
        return p["gain"]
    if eff == "per_business":
        return p["gain"] * len(mine["businesses"])
    if eff == "per_mark":
        return p["gain"] * mine["marks"]
    if eff == "estate_sale":
        x = LUXURIES[act["luxury"]]
        price = max(0, x["price"] - p["discount"])
        if len(mine["luxuries"]) >= LUXURIES_TO_WIN - 1:
            return 1000.0
        if not _may_buy_luxury(view, act["luxury"], money - price):
            return -5
        return 12.0 - price * 0.1
    if eff == "takeover":
        b = BUSINESSES[kind(act["business"])]
        ad = view["ads"][b["sign"]]
        if "lawyer" in _asset_effects(view["seats"][ad["owner"]]):
            return 0.3
        value = _ad_value(view, kind(act["business"]), ad["page"], ad["slots"]) - b["cost"] - _marks_cost(view, b["marks"])
        if _short(view, money - b["cost"], add_business=kind(act["business"])):
            value -= 10
        return value + b["cost"] * 0.2
    if eff == "lawsuit":
        t = view["seats"][act["target"]]
        if "lawyer" in _asset_effects(t):
            return 0.5
        return min(p["take"], t["money"]) * 1.3
    if eff == "headhunt":
        return 1.8 + 0.1 * view["seats"][act["target"]]["hand"]
    if eff == "hit_bonus_turn":
        mine_cards = sum(1 for g in view["grid"] if g and g["owner"] == me)
        return p["bonus"] * dice * mine_cards / 10 * 2
    if eff == "price_war":
        sign = BUSINESSES[kind(act["business"])]["sign"]
        owner = view["ads"][sign]["owner"]
        if "lawyer" in _asset_effects(view["seats"][owner]):
            return 0.3
        cards = sum(1 for g in view["grid"] if g and g["sign"] == sign)
        return cards * dice / 10 * _payout(view, kind(act["business"]), me, view["page"]) * 2
    if eff == "no_taxes_turn":
        return min(1.0, dice / 10 * 1.1) * mine["tax_per_zero"]
    return 0.0


def _opening_need(view: View, act: dict[str, Any]) -> int:
    """Money a play that opens a business needs (cost and fees), or 0 for other plays."""
    k = kind(act["card"])
    if k in BUSINESSES:
        return BUSINESSES[k]["cost"] + _fees(view, view["page"], act["slots"])
    if k in ACTIONS and ACTIONS[k]["effect"] in ("open_discount", "open_any_page"):
        bk = kind(act["business"])
        disc = ACTIONS[k]["params"].get("discount", 0)
        return max(0, BUSINESSES[bk]["cost"] - disc) + _fees(view, act.get("page", view["page"]), act["slots"])
    return 0


def _keep_value(view: View, card: str) -> float:
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


def _sell_to_reach(view: View, need: int) -> list[str]:
    """Businesses to sell (cheapest loss first) to have at least `need` dollars."""
    mine = _me(view)
    money = mine["money"]
    out = []
    for c in sorted(mine["businesses"], key=lambda c: BUSINESSES[kind(c)]["cost"]):
        if money >= need:
            break
        out.append(c)
        money += _sale(mine, c)
    return out if money >= need else []


def _turn(view: View, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    mine = _me(view)
    money = mine["money"]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    # 1. luxuries: the winning one at any price; otherwise the cheapest that leaves a reserve
    #    and, when a good business could be opened this turn, the money to open it.
    buys = by_type.get("buy_luxury", [])
    if buys:
        buys.sort(key=lambda a: LUXURIES[a["luxury"]]["price"])
        if len(mine["luxuries"]) >= LUXURIES_TO_WIN - 1:
            return buys[0]
        invest = 0
        for a in by_type.get("play", []):
            need = _opening_need(view, a)
            if need and _score_play(view, a) > 4:
                invest = max(invest, need)
        for a in buys:
            if _may_buy_luxury(view, a["luxury"], money - LUXURIES[a["luxury"]]["price"] - invest):
                return a
    # 2. loans: clear the shark when comfortably rich.
    for a in by_type.get("repay", []):
        p = ASSETS[kind(a["asset"])]["params"]
        if money - p["repay"] >= _reserve(view) + (5 if p["interest"] else 30):
            return a
    # 3. actions: the best play, or discard the least useful card.
    best, best_score = None, -1e9
    for a in by_type.get("play", []):
        s = _score_play(view, a)
        if s > best_score:
            best, best_score = a, s
    for a in by_type.get("discard", []):
        s = 1 - _keep_value(view, a["card"]) * 0.5
        if s > best_score:
            best, best_score = a, s
    if best is not None:
        return best
    # 4. before rolling: sell to pay interest if needed.
    if mine["interest"] > money:
        sells = _sell_to_reach(view, mine["interest"])
        if sells:
            return {"type": "sell", "business": sells[0]}
    return by_type.get("roll", legal)[0]


# -- windows -----------------------------------------------------------------------------------

def _tax_window(view: View, legal: list[dict[str, Any]]) -> dict[str, Any]:
    mine = _me(view)
    zeros = view["tax"]["zeros"]
    money = mine["money"]
    if money >= _tax(mine, mine["marks"], zeros):
        return {"type": "tax_decision", "sell": []}
    # The cheapest set of businesses whose sale keeps me solvent (subsets are few: <= 2^k).
    cards = sorted(mine["businesses"], key=lambda c: BUSINESSES[kind(c)]["cost"])
    best, best_loss = None, None
    k = len(cards)
    if k <= 10:
        for mask in range(1, 1 << k):
            chosen = [cards[i] for i in range(k) if mask >> i & 1]
            cash = money + sum(_sale(mine, c) for c in chosen)
            m = mine["marks"] - sum(BUSINESSES[kind(c)]["marks"] for c in chosen)
            if cash >= _tax(mine, m, zeros):
                loss = sum(BUSINESSES[kind(c)]["cost"] for c in chosen)
                if best_loss is None or loss < best_loss:
                    best, best_loss = chosen, loss
    else:
        chosen, cash, m = [], money, mine["marks"]
        for c in cards:
            if cash >= _tax(mine, m, zeros):
                break
            chosen.append(c)
            cash += _sale(mine, c)
            m -= BUSINESSES[kind(c)]["marks"]
        best = chosen if cash >= _tax(mine, m, zeros) else None
    return {"type": "tax_decision", "sell": best or []}


def _auction(view: View, legal: list[dict[str, Any]]) -> dict[str, Any]:
    a = view["auction"]
    mine = _me(view)
    money = mine["money"]
    lo = a["min"]
    if lo > money:
        return {"type": "pass"}
    x = LUXURIES[a["luxury"]]
    if len(mine["luxuries"]) >= LUXURIES_TO_WIN - 1:
        return {"type": "bid", "amount": lo}
    if lo <= x["price"] + 3 and _may_buy_luxury(view, a["luxury"], money - lo):
        return {"type": "bid", "amount": lo}
    return {"type": "pass"}


def choose(view: View, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if not legal:
        return {"type": "pass"}
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

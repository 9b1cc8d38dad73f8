"""Filthy Rich's seat-filler: the dollar value of playing one card (a business, an asset or an
action) from its view alone; value.py prices the parts."""

from __future__ import annotations

from typing import Any

from . import race
from . import value as V
from .binder import row_of
from .data import ACTIONS, ASSETS, BUSINESSES, DISCARD_GAIN, LUXURIES, LUXURIES_TO_WIN, kind
from .value import SHORT_PENALTY, ZERO_RATE, View


def score_play(view: View, act: dict[str, Any]) -> float:
    """What playing `act` (a legal "play") is worth to the seat, in dollars."""
    k = kind(act["card"])
    if k in BUSINESSES:
        return V.business_score(view, k, view["page"], act["slots"], BUSINESSES[k]["cost"])
    if k in ASSETS:
        return _asset(view, act, k)
    eff = ACTIONS[k]["effect"]
    for part in (_building, _attack_checked, _money):
        value = part(view, act, eff, ACTIONS[k]["params"])
        if value is not None:
            return value
    return 0.0


def _asset(view: View, act: dict[str, Any], k: str) -> float:
    """An asset: its cost and marks against what it does over the horizon."""
    me = view["me"]
    mine = V.me_of(view)
    money = mine["money"]
    a = ASSETS[k]
    eff, p = a["effect"], a["params"]
    cost = a["cost"] + V.marks_cost(view, a["marks"])
    my_cards = sum(1 for g in view["grid"] if g and g["owner"] == me)
    if eff == "hit_bonus":
        value = len(mine["businesses"]) * 1.5 * 0.2 * V.horizon(view) * p["bonus"]
    elif eff == "tax_shelter":
        value = min(mine["marks"], p["marks"]) * ZERO_RATE * V.horizon(view)
    elif eff == "one_zero_only":
        value = mine["marks"] * 0.03 * V.horizon(view)
    elif eff == "muscle":
        rivals = sum(1 for s, g in enumerate(view["grid"], 1) if g and g["owner"] != me and row_of(s) == act["row"])
        value = rivals * 0.25 * 0.5 * V.horizon(view) * p["take"]
    elif eff == "per_zero":
        value = ZERO_RATE * V.horizon(view) * p["gain"]
    elif eff == "loan":
        return _loan(view, p)
    elif eff == "no_cover_fees":
        value = 4
    elif eff in ("cover_fee_to_me", "fire_insurance", "lawyer", "sale_per_card"):
        value = 1.5 + my_cards * 0.3
    else:
        value = 0
    short = V.short(view, money - a["cost"], add_asset=k)
    if short:
        return min(value - cost, 0.0) - short * SHORT_PENALTY
    return value - cost


def _loan(view: View, p: dict[str, Any]) -> float:
    """A loan is money now against a repayment (and the shark's interest every turn). Against a
    rush it is what buys the luxuries before the rusher does; otherwise a last resort."""
    mine = V.me_of(view)
    money = mine["money"]
    if race.loan_finishes(view, p["gain"]):
        # Every luxury still needed is then paid for at the next turn's step 1, before any
        # interest or repayment falls due: the loan costs nothing if the win comes.
        return race.FINISH_VALUE
    # The shark's interest falls due every turn: at three players or more the game runs on
    # after a luxury bought with it, and a seat whose income does not cover the interest
    # goes bankrupt on it (a tenth of the seat-filler's losses among greedy seats).
    sharks_ok = (race.head_to_head(view) or not p["interest"]
                 or race.income(view, view["me"]) - mine["interest"] >= p["interest"] + 1)
    if race.racing(view) and sharks_ok and race.brings_luxury(view, p["gain"]):
        # The shark's interest runs until the race is over: my finish with the money, or the
        # rusher's, whichever comes first.
        turns = min(race.eta_with(view, p["gain"]), race.threat(view)[1]) + 1
        cost = p["interest"] * turns if p["interest"] else p["repay"] - p["gain"]
        return max(0.0, p["gain"] - cost)
    if p["interest"]:
        near_win = len(mine["luxuries"]) >= LUXURIES_TO_WIN - 1 and any(
            LUXURIES[x]["price"] <= money + p["gain"] for x in view["market"])
        return 8.0 if near_win and money < 10 else -6.0
    return 3.0 if money < 8 else -2.0


def _building(view: View, act: dict[str, Any], eff: str, p: dict[str, Any]) -> float | None:
    """Opening, moving ads, the page and the dice: income over the horizon."""
    mine = V.me_of(view)
    dice = view["turn"]["dice"]
    if eff == "open_discount":
        bk = kind(act["business"])
        return V.business_score(view, bk, view["page"], act["slots"], max(0, BUSINESSES[bk]["cost"] - p["discount"])) + 1
    if eff == "open_any_page":
        bk = kind(act["business"])
        return V.business_score(view, bk, act["page"], act["slots"], BUSINESSES[bk]["cost"]) + 1
    if eff == "move_ad":
        b = act["business"]
        ad = view["ads"][BUSINESSES[kind(b)]["sign"]]
        if ad["page"] == view["page"] and sorted(ad["slots"]) == sorted(act["slots"]):
            return -5
        now = V.ad_value(view, kind(b), ad["page"], ad["slots"])
        new = V.ad_value(view, kind(b), view["page"], act["slots"], ignore=BUSINESSES[kind(b)]["sign"])
        return new - now - V.fees(view, view["page"], act["slots"], ignore=BUSINESSES[kind(b)]["sign"])
    if eff == "set_page":
        gain = (V.my_visible_income(view, act["page"]) * max(0, act["page"] + dice - view["page"])
                - V.my_visible_income(view) * dice)
        zero_cost = (act["page"] - view["page"]) * 0.1 * mine["tax_per_zero"]
        return gain * 1.5 - zero_cost + race.zero_threat(view, act["page"] + dice - view["page"])
    if eff == "dice":
        per_die = V.my_visible_income(view) - 0.1 * mine["tax_per_zero"]
        if dice + p["dice"] < 0 or dice <= 0:
            return -1
        return per_die * p["dice"] * 1.5 + race.zero_threat(view, p["dice"])
    return None


def _attack_checked(view: View, act: dict[str, Any], eff: str, p: dict[str, Any]) -> float | None:
    """`_attack`, held below a discard when the card would leave a rival's lots to a finisher
    (`_exposes_a_finisher`)."""
    value = _attack(view, act, eff, p)
    if value is not None and eff in ("lawsuit", "audit") and _exposes_a_finisher(view, act, eff, p):
        return min(value, 0.0) - 3.0
    return value


def _exposes_a_finisher(view: View, act: dict[str, Any], eff: str, p: dict[str, Any]) -> bool:
    """Would a lawsuit, or an audit that bankrupts nobody, leave its target exposed (one zero
    then bankrupts it, race.exposed) with lots that would hand a rival its third luxury
    (race.lots_finish_a_rival, the money moved as the card moves it)? The kill audit has its
    own check; a drain that only sets up the kill for the dice had none, and the next zero
    auctioned the target's luxuries to the richest greedy seat (the seventh round's
    `drainrisk`: 8 won / 1 lost on 10,000 fresh games of the tenth round, 2 / 0 on 5,000
    more). Not for the friendly level, which does not race."""
    t = view["seats"][act["target"]]
    if race.friendly(view) or "lawyer" in V.asset_effects(t) or not t["luxuries"]:
        return False
    sale = sum(V.sale(t, c) for c in t["businesses"])
    if eff == "audit" and t["tax_per_zero"] > t["money"] + sale:
        return False  # a kill: judged in `_attack`
    take = min(p["take"] if eff == "lawsuit" else t["tax_per_zero"], t["money"])
    if t["tax_per_zero"] <= t["money"] - take + sale:
        return False
    seats = list(view["seats"])
    seats[act["target"]] = dict(t, money=t["money"] - take)
    if eff == "lawsuit":
        seats[view["me"]] = dict(seats[view["me"]], money=seats[view["me"]]["money"] + take)
    return race.lots_finish_a_rival(dict(view, seats=seats), act["target"])


def _attack(view: View, act: dict[str, Any], eff: str, p: dict[str, Any]) -> float | None:
    """Cards against a rival: worth more against the one nearest to winning."""
    me = view["me"]
    money = V.me_of(view)["money"]
    dice = view["turn"]["dice"]
    if eff == "destroy":
        owner = view["ads"][BUSINESSES[kind(act["business"])]["sign"]]["owner"]
        if "lawyer" in V.asset_effects(view["seats"][owner]):
            return 0.5
        b = BUSINESSES[kind(act["business"])]
        return b["cost"] * 0.35 * V.leader_bonus(view, owner)
    if eff == "audit":
        t = view["seats"][act["target"]]
        if "lawyer" in V.asset_effects(t):
            return 0.5
        due = t["tax_per_zero"]
        sale = sum(V.sale(t, c) for c in t["businesses"])
        if due > t["money"] + sale:
            if race.lots_finish_a_rival(view, act["target"]):
                # The kill's lots would give a rival its third luxury: held, below a discard.
                return DISCARD_GAIN - 2 * V.keep_value(view, act["card"])
            return 25.0 * V.leader_bonus(view, act["target"])
        held = V.keep_value(view, act["card"]) if V.held_for_a_kill(view, act["card"]) else 0.0
        return due * 0.4 * V.leader_bonus(view, act["target"]) - held
    if eff == "takeover":
        b = BUSINESSES[kind(act["business"])]
        ad = view["ads"][b["sign"]]
        if "lawyer" in V.asset_effects(view["seats"][ad["owner"]]):
            return 0.3
        value = V.ad_value(view, kind(act["business"]), ad["page"], ad["slots"]) - b["cost"] - V.marks_cost(view, b["marks"])
        if V.short(view, money - b["cost"], add_business=kind(act["business"])):
            value -= 10
        return value + b["cost"] * 0.2
    if eff == "lawsuit":
        t = view["seats"][act["target"]]
        if "lawyer" in V.asset_effects(t):
            return 0.5
        taken = min(p["take"], t["money"]) * 1.3 * V.leader_bonus(view, act["target"]) / 2
        return taken + race.drain_value(view, act["target"], p["take"])
    if eff == "headhunt":
        return 1.8 + 0.1 * view["seats"][act["target"]]["hand"]
    if eff == "price_war":
        sign = BUSINESSES[kind(act["business"])]["sign"]
        owner = view["ads"][sign]["owner"]
        if "lawyer" in V.asset_effects(view["seats"][owner]):
            return 0.3
        cards = sum(1 for g in view["grid"] if g and g["sign"] == sign)
        return cards * dice / 10 * V.payout(view, kind(act["business"]), me, view["page"]) * 2
    return None


def _money(view: View, act: dict[str, Any], eff: str, p: dict[str, Any]) -> float | None:
    """Cards that bring money or cards, or save taxes."""
    me = view["me"]
    mine = V.me_of(view)
    money = mine["money"]
    dice = view["turn"]["dice"]
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
        if race.racing(view):  # a luxury at a discount, in the middle of the turn: the race itself
            return 12.0 - price * 0.1 if money - price >= race.race_keep(view, act["luxury"]) else -5
        if not V.may_buy_luxury(view, act["luxury"], money - price):
            return -5
        return 12.0 - price * 0.1
    if eff == "hit_bonus_turn":
        mine_cards = sum(1 for g in view["grid"] if g and g["owner"] == me)
        return p["bonus"] * dice * mine_cards / 10 * 2
    if eff == "no_taxes_turn":
        return min(1.0, dice / 10 * 1.1) * mine["tax_per_zero"]
    return None



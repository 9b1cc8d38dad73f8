"""Playing a card from hand: what each card allows now (`options`, which `legal` lists and
`apply` checks against) and what it does (`play`).

Every choice a card needs is a field of the one `play` action: `slots` for an ad (sorted slot
numbers of one of the shape's placements), `business` (a card id, or a business kind for
Market Research), `page`, `target` (a seat), `luxury`, `row` (Muscle). Enumerating the options
and checking membership keeps `legal` and `apply` from ever disagreeing. Where an ad may go and
what placing it costs is in ads.py.
"""

from __future__ import annotations

from typing import Any

from engine.core import Chance, RuleError

from .ads import diagnose_placement, move_ad, open_business, opening_cost, placements, sign_free
from .data import ACTIONS, ASSETS, BUSINESSES, LUXURIES, PAGES, SIGN_KINDS, kind
from .table import (
    State,
    Event,
    alive_seats,
    assets_with,
    bank_pays,
    discard_asset,
    discard_business,
    draw,
    ev,
    is_business,
    marks,
    pays_bank,
    sign_of,
    take_up_to,
    transfer,
    visible_on_open_page,
)

# -- options -----------------------------------------------------------------------------------


def _hand_businesses(st: State, seat: int) -> list[str]:
    seen = set()
    out = []
    for c in st["hands"][seat]:
        if is_business(c) and c not in seen:
            seen.add(c)
            out.append(c)
    return out


def _rivals(st: State, seat: int) -> list[int]:
    return [s for s in alive_seats(st) if s != seat]


def _rival_businesses(st: State, seat: int) -> list[str]:
    return [c for s in _rivals(st, seat) for c in st["biz"][s]]


def options(st: State, seat: int, card: str) -> list[dict[str, Any]]:
    """Every complete `play` action of `card` (in the seat's hand) that is legal now."""
    k = kind(card)
    base = {"type": "play", "card": card}
    page = st["page"]
    money = st["money"][seat]
    if k in BUSINESSES:
        if not sign_free(st, k):
            return []
        return [base | {"slots": s} for s in placements(st, seat, k, page, opening_cost(k))]
    if k in ASSETS:
        a = ASSETS[k]
        if a["cost"] > money:
            return []
        if a["effect"] == "muscle":
            return [base | {"row": r} for r in (1, 2, 3)]
        return [base]
    a = ACTIONS[k]
    eff = a["effect"]
    p = a["params"]
    out: list[dict[str, Any]] = []
    if eff == "open_discount":
        for b in _hand_businesses(st, seat):
            bk = kind(b)
            if sign_free(st, bk):
                out += [base | {"business": b, "slots": s}
                        for s in placements(st, seat, bk, page, opening_cost(bk, p["discount"]))]
    elif eff == "open_any_page":
        for b in _hand_businesses(st, seat):
            bk = kind(b)
            if sign_free(st, bk):
                for pg in range(1, PAGES + 1):
                    out += [base | {"business": b, "page": pg, "slots": s}
                            for s in placements(st, seat, bk, pg, opening_cost(bk))]
    elif eff == "move_ad":
        for b in st["biz"][seat]:
            bk = kind(b)
            out += [base | {"business": b, "slots": s}
                    for s in placements(st, seat, bk, page, 0, ignore=sign_of(b))]
    elif eff == "set_page":
        out = [base | {"page": pg} for pg in range(1, PAGES + 1)]
    elif eff in ("dice", "extra_actions", "gain", "per_business", "per_mark", "hit_bonus_turn", "no_taxes_turn"):
        out = [base]
    elif eff == "destroy":
        out = [base | {"business": b} for b in _rival_businesses(st, seat) if visible_on_open_page(st, sign_of(b))]
    elif eff in ("audit", "lawsuit"):
        out = [base | {"target": s} for s in _rivals(st, seat)]
    elif eff == "headhunt":
        out = [base | {"target": s} for s in _rivals(st, seat) if st["hands"][s]]
    elif eff == "research":
        out = [base | {"business": bk} for sign, kinds in SIGN_KINDS.items() if sign not in st["ads"] for bk in kinds]
    elif eff == "estate_sale":
        out = [base | {"luxury": x} for x in st["market"] if max(0, LUXURIES[x]["price"] - p["discount"]) <= money]
    elif eff == "takeover":
        out = [base | {"business": b} for b in _rival_businesses(st, seat) if BUSINESSES[kind(b)]["cost"] <= money]
    elif eff == "price_war":
        out = [base | {"business": b} for b in _rival_businesses(st, seat)]
    return out


def playable(st: State, seat: int, card: str) -> bool:
    return bool(options(st, seat, card))


# -- checking an action ------------------------------------------------------------------------


def _int(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("bad_field", field=field)
    return value


def _str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise RuleError("bad_field", field=field)
    return value


def _slots(value: Any) -> list[int]:
    if not isinstance(value, list) or not value or len(value) > 9:
        raise RuleError("bad_field", field="slots")
    out = sorted(_int(v, "slots") for v in value)
    if len(set(out)) != len(out) or not all(1 <= v <= 9 for v in out):
        raise RuleError("bad_field", field="slots")
    return out


def normalise(st: State, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of a play action (fields of the card's kind only, slots sorted),
    or a RuleError naming what is wrong."""
    card = _str(action.get("card"), "card")
    if card not in st["hands"][seat]:
        raise RuleError("not_in_hand")
    k = kind(card)
    out: dict[str, Any] = {"type": "play", "card": card}
    if k in BUSINESSES:
        out["slots"] = _slots(action.get("slots"))
        return out
    if k in ASSETS:
        if ASSETS[k]["effect"] == "muscle":
            row = _int(action.get("row"), "row")
            if row not in (1, 2, 3):
                raise RuleError("bad_field", field="row")
            out["row"] = row
        return out
    eff = ACTIONS[k]["effect"]
    if eff in ("open_discount", "open_any_page", "move_ad"):
        out["business"] = _str(action.get("business"), "business")
        out["slots"] = _slots(action.get("slots"))
        if eff == "open_any_page":
            out["page"] = _int(action.get("page"), "page")
    elif eff == "set_page":
        out["page"] = _int(action.get("page"), "page")
    elif eff in ("destroy", "research", "takeover", "price_war"):
        out["business"] = _str(action.get("business"), "business")
    elif eff in ("audit", "lawsuit", "headhunt"):
        out["target"] = _int(action.get("target"), "target")
    elif eff == "estate_sale":
        out["luxury"] = _str(action.get("luxury"), "luxury")
    return out


def check(st: State, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """The canonical action if it is one of the card's options now; else the best reason."""
    act = normalise(st, seat, action)
    opts = options(st, seat, act["card"])
    if act in opts:
        return act
    k = kind(act["card"])
    money = st["money"][seat]
    if k in BUSINESSES:
        raise diagnose_placement(st, seat, k, st["page"], act["slots"], opening_cost(k))
    if k in ASSETS:
        raise RuleError("cant_afford", need=ASSETS[k]["cost"], money=money)
    a = ACTIONS[k]
    eff = a["effect"]
    if eff in ("open_discount", "open_any_page"):
        b = act["business"]
        if b not in st["hands"][seat] or not is_business(b):
            raise RuleError("bad_business")
        page = act.get("page", st["page"])
        if not 1 <= page <= PAGES:
            raise RuleError("bad_field", field="page")
        disc = a["params"].get("discount", 0)
        raise diagnose_placement(st, seat, kind(b), page, act["slots"], opening_cost(kind(b), disc))
    if eff == "move_ad":
        b = act["business"]
        if b not in st["biz"][seat]:
            raise RuleError("bad_business")
        raise diagnose_placement(st, seat, kind(b), st["page"], act["slots"], 0, ignore=sign_of(b))
    if eff == "set_page":
        raise RuleError("bad_field", field="page")
    if eff in ("audit", "lawsuit", "headhunt"):
        raise RuleError("bad_target")
    if eff == "estate_sale":
        if act["luxury"] not in st["market"]:
            raise RuleError("not_in_market")
        x = LUXURIES[act["luxury"]]
        raise RuleError("cant_afford", need=max(0, x["price"] - a["params"]["discount"]), money=money)
    if eff == "takeover" and any(act["business"] in st["biz"][s] for s in _rivals(st, seat)):
        raise RuleError("cant_afford", need=BUSINESSES[kind(act["business"])]["cost"], money=money)
    if eff == "destroy" and any(act["business"] in st["biz"][s] for s in _rivals(st, seat)):
        raise RuleError("not_visible")
    if eff in ("destroy", "takeover", "price_war", "research"):
        raise RuleError("bad_business")
    raise RuleError("cannot_play", card=k)


# -- doing it ----------------------------------------------------------------------------------


def _lawyer(st: State, seat: int, victim: int, card_kind: str, events: list[Event]) -> bool:
    """Lawyer on Retainer: the first targeting card against the victim does nothing."""
    lawyers = assets_with(st, victim, "lawyer")
    if not lawyers:
        return False
    discard_asset(st, victim, lawyers[0])
    events.append(ev("lawyer", seat=victim, by=seat, card=card_kind))
    return True


def _owner_of_card(st: State, business: str) -> int:
    for s in range(st["n"]):
        if business in st["biz"][s]:
            return s
    raise RuleError("bad_business")


def play(st: State, seat: int, act: dict[str, Any], events: list[Event], hooks: Any) -> None:
    """Carry out a checked play action. `hooks` gives the resolution steps that live elsewhere:
    `audit(st, target, events)` and `luxury_won(st, seat, events)`."""
    card = act["card"]
    k = kind(card)
    if k in BUSINESSES:
        open_business(st, seat, card, st["page"], act["slots"], opening_cost(k), events)
    elif k in ASSETS:
        _buy_asset(st, seat, act, events)
    else:
        _play_action(st, seat, act, events, hooks)


def _buy_asset(st: State, seat: int, act: dict[str, Any], events: list[Event]) -> None:
    """Pay for the asset and put it in front of the seat; Muscle names its row, a loan pays out."""
    card = act["card"]
    k = kind(card)
    a = ASSETS[k]
    st["hands"][seat].remove(card)
    entry = {"id": card, "row": act.get("row"), "turn": st["turn_no"]}
    e = ev("asset", seat=seat, card=k, cost=a["cost"])
    pays_bank(st, seat, a["cost"], e)
    events.append(e)
    st["assets"][seat].append(entry)
    if a["effect"] == "muscle":
        events.append(ev("muscle_row", seat=seat, row=act["row"]))
    elif a["effect"] == "loan":
        g = ev("loan", seat=seat, card=k, amount=a["params"]["gain"])
        bank_pays(st, seat, a["params"]["gain"], g)
        events.append(g)


def _play_action(st: State, seat: int, act: dict[str, Any], events: list[Event], hooks: Any) -> None:
    """Discard the action card, then do what its effect says."""
    card = act["card"]
    k = kind(card)
    eff = ACTIONS[k]["effect"]
    st["hands"][seat].remove(card)
    st["discard"].append(card)
    events.append(ev("action", seat=seat, card=k))
    if eff in ("open_discount", "open_any_page", "move_ad"):
        _place_ad(st, seat, act, events)
    elif eff == "estate_sale":
        _estate_sale(st, seat, act, events, hooks)
    elif eff == "research":
        _research(st, seat, act["business"], events)
    elif eff in ("destroy", "takeover", "price_war"):
        _hit_business(st, seat, act, events)
    elif eff in ("audit", "lawsuit", "headhunt"):
        _hit_seat(st, seat, act, events, hooks)
    else:
        _this_turn(st, seat, act, events)


def _place_ad(st: State, seat: int, act: dict[str, Any], events: list[Event]) -> None:
    """Open a business from the hand (at a discount, or on any page), or move one's ad."""
    a = ACTIONS[kind(act["card"])]
    b = act["business"]
    if a["effect"] == "open_discount":
        open_business(st, seat, b, st["page"], act["slots"], opening_cost(kind(b), a["params"]["discount"]), events)
    elif a["effect"] == "open_any_page":
        open_business(st, seat, b, act["page"], act["slots"], opening_cost(kind(b)), events)
    else:
        move_ad(st, seat, b, act["slots"], events)


def _this_turn(st: State, seat: int, act: dict[str, Any], events: list[Event]) -> None:
    """The cards that change the turn (page, dice, actions, hit bonus, taxes) or pay the seat."""
    k = kind(act["card"])
    eff = ACTIONS[k]["effect"]
    p = ACTIONS[k]["params"]
    turn = st["turn"]
    if eff == "set_page":
        st["page"] = act["page"]
        events.append(ev("detour", seat=seat, page=act["page"]))
    elif eff == "dice":
        turn["dice"] += p["dice"]
        events.append(ev("dice", seat=seat, count=max(0, st["page"] + turn["dice"])))
    elif eff == "extra_actions":
        turn["actions"] += p["actions"]
        events.append(ev("overtime", seat=seat, count=p["actions"]))
    elif eff in ("gain", "per_business", "per_mark"):
        amount = p["gain"]
        if eff == "per_business":
            amount *= len(st["biz"][seat])
        elif eff == "per_mark":
            amount *= marks(st, seat)
        g = ev("gain", seat=seat, card=k, amount=amount)
        bank_pays(st, seat, amount, g)
        events.append(g)
    elif eff == "hit_bonus_turn":
        turn["blitz"] += p["bonus"]
        events.append(ev("blitz", seat=seat, amount=turn["blitz"]))
    elif eff == "no_taxes_turn":
        turn["greased"] = True
        events.append(ev("greased", seat=seat))


def _estate_sale(st: State, seat: int, act: dict[str, Any], events: list[Event], hooks: Any) -> None:
    """Buy a luxury from the market at the card's discount."""
    x = act["luxury"]
    price = max(0, LUXURIES[x]["price"] - ACTIONS[kind(act["card"])]["params"]["discount"])
    e = ev("estate_sale", seat=seat, luxury=x, price=price)
    pays_bank(st, seat, price, e)
    events.append(e)
    st["market"].remove(x)
    st["lux"][seat].append(x)
    hooks.luxury_won(st, seat, events)


def _research(st: State, seat: int, bk: str, events: list[Event]) -> None:
    """Market Research: take a business of the kind from the deck or the discard pile (else draw
    a card), then shuffle the deck."""
    found = None
    for pile in (st["deck"], st["discard"]):
        for c in pile:
            if kind(c) == bk:
                found = c
                pile.remove(c)
                break
        if found:
            break
    if found:
        st["hands"][seat].append(found)
        events.append(ev("research_found", seat=seat, card=bk))
    else:
        events.append(ev("research_missed", seat=seat, card=bk))
        got = draw(st, seat, 1, events)
        if got:
            events.append(ev("drew", to=[seat], cards=[kind(c) for c in got]))
    Chance(st["chance"]).shuffle(st["deck"])
    st["research"] = {"seat": seat, "business": bk, "found": bool(found)}


def _hit_business(st: State, seat: int, act: dict[str, Any], events: list[Event]) -> None:
    """The cards against a rival's business (unless its owner's lawyer stops them): destroy it,
    take it over at its cost, or start a price war on it this turn."""
    k = kind(act["card"])
    eff = ACTIONS[k]["effect"]
    b = act["business"]
    owner = _owner_of_card(st, b)
    if _lawyer(st, seat, owner, k, events):
        return
    bk = kind(b)
    if eff == "destroy":
        discard_business(st, owner, b)
        events.append(ev("destroyed", seat=owner, by=seat, card=bk))
        policies = assets_with(st, owner, "fire_insurance")
        if policies:
            e = ev("insurance", seat=owner, card=bk, amount=BUSINESSES[bk]["cost"])
            bank_pays(st, owner, BUSINESSES[bk]["cost"], e)
            discard_asset(st, owner, policies[0])
            events.append(e)
    elif eff == "takeover":
        cost = BUSINESSES[bk]["cost"]
        e = ev("takeover", seat=seat, from_seat=owner, card=bk, amount=cost)
        transfer(st, seat, owner, cost, e)
        events.append(e)
        st["biz"][owner].remove(b)
        st["biz"][seat].append(b)
        st["ads"][sign_of(b)]["owner"] = seat
    else:
        st["turn"]["price_war"].append(sign_of(b))
        events.append(ev("price_war", seat=seat, from_seat=owner, card=bk))


def _hit_seat(st: State, seat: int, act: dict[str, Any], events: list[Event], hooks: Any) -> None:
    """The cards against a rival (unless its lawyer stops them): sue it for money, take a random
    card from its hand, or audit it."""
    k = kind(act["card"])
    eff = ACTIONS[k]["effect"]
    target = act["target"]
    if _lawyer(st, seat, target, k, events):
        return
    if eff == "lawsuit":
        e = ev("lawsuit", seat=seat, from_seat=target, amount=0)
        e["amount"] = take_up_to(st, target, seat, ACTIONS[k]["params"]["take"], e)
        events.append(e)
    elif eff == "headhunt":
        theirs = st["hands"][target]
        i = Chance(st["chance"]).randint(0, len(theirs) - 1)
        taken = theirs.pop(i)
        st["hands"][seat].append(taken)
        events.append(ev("headhunt", seat=seat, from_seat=target))
        events.append(ev("headhunted", to=[seat], card=kind(taken), from_seat=target))
        events.append(ev("headhunted_from", to=[target], card=kind(taken), by=seat))
    else:
        events.append(ev("audit", seat=target, by=seat))
        hooks.audit(st, target, events)

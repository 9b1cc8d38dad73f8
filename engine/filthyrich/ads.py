"""Ads in the binder: where a business's ad may go and what it costs (the opening cost and a
fee to each rival whose card it covers), and placing one, for a new business or a moved ad.

plays.py asks these questions of every card that opens a business or moves an ad, both when
listing a card's options and when carrying one out; they live here to keep that module short.
"""

from __future__ import annotations

from engine.core import RuleError

from . import binder as bd
from .data import ASSETS, BUSINESSES, COVER_FEE, kind
from .table import State, Event, assets_with, ev, has, owner_of_sign, pays_bank, sign_of, transfer

# -- placement, fees, affordability ------------------------------------------------------------


def cover_fees(st: State, seat: int, page: int, slots, ignore: str | None = None) -> list[tuple[int, int, int]]:
    """(owner, amount, slot) for each directly covered rival card. The Cousin (no fees for its
    owner) beats the Ironclad Lease (the covered owner gets more)."""
    if has(st, seat, "no_cover_fees"):
        return []
    fees = []
    for s in slots:
        below = bd.covered(st["binder"], page, s, ignore)
        if below is None:
            continue
        owner = owner_of_sign(st, below[1])
        if owner is None or owner == seat:
            continue
        leases = assets_with(st, owner, "cover_fee_to_me")
        amount = max(ASSETS[kind(a["id"])]["params"]["per_card"] for a in leases) if leases else COVER_FEE
        fees.append((owner, amount, s))
    return fees


def sign_free(st: State, business_kind: str) -> bool:
    """One sign per business: a business whose sign is in the binder cannot be opened."""
    return BUSINESSES[business_kind]["sign"] not in st["ads"]


def placements(st: State, seat: int, business_kind: str, page: int, cost: int, ignore: str | None = None) -> list[list[int]]:
    """The legal, affordable placements of the business's ad on `page` (cost + every fee)."""
    out = []
    money = st["money"][seat]
    if cost > money:
        return out
    for slots in bd.placements(BUSINESSES[business_kind]["shape"]):
        if not bd.cells_empty(st["binder"], page, slots, ignore):
            continue
        if cost + sum(f[1] for f in cover_fees(st, seat, page, slots, ignore)) <= money:
            out.append(list(slots))
    return out


def opening_cost(business_kind: str, discount: int = 0) -> int:
    return max(0, BUSINESSES[business_kind]["cost"] - discount)


def diagnose_placement(st: State, seat: int, business_kind: str, page: int, slots: list[int], cost: int,
                       ignore: str | None = None) -> RuleError:
    """The most helpful reason a placement is refused."""
    if ignore is None and not sign_free(st, business_kind):
        return RuleError("sign_in_binder", card=business_kind)
    shape = BUSINESSES[business_kind]["shape"]
    if tuple(slots) not in bd.placements(shape):
        return RuleError("bad_slots", card=business_kind)
    if not bd.cells_empty(st["binder"], page, slots, ignore):
        return RuleError("slots_taken", page=page)
    need = cost + sum(f[1] for f in cover_fees(st, seat, page, slots, ignore))
    return RuleError("cant_afford", need=need, money=st["money"][seat])


# -- placing an ad -----------------------------------------------------------------------------


def _at(slots) -> str:
    return "+".join(str(s) for s in slots)


def _pay_cover_fees(st: State, seat: int, fees: list[tuple[int, int, int]], events: list[Event]) -> None:
    for owner, amount, slot in fees:
        f = ev("fee", seat=seat, to_seat=owner, amount=amount, slot=slot)
        transfer(st, seat, owner, amount, f)
        events.append(f)


def open_business(st: State, seat: int, card: str, page: int, slots: list[int], cost: int,
                  events: list[Event]) -> None:
    """Pay the opening cost, put the card in front of the seat, place the ad, pay cover fees."""
    k = kind(card)
    sign = BUSINESSES[k]["sign"]
    fees = cover_fees(st, seat, page, slots)
    e = ev("open", seat=seat, card=k, page=page, slots=list(slots), at=_at(slots), cost=cost)
    pays_bank(st, seat, cost, e)
    events.append(e)
    st["hands"][seat].remove(card)
    st["biz"][seat].append(card)
    bd.place(st["binder"], page, slots, sign)
    st["ads"][sign] = {"card": card, "owner": seat, "page": page, "slots": list(slots)}
    _pay_cover_fees(st, seat, fees, events)


def move_ad(st: State, seat: int, business: str, slots: list[int], events: list[Event]) -> None:
    """Lift the business's ad and place it on the open page, paying fees for what it covers
    there (counted once it is lifted, so it never covers itself)."""
    sign = sign_of(business)
    old = st["ads"][sign]
    bd.lift(st["binder"], sign)
    fees = cover_fees(st, seat, st["page"], slots)
    bd.place(st["binder"], st["page"], slots, sign)
    old.update(page=st["page"], slots=list(slots))
    events.append(ev("moved", seat=seat, card=kind(business), page=st["page"], slots=list(slots), at=_at(slots)))
    _pay_cover_fees(st, seat, fees, events)

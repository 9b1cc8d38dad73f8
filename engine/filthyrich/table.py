"""State helpers shared by the play and resolution modules: money with its ledger, holdings,
taxes, the ads in the binder, and the draw pile.

Money moves only through `bank_pays`, `pays_bank` and `transfer`. Each call updates the
state's bank ledger (`bank.in`, `bank.out`) and appends `[from, to, amount]` (a seat or
"bank") to the event's `flow`, so the tests can prove that every dollar a seat gained or lost
was announced by an event that the rules produced.
"""

from __future__ import annotations

from typing import Any

from engine.core import Chance

from . import binder as bd
from .data import ACTIONS, ASSETS, BUSINESSES, CATEGORY, HAND_SIZE, LUXURIES, SALE_PER_CARD, TAX_PER_MARK, kind

State = dict[str, Any]
Event = dict[str, Any]


def ev(type_: str, **params: Any) -> Event:
    return {"type": type_, **params}


# -- money -------------------------------------------------------------------------------------

def bank_pays(st: State, seat: int, amount: int, e: Event) -> int:
    if amount <= 0:
        return 0
    st["money"][seat] += amount
    st["bank"]["out"] += amount
    e.setdefault("flow", []).append(["bank", seat, amount])
    return amount


def pays_bank(st: State, seat: int, amount: int, e: Event) -> int:
    """A payment the caller has already checked is affordable (or an all-money forfeit)."""
    if amount <= 0:
        return 0
    assert st["money"][seat] >= amount, "pays_bank beyond the seat's money"
    st["money"][seat] -= amount
    st["bank"]["in"] += amount
    e.setdefault("flow", []).append([seat, "bank", amount])
    return amount


def transfer(st: State, frm: int, to: int, amount: int, e: Event) -> int:
    if amount <= 0 or frm == to:
        return 0
    assert st["money"][frm] >= amount, "transfer beyond the payer's money"
    st["money"][frm] -= amount
    st["money"][to] += amount
    e.setdefault("flow", []).append([frm, to, amount])
    return amount


def take_up_to(st: State, frm: int, to: int, limit: int, e: Event) -> int:
    """"Take up to $N": what the victim has, never a bankruptcy."""
    return transfer(st, frm, to, min(limit, st["money"][frm]), e)


# -- holdings ----------------------------------------------------------------------------------

def asset_data(card_id: str) -> dict[str, Any]:
    return ASSETS[kind(card_id)]


def assets_with(st: State, seat: int, effect: str) -> list[dict[str, Any]]:
    """The seat's asset entries (dicts in the state) whose card has `effect`."""
    return [a for a in st["assets"][seat] if ASSETS[kind(a["id"])]["effect"] == effect]


def has(st: State, seat: int, effect: str) -> bool:
    return any(ASSETS[kind(a["id"])]["effect"] == effect for a in st["assets"][seat])


def marks(st: State, seat: int) -> int:
    """Printed $ marks on every business, asset and luxury the seat owns (not the hand)."""
    total = sum(BUSINESSES[kind(c)]["marks"] for c in st["biz"][seat])
    total += sum(ASSETS[kind(a["id"])]["marks"] for a in st["assets"][seat])
    total += sum(LUXURIES[x]["marks"] for x in st["lux"][seat])
    return total


def tax_due(st: State, seat: int, zeros: int, greased: bool = False) -> int:
    """due = max(0, marks - shelter) x (1 with an accountant and 2+ zeros, else zeros) x 2^entourages.
    Reductions apply before doubling (digest 4.1, edge case 19)."""
    if greased or zeros <= 0:
        return 0
    shelter = sum(ASSETS[kind(a["id"])]["params"]["marks"] for a in assets_with(st, seat, "tax_shelter"))
    m = max(0, marks(st, seat) - shelter)
    times = 1 if (zeros >= 2 and has(st, seat, "one_zero_only")) else zeros
    doublings = sum(1 for x in st["lux"][seat] if LUXURIES[x].get("special") == "double_taxes")
    return m * TAX_PER_MARK * times * (2 ** doublings)


def sale_value(st: State, seat: int, card_id: str) -> int:
    per = SALE_PER_CARD
    brokers = assets_with(st, seat, "sale_per_card")
    if brokers:
        per = max(ASSETS[kind(a["id"])]["params"]["per_card"] for a in brokers)
    return per * BUSINESSES[kind(card_id)]["cards"]


def sign_of(card_id: str) -> str:
    return BUSINESSES[kind(card_id)]["sign"]


def owner_of_sign(st: State, sign: str) -> int | None:
    ad = st["ads"].get(sign)
    return None if ad is None else ad["owner"]


def alive_seats(st: State) -> list[int]:
    return [s for s in range(st["n"]) if st["alive"][s]]


def seats_from(st: State, first: int) -> list[int]:
    """Living seats clockwise starting at `first` (included if alive)."""
    n = st["n"]
    return [(first + i) % n for i in range(n) if st["alive"][(first + i) % n]]


def next_alive(st: State, seat: int) -> int:
    n = st["n"]
    for i in range(1, n + 1):
        s = (seat + i) % n
        if st["alive"][s]:
            return s
    return seat


# -- ads ---------------------------------------------------------------------------------------

def remove_ad(st: State, sign: str) -> None:
    """The whole ad leaves the binder, whatever its page; its sign returns to the pile."""
    bd.lift(st["binder"], sign)
    st["ads"].pop(sign, None)


def discard_business(st: State, seat: int, card_id: str) -> None:
    """The business card leaves its owner (sold, destroyed, bankrupt) with its ad."""
    st["biz"][seat].remove(card_id)
    remove_ad(st, sign_of(card_id))
    st["discard"].append(card_id)


def discard_asset(st: State, seat: int, entry: dict[str, Any]) -> None:
    st["assets"][seat].remove(entry)
    st["discard"].append(entry["id"])


def visible_on_open_page(st: State, sign: str) -> bool:
    return bool(bd.visible_cells(st["binder"], st["page"], sign))


# -- cards -------------------------------------------------------------------------------------

def draw(st: State, seat: int, count: int, events: list[Event]) -> list[str]:
    """Draw `count` cards, reshuffling the discards into a new pile when the pile runs out."""
    got: list[str] = []
    for _ in range(count):
        if not st["deck"]:
            if not st["discard"]:
                break
            st["deck"] = st["discard"]
            st["discard"] = []
            Chance(st["chance"]).shuffle(st["deck"])
            events.append(ev("reshuffle", count=len(st["deck"])))
        got.append(st["deck"].pop())
    st["hands"][seat].extend(got)
    return got


def refill(st: State, seat: int, events: list[Event]) -> None:
    """End of turn: draw back up to the hand size (a hand of 5 or more draws nothing)."""
    need = HAND_SIZE - len(st["hands"][seat])
    if need <= 0:
        return
    got = draw(st, seat, need, events)
    events.append(ev("draw", seat=seat, count=len(got)))
    if got:
        events.append(ev("drew", to=[seat], cards=[kind(c) for c in got]))


def is_business(card_id: str) -> bool:
    return CATEGORY.get(kind(card_id)) == "business"


def is_asset(card_id: str) -> bool:
    return CATEGORY.get(kind(card_id)) == "asset"


def is_action(card_id: str) -> bool:
    return CATEGORY.get(kind(card_id)) == "action"


def action_data(card_id: str) -> dict[str, Any]:
    return ACTIONS[kind(card_id)]

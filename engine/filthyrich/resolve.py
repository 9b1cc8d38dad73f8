"""Everything after the active player presses Roll, and the steps that can interrupt a turn:
interest, business dice and hits, zero payouts, the tax step with its sell window, audits,
bankruptcy, the luxury auction, the page die, the draw and the next turn.

Resolution is instant except where a window opens (a tax or audit sell window, an auction
prompt). Then it stops with `st["resume"]` saying how to go on, and `proceed` continues once
the window's business is done.
"""

from __future__ import annotations

from typing import Any

from engine.core import Chance

from . import binder as bd
from .data import (
    ACTIONS_PER_TURN,
    ASSETS,
    BID_INCREMENT,
    BUSINESSES,
    LUXURIES,
    LUXURIES_TO_WIN,
    LUXURY_RANK,
    PAGE_DIE_SIDES,
    PAGES,
    kind,
)
from .table import (
    Event,
    State,
    alive_seats,
    assets_with,
    bank_pays,
    discard_business,
    ev,
    next_alive,
    pays_bank,
    refill,
    sale_value,
    seats_from,
    take_up_to,
    tax_due,
)


def new_turn_flags(actions: int) -> dict[str, Any]:
    return {"actions": actions, "acted": False, "dice": 0, "blitz": 0, "price_war": [], "greased": False,
            "rolled": False}


# -- selling -----------------------------------------------------------------------------------


def sell(st: State, seat: int, card: str, events: list[Event]) -> None:
    """$2 per ad card ($3 with a broker), the whole ad leaves, the card is discarded."""
    amount = sale_value(st, seat, card)
    e = ev("sell", seat=seat, card=kind(card), amount=amount)
    discard_business(st, seat, card)
    bank_pays(st, seat, amount, e)
    events.append(e)


# -- the end -----------------------------------------------------------------------------------


def game_over(st: State, winners: list[int], reason: str, events: list[Event]) -> None:
    st["phase"] = "over"
    st["winners"] = sorted(winners)
    st["end"] = reason
    st["tax"] = None
    st["auction"] = None
    st["resume"] = None
    events.append(ev("win", winners=sorted(winners), reason=reason))


def luxury_won(st: State, seat: int, events: list[Event]) -> None:
    """A third luxury wins the instant it is owned (bought, Estate Sale or auction)."""
    if len(st["lux"][seat]) >= LUXURIES_TO_WIN and st["phase"] != "over":
        game_over(st, [seat], "luxuries", events)


def tie_break(st: State, seats: list[int], money: dict[int, int]) -> list[int]:
    """Most luxuries, then the higher luxury total, then the most money; still tied: shared."""
    def key(s: int) -> tuple[int, int, int]:
        lux = st["lux"][s]
        return (len(lux), sum(LUXURIES[x]["price"] for x in lux), money[s])
    best = max(key(s) for s in seats)
    return [s for s in seats if key(s) == best]


# -- windows -----------------------------------------------------------------------------------


def _open_window(st: State, phase: str) -> None:
    st["phase"] = phase
    st["win"] += 1


def start_tax(st: State, kind_: str, zeros: int, scope: list[int], resume: str, events: list[Event]) -> None:
    """A tax step (kind "tax", for the zeros of a roll) or an audit (one seat, as one 0).
    Every seat in scope that owns a business first answers sell-or-keep."""
    pending = [s for s in scope if st["biz"][s]]
    st["tax"] = {"kind": kind_, "zeros": zeros, "scope": list(scope), "pending": pending, "answered": []}
    st["resume"] = resume
    if pending:
        _open_window(st, kind_)
        events.append(ev("tax_window" if kind_ == "tax" else "audit_window", seats=list(pending), zeros=zeros))
    else:
        pay_taxes(st, events)


def answer_tax(st: State, seat: int, sells: list[str], events: list[Event]) -> None:
    for card in sells:
        sell(st, seat, card, events)
    tx = st["tax"]
    tx["pending"].remove(seat)
    tx["answered"].append(seat)
    events.append(ev("tax_answer", seat=seat, cards=[kind(c) for c in sells]) if sells else ev("tax_keep", seat=seat))
    if not tx["pending"]:
        pay_taxes(st, events)


def pay_taxes(st: State, events: list[Event]) -> None:
    """Everyone in scope pays at once, after the whole window; all bankruptcies of the step
    are found first and carried out together."""
    tx = st["tax"]
    before = {s: st["money"][s] for s in range(st["n"])}
    greased_seat = st["active"] if (tx["kind"] == "tax" and st["turn"]["greased"]) else None
    broke: list[int] = []
    owed: dict[int, int] = {}
    for s in seats_from(st, st["active"]):
        if s not in tx["scope"]:
            continue
        due = tax_due(st, s, tx["zeros"], greased=(s == greased_seat))
        if due <= 0:
            continue
        if st["money"][s] < due:
            broke.append(s)
            owed[s] = due
            continue
        e = ev("tax", seat=s, amount=due)
        pays_bank(st, s, due, e)
        events.append(e)
    st["tax"] = None
    st["phase"] = "resolving"
    if broke:
        bankrupt(st, broke, before, owed, events)
    else:
        proceed(st, events)


# -- bankruptcy and auctions -------------------------------------------------------------------


def bankrupt(st: State, seats: list[int], money_before: dict[int, int], owed: dict[int, int],
             events: list[Event]) -> None:
    """Out of the game: money to the bank, every card to the discards, ads out of the binder.
    Last standing is checked before any auction; luxuries are auctioned only if play goes on."""
    order = [s for s in seats_from_all(st, st["active"]) if s in seats]
    for s in order:
        e = ev("bankrupt", seat=s, owed=owed.get(s, 0), money=st["money"][s])
        pays_bank(st, s, st["money"][s], e)
        events.append(e)
        st["discard"].extend(st["hands"][s])
        st["hands"][s] = []
        for card in list(st["biz"][s]):
            discard_business(st, s, card)
        for entry in list(st["assets"][s]):
            st["assets"][s].remove(entry)
            st["discard"].append(entry["id"])
        st["alive"][s] = False
        st["out"].append(s)
    living = alive_seats(st)
    if len(living) == 1:
        game_over(st, living, "last_standing", events)
        return
    if not living:
        game_over(st, tie_break(st, order, money_before), "tie_break", events)
        return
    for s in order:
        lots = sorted(st["lux"][s], key=lambda x: LUXURY_RANK[x])
        st["lux"][s] = []
        st["lots"].extend({"lux": x, "from": s} for x in lots)
    next_lot(st, events)


def seats_from_all(st: State, first: int) -> list[int]:
    n = st["n"]
    return [(first + i) % n for i in range(n)]


def next_lot(st: State, events: list[Event]) -> None:
    """Auction the pending lots, cheapest first, each to the living seats clockwise from the
    bankrupt player's left. Stops at a bidder's prompt; resumes with `proceed` when done."""
    while st["lots"] and st["phase"] != "over":
        lot = st["lots"].pop(0)
        x = lot["lux"]
        order = seats_from(st, (lot["from"] + 1) % st["n"])
        st["auction"] = {"lux": x, "from": lot["from"], "order": order, "idx": 0, "high": None,
                         "high_seat": None, "passes": 0, "seat": None, "min": LUXURIES[x]["price"]}
        events.append(ev("lot", luxury=x, from_seat=lot["from"], price=LUXURIES[x]["price"]))
        if advance_auction(st, events):
            return
    st["auction"] = None
    if st["phase"] != "over":
        proceed(st, events)


def advance_auction(st: State, events: list[Event]) -> bool:
    """Move the prompt on. True when a seat must now bid or pass; False when the lot is done."""
    a = st["auction"]
    x = a["lux"]
    price = LUXURIES[x]["price"]
    while True:
        if a["high"] is None and a["passes"] >= len(a["order"]):
            st["removed"].append(x)
            events.append(ev("unsold", luxury=x))
            return False
        seat = a["order"][a["idx"] % len(a["order"])]
        if seat == a["high_seat"]:
            e = ev("won_lot", seat=seat, luxury=x, amount=a["high"])
            pays_bank(st, seat, a["high"], e)
            st["lux"][seat].append(x)
            events.append(e)
            luxury_won(st, seat, events)
            return False
        minimum = price if a["high"] is None else a["high"] + BID_INCREMENT
        if st["money"][seat] < minimum:
            events.append(ev("auto_pass", seat=seat, luxury=x))
            a["passes"] += 1
            a["idx"] += 1
            continue
        a["seat"] = seat
        a["min"] = minimum
        _open_window(st, "auction")
        return True


def bid(st: State, seat: int, amount: int, events: list[Event]) -> None:
    a = st["auction"]
    a["high"] = amount
    a["high_seat"] = seat
    a["idx"] += 1
    a["seat"] = None
    events.append(ev("bid", seat=seat, amount=amount, luxury=a["lux"]))
    st["phase"] = "resolving"
    if not advance_auction(st, events):
        next_lot(st, events)


def pass_bid(st: State, seat: int, events: list[Event]) -> None:
    a = st["auction"]
    a["passes"] += 1
    a["idx"] += 1
    a["seat"] = None
    events.append(ev("pass", seat=seat, luxury=a["lux"]))
    st["phase"] = "resolving"
    if not advance_auction(st, events):
        next_lot(st, events)


# -- continuing after a window -----------------------------------------------------------------


def proceed(st: State, events: list[Event]) -> None:
    if st["phase"] == "over":
        return
    resume = st["resume"]
    st["resume"] = None
    if resume == "turn":
        # Back to the auditor's turn: the same turn window (and deadline) goes on.
        st["phase"] = "turn"
        return
    if resume == "after_roll" and st["alive"][st["active"]]:
        page_die(st, events)
        refill(st, st["active"], events)
    next_turn(st, events)


def page_die(st: State, events: list[Event]) -> None:
    d = Chance(st["chance"]).die(PAGE_DIE_SIDES)
    if d <= PAGES:
        st["page"] = d
    if st["roll"] is not None:
        st["roll"]["page_die"] = d
        st["roll"]["next_page"] = st["page"]
    events.append(ev("page_die" if d <= PAGES else "page_stay", seat=st["active"], die=d, page=st["page"]))


def next_turn(st: State, events: list[Event]) -> None:
    """Play passes clockwise to the next living seat; a round ends when it passes the start seat."""
    n = st["n"]
    old = st["active"]
    new = next_alive(st, old)
    if (new - st["start"]) % n <= (old - st["start"]) % n:
        st["round"] += 1
        limit = st["options"].get("round_limit")
        if limit and st["round"] > limit:
            living = alive_seats(st)
            game_over(st, tie_break(st, living, {s: st["money"][s] for s in living}), "round_limit", events)
            return
    st["active"] = new
    st["turn_no"] += 1
    st["turn"] = new_turn_flags(ACTIONS_PER_TURN)
    _open_window(st, "turn")
    st["turn_win"] = st["win"]
    events.append(ev("turn", seat=new, page=st["page"], round=st["round"]))


# -- the roll ----------------------------------------------------------------------------------


def dice_count(st: State) -> int:
    return max(0, st["page"] + st["turn"]["dice"])


def interest_due(st: State, seat: int) -> int:
    """Loan interest charged at this seat's roll: each loan played on an earlier turn."""
    total = 0
    for a in assets_with(st, seat, "loan"):
        if a["turn"] < st["turn_no"] or seat != st["active"]:
            total += ASSETS[kind(a["id"])]["params"]["interest"]
    return total


def roll(st: State, events: list[Event]) -> None:
    seat = st["active"]
    st["turn"]["rolled"] = True
    st["phase"] = "resolving"
    st["roll"] = None
    due = interest_due(st, seat)
    if due:
        if st["money"][seat] < due:
            st["resume"] = "next_turn"
            events.append(ev("interest_unpaid", seat=seat, amount=due))
            bankrupt(st, [seat], {s: st["money"][s] for s in range(st["n"])}, {seat: due}, events)
            return
        e = ev("interest", seat=seat, amount=due)
        pays_bank(st, seat, due, e)
        events.append(e)
    n = dice_count(st)
    dice = [d - 1 for d in Chance(st["chance"]).dice(n, 10)] if n else []
    st["roll"] = {"seat": seat, "page": st["page"], "dice": dice, "hits": [], "zeros": dice.count(0),
                  "page_die": None, "next_page": None}
    events.append(ev("roll", seat=seat, page=st["page"], dice=dice, count=n, faces=" ".join(map(str, dice)) or "-"))
    for i, d in enumerate(dice):
        if d:
            hit(st, i, d, events)
    zeros = dice.count(0)
    if zeros:
        zero_payouts(st, zeros, events)
        start_tax(st, "tax", zeros, alive_seats(st), "after_roll", events)
    else:
        st["resume"] = "after_roll"
        proceed(st, events)


def hit(st: State, index: int, slot: int, events: list[Event]) -> None:
    """One die on slot 1-9 of the open page: the visible card there earns its business once."""
    v = st["page"]
    rec: dict[str, Any] = {"die": index, "slot": slot, "sign": None, "page": None, "seat": None, "amount": 0}
    st["roll"]["hits"].append(rec)
    top = bd.top(st["binder"], v, slot)
    if top is None:
        return
    page, sign = top
    ad = st["ads"][sign]
    owner = ad["owner"]
    k = kind(ad["card"])
    b = BUSINESSES[k]
    turn = st["turn"]
    x = st["active"] if sign in turn["price_war"] else owner
    key, args = b["hit"]["key"], b["hit"]["args"]
    if key == "pay":
        base = args[0]
    elif key == "pay_if_poor":
        base = args[1] if st["money"][x] < args[2] else args[0]
    elif key == "pay_per_page":
        base = args[0] * v
    elif key == "pay_d10":
        base = Chance(st["chance"]).randint(0, 9)
    elif key == "pay_chain":
        others = [c for c in st["biz"][x] if BUSINESSES[kind(c)]["sign"] != sign]
        base = args[0] + args[1] * len(others)
    elif key == "skim_neighbours":
        base = args[0]
    else:  # pragma: no cover - data.py refuses unknown keys at import
        raise AssertionError(key)
    bonus = sum(ASSETS[kind(a["id"])]["params"]["bonus"] for a in assets_with(st, x, "hit_bonus"))
    if x == st["active"]:
        bonus += turn["blitz"]
    total = base + bonus
    e = ev("hit" if x == owner else "hit_war", slot=slot, card=k, seat=x, amount=total, page=page)
    bank_pays(st, x, total, e)
    events.append(e)
    rec.update(sign=sign, page=page, seat=x, amount=total, owner=owner)
    if key == "skim_neighbours":
        seen = {sign}
        for nb in bd.neighbours(slot):
            t = bd.top(st["binder"], v, nb)
            if t is None or t[1] in seen:
                continue
            seen.add(t[1])
            rival = st["ads"][t[1]]["owner"]
            if rival == x:
                continue
            s = ev("skim", seat=x, from_seat=rival, card=kind(st["ads"][t[1]]["card"]), amount=0)
            s["amount"] = take_up_to(st, rival, x, args[1], s)
            rec["amount"] += s["amount"]
            events.append(s)
    row = bd.row_of(slot)
    for s in seats_from(st, st["active"]):
        if s == x:
            continue
        for a in assets_with(st, s, "muscle"):
            if a["row"] == row:
                m = ev("muscle", seat=s, from_seat=x, amount=0, row=row)
                m["amount"] = take_up_to(st, x, s, ASSETS[kind(a["id"])]["params"]["take"], m)
                events.append(m)


def zero_payouts(st: State, zeros: int, events: list[Event]) -> None:
    """For each 0: visible on_zero businesses pay their owners (never Price War), bonds pay."""
    grid = bd.view(st["binder"], st["page"])
    done: set[str] = set()
    for t in grid:
        if t is None or t[1] in done:
            continue
        done.add(t[1])
        ad = st["ads"][t[1]]
        per = BUSINESSES[kind(ad["card"])].get("on_zero")
        if per:
            e = ev("zero_payout", seat=ad["owner"], card=kind(ad["card"]), amount=per * zeros)
            bank_pays(st, ad["owner"], per * zeros, e)
            events.append(e)
    for s in seats_from(st, st["active"]):
        for a in assets_with(st, s, "per_zero"):
            amount = ASSETS[kind(a["id"])]["params"]["gain"] * zeros
            e = ev("bonds", seat=s, amount=amount)
            bank_pays(st, s, amount, e)
            events.append(e)


def audit(st: State, target: int, events: list[Event]) -> None:
    """Taxman's Surprise Visit: the target alone goes through a tax step for one 0; the
    auditor's turn resumes afterwards."""
    start_tax(st, "audit", 1, [target], "turn", events)

"""Black Friday's views: what a seat (or the public, seat None) may see of a state.

Privacy (the product owner's rule, stricter than the digest's section 8): a player's holdings,
money, subsidy units, silver and gold are only in that player's `private` part. Public: the
board (markers, level, silver, purchase count, market, tables, WSJ stock, the bag's size and
black count), each seat's owed-interest flag and unused special options, and the results.
"""

from __future__ import annotations

from typing import Any

from .board import must_settle, prices, subsidy_room, unused_options
from .data import COLOURS, LEVELS, NC, SILVER


def build(state: dict, seat: int | None, title: str, to_act: list[int]) -> dict:
    over = state["phase"] == "over"
    cur = prices(state)
    sub, act, draw = LEVELS[state["level"]]
    col = lambda vec: {COLOURS[c]: vec[c] for c in range(NC)}  # noqa: E731
    seats = []
    for s, p in enumerate(state["players"]):
        info = {
            "start": s == state["start"],
            "debt": p["owed"] > 0,
            "cards": unused_options(state, s),
            "special": sorted({o for card in unused_options(state, s) for o in card}),
        }
        if over:
            info["final"] = dict(state["final"][s])
        seats.append(info)
    view: dict[str, Any] = {
        "title": title,
        "phase": state["phase"],
        "me": seat,
        "over": over,
        "to_act": to_act,
        "active": None if over else state["active"],
        "start": state["start"],
        "turn": state["turn"],
        "acted": state["acted"],
        "setup_left": state["setup_left"],
        "players": state["n"],
        "level": state["level"],
        "limits": {"subsidy": sub, "action": act, "draw": draw},
        "prices": {COLOURS[c]: {"row": state["cells"][c][0], "col": state["cells"][c][1], "price": cur[c]}
                   for c in range(NC)},
        "silver": {"index": state["silver"], "price": SILVER[state["silver"]]},
        "purchases": state["purchases"],
        "market": col(state["market"]),
        "tables": {
            "buy": col(state["buy"]),
            "silver": col(state["silver_table"]),
            "sell": [dict(col(state["sell"][t]), black=state["sell_black"][t]) for t in range(3)],
        },
        "sell_current": state["sell_cur"] + 1,
        "sell_used": state["sell_k"],
        "wsj": state["wsj"],
        "bag": {"size": sum(state["bag"]) + state["bag_black"], "black": state["bag_black"]},
        "out": col(state["out"]),
        "triggers": {"table": 6 if state["n"] == 5 else 5, "sell": 4 if state["n"] == 5 else 5},
        "last_draw": None if state["last_draw"] is None else {
            "seat": state["last_draw"]["seat"], "bags": col(state["last_draw"]["bags"]),
            "black": state["last_draw"]["black"]},
        "adjustments": state["adjustments"],
        "history": state["history"],
        "end": state["end"],
        "seats": seats,
    }
    if seat is not None and 0 <= seat < state["n"]:
        p = state["players"][seat]
        view["private"] = {
            "bags": col(p["bags"]),
            "money": p["money"],
            "units": p["units"],
            "owed": p["owed"],
            "silver": p["silver"],
            "gold": p["gold"],
            "cards": unused_options(state, seat),
            "subsidy_room": subsidy_room(state, seat),
            "must_settle": must_settle(state, seat),
        }
    return view

"""Enumerating the legal actions of the active seat.

Buys and sells choose a multiset of colours (up to the per-action limit, +1 with a special
card), then one or two follow-up colours (the extra bag; the lowered colour and the sell-table
bag). At the top levels the full product passes 2,000 entries, so when the list would be longer
than BUDGET the follow-up colours are listed with their first choice only; `apply` accepts
every legal follow-up choice all the same.
"""

from __future__ import annotations

from functools import lru_cache

from .board import (
    act_limit,
    holdings,
    must_settle,
    prices,
    special_card,
    stuck_in_debt,
    subsidy_room,
)
from .data import COLOURS, NC, SILVER

BUDGET = 1500


@lru_cache(maxsize=8192)
def _bag_items(vec: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    return tuple((COLOURS[c], k) for c, k in enumerate(vec) if k)


def extra_choices(market: list[int], vec) -> list[int | None]:
    """The extra bag of a buy: a colour just bought still in the market; if none is left, any
    colour; with an empty market, none."""
    left = [market[c] - vec[c] for c in range(NC)]
    bought = [c for c in range(NC) if vec[c] and left[c] > 0]
    if bought:
        return bought
    anyc = [c for c in range(NC) if left[c] > 0]
    return anyc or [None]


def take_choices(table: list[int], vec) -> list[int | None]:
    """The sell-table bag: a sold colour the table holds; else any colour on it; else none."""
    sold = [c for c in range(NC) if vec[c] and table[c] > 0]
    if sold:
        return sold
    anyc = [c for c in range(NC) if table[c] > 0]
    return anyc or [None]


@lru_cache(maxsize=4096)
def vectors(avail: tuple[int, ...], size: int, cost: tuple[int, ...] | None = None, money: int = 0) -> tuple[tuple[int, ...], ...]:
    """Count vectors with 1..size bags in all, at most avail[c] of colour c, and (with cost)
    costing at most money. Cached: the harness and the panel ask again and again."""
    out: list[tuple[int, ...]] = []
    vec = [0] * NC

    def rec(c: int, left: int, spent: int) -> None:
        if c == NC:
            if left < size:
                out.append(tuple(vec))
            return
        top = min(avail[c], left)
        if cost is not None:
            top = min(top, (money - spent) // cost[c])
        for k in range(top + 1):
            vec[c] = k
            rec(c + 1, left - k, spent + (k * cost[c] if cost is not None else 0))
        vec[c] = 0

    rec(0, size, 0)
    out.sort(key=sum)
    return tuple(out)


def _size(state, seat: int, option: str) -> int:
    limit = act_limit(state)
    if special_card(state, seat, option) is not None:
        limit += 1
    return limit


def buy_vectors(state, seat: int) -> tuple[tuple[int, ...], ...]:
    return vectors(tuple(state["market"]), _size(state, seat, "buy"), tuple(prices(state)),
                   state["players"][seat]["money"])


def sell_vectors(state, seat: int) -> tuple[tuple[int, ...], ...]:
    return vectors(tuple(state["players"][seat]["bags"]), _size(state, seat, "sell"))


@lru_cache(maxsize=8192)
def _parts(vec: tuple[int, ...]) -> tuple[dict[str, int], tuple[int, ...], tuple[str, ...]]:
    """A vector's bags as the action's dict (shared by every action that carries it, like the
    actions themselves: never edited), the colours in it and their names."""
    held = tuple(c for c in range(NC) if vec[c])
    return dict(_bag_items(vec)), held, tuple(COLOURS[c] for c in held)


def _buy_rows(market, vectors) -> list[tuple[dict, list]]:
    """Each buy's bags and the names of its extra bag's colours (`extra_choices`, for every
    vector at once)."""
    rows = []
    for v in vectors:
        bags, held, _ = _parts(v)
        extras = [COLOURS[c] for c in held if market[c] > v[c]] \
            or [COLOURS[c] for c in range(NC) if market[c] > v[c]] or [None]
        rows.append((bags, extras))
    return rows


def _sell_rows(table, vectors) -> list[tuple[dict, tuple, list]]:
    """Each sell's bags, the names of its lowered colours and of its table bag (`take_choices`)."""
    anyc = [COLOURS[c] for c in range(NC) if table[c] > 0] or [None]
    rows = []
    for v in vectors:
        bags, held, names = _parts(v)
        rows.append((bags, names, [COLOURS[c] for c in held if table[c] > 0] or anyc))
    return rows


def buys(rows, full: bool) -> list[dict]:
    if full:
        return [{"type": "buy", "bags": bags, "extra": e} for bags, extras in rows for e in extras]
    return [{"type": "buy", "bags": bags, "extra": extras[0]} for bags, extras in rows]


def _sell_pairs(lowers, takes, mode: int) -> list[tuple[str, str | None]]:
    """(lowered colour, table bag) pairs. mode 2: every pair; 1: every lowered colour with
    itself as the table bag when the table has it (else the first); 0: the first pair."""
    if mode == 2:
        return [(lo, tk) for lo in lowers for tk in takes]
    pairs = [(lo, lo if lo in takes else takes[0]) for lo in lowers]
    return pairs if mode == 1 else pairs[:1]


def sells(rows, mode: int) -> list[dict]:
    if mode == 2:  # the common case, without the pairs in between
        return [{"type": "sell", "bags": bags, "lower": lo, "take": tk}
                for bags, lowers, takes in rows for lo in lowers for tk in takes]
    return [{"type": "sell", "bags": bags, "lower": lo, "take": tk}
            for bags, lowers, takes in rows for lo, tk in _sell_pairs(lowers, takes, mode)]


def _count_buys(rows, full: bool) -> int:
    return sum(len(extras) for _, extras in rows) if full else len(rows)


def _count_sells(rows, mode: int) -> int:
    if mode == 0:
        return len(rows)
    if mode == 1:
        return sum(len(lowers) for _, lowers, _ in rows)
    return sum(len(lowers) * len(takes) for _, lowers, takes in rows)


_CACHE: dict[tuple, tuple[dict, ...]] = {}
#: Entries kept: the repeated asks come about the same state in quick succession, and an entry
#: can hold 1,500 actions (~0.4 MB): 256 of them grew a bot with many games by ~100 MB.
_CACHE_SIZE = 32


def _key(state, seat: int) -> tuple:
    """Everything the legal list depends on."""
    p = state["players"][seat]
    return (state["phase"], seat, state["acted"], state["level"], state["silver"], state["sell_cur"],
            tuple(state["market"]), tuple(map(tuple, state["cells"])), tuple(state["sell"][state["sell_cur"]]),
            tuple(p["bags"]), p["money"], p["units"], p["owed"],
            tuple((tuple(c["options"]), c["used"]) for c in p["cards"]), state["n"])


def legal(state, seat: int) -> list[dict]:
    """Cached by what it depends on (the harness, the AI and the panel ask about the same state
    many times). Each caller gets its own list of SHARED action dicts: read them, never edit
    one (build a new action instead; tests/engine/test_blackfriday_legal_shared.py plays whole
    games through the engine and the panels and checks the cache never changed). Copying the
    up to 1,500 dicts on every ask was a seventh of the process's CPU in the many-games
    benchmark (py-spy)."""
    if state["phase"] == "over" or seat != state["active"]:
        return []
    key = _key(state, seat)
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        hit = _CACHE[key] = tuple(_legal(state, seat))
    return list(hit)


def _legal(state, seat: int) -> list[dict]:
    market = state["market"]
    in_market = [c for c in range(NC) if market[c] > 0]
    if state["phase"] == "setup":
        return [{"type": "setup_bag", "colour": COLOURS[c]} for c in in_market] or [{"type": "setup_bag", "colour": None}]

    acts: list[dict] = [{"type": "subsidy", "units": k} for k in range(1, subsidy_room(state, seat) + 1)]
    settle = must_settle(state, seat)
    if not settle and in_market and special_card(state, seat, "pass") is not None:
        acts += [{"type": "special_pass", "colour": COLOURS[c]} for c in in_market]
    if state["acted"]:
        acts.append({"type": "end_turn"})
        return acts

    if holdings(state, seat):
        svec = sell_vectors(state, seat)
    else:
        svec = []
    bvec = [] if settle or stuck_in_debt(state, seat) else buy_vectors(state, seat)
    # Fit the follow-up choices into the budget (see the module note): first narrow the
    # sell-table bag, then the extra bag, then the lowered colour.
    room = BUDGET - len(acts) - 80
    brows = _buy_rows(market, bvec)
    srows = _sell_rows(state["sell"][state["sell_cur"]], svec)
    full_buy, sell_mode = True, 2
    for full_buy, sell_mode in ((True, 2), (True, 1), (False, 1), (False, 0)):
        if _count_buys(brows, full_buy) + _count_sells(srows, sell_mode) <= room:
            break
    acts += sells(srows, sell_mode)
    acts += buys(brows, full_buy)

    if not settle and not stuck_in_debt(state, seat):
        money = state["players"][seat]["money"]
        price = SILVER[state["silver"]]
        colours = [COLOURS[c] for c in in_market] or [None]
        for q in range(1, _size(state, seat, "silver") + 1):
            if q * price > money:
                break
            for col in colours:
                acts.append({"type": "silver", "qty": q, "colour": col})
                acts.append({"type": "silver", "qty": q, "colour": col, "end_turn": False})
    if not settle:
        for col in [COLOURS[c] for c in in_market] or [None]:
            acts.append({"type": "pass", "colour": col})
            acts.append({"type": "pass", "colour": col, "end_turn": False})
    return acts

"""The seat-filler for Black Friday: decisions from the seat's own view and legal list only.

What it weighs:
  - the next price adjustment, simulated a few dozen times from the bag as far as the public
    board and the seat's own holdings tell (the bag's colour mix is hidden; the unseen bags of
    each colour are shared between the bag and the other players in proportion). That gives,
    per colour, the expected price after the next adjustment, crash risk included;
  - buy low: colours whose expected move is up, cheapest first, early and mid game;
  - sell into rising markets: colours that are high and expected to fall (or stall), and
    everything once the game is late and cash can still become silver below $100;
  - silver: every dollar spent on silver at price p is worth 100/p dollars at the end, so cash
    with nothing better to do becomes silver, sooner when silver is cheap;
  - subsidies when the money will be used at once (the $1 interest per adjustment is small
    against what $20 earns), and all of them late in the game;
  - table bags (extra bag, pass, silver) that push its own colours up (3rd bag, last bag).
The final liquidation at the end is automatic; "converting sensibly" is selling into silver
in the last adjustments while silver is still below $100.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core import check_level

from .data import BAGS_PER_COLOUR, COLOURS, NC, SUBSIDY_UNIT
from .prices import move, price_of, up, wsj_steps

SAMPLES = 40
#: The friendly level's fewer looks at the next adjustment (a rougher idea of where prices go).
FRIENDLY_SAMPLES = 8
# Phases of the game by the silver price (not its index, so a re-drawn track keeps them).
LATE = 65        # silver price from which stock is turned into silver
BORROW_UNTIL = 42  # silver price below which the AI borrows to buy stock or silver
SPECIAL_SILVER = 33  # silver price from which the silver +1 card is worth spending
HORIZON = 4.0      # a colour rising now tends to keep rising for a while
SILVER_WEIGHT = 0.1  # silver pays at the end; a rising stock compounds first
SUBSIDY_UNTIL = 45  # silver price below which the AI borrows all it may
BUY_RATIO = 1.05    # expected rise (next adjustment) worth buying into


_Y, _B, _R, _G, _O = COLOURS  # data.py checks there are five


def _vec(d: dict) -> tuple[int, ...]:
    """Bags by colour as a vector. Spelled out: a decision at the top levels reads a thousand
    legal buys and sells, and a generator here was a third of its time."""
    return (d.get(_Y, 0), d.get(_B, 0), d.get(_R, 0), d.get(_G, 0), d.get(_O, 0))


def _estimate_bag(view: dict) -> list[float]:
    """Expected coloured bags of each colour in the bag."""
    priv = view.get("private") or {}
    mine = _vec(priv.get("bags", {}))
    tables = view["tables"]
    unseen = []
    for i, c in enumerate(COLOURS):
        seen = (view["out"][c] + view["market"][c] + tables["buy"][c] + tables["silver"][c]
                + sum(t[c] for t in tables["sell"]) + mine[i])
        unseen.append(max(0, BAGS_PER_COLOUR - seen))
    coloured = view["bag"]["size"] - view["bag"]["black"]
    total = sum(unseen)
    if total <= 0 or coloured <= 0:
        return [0.0] * NC
    return [u * coloured / total for u in unseen]


def expected_prices(view: dict, rng: random.Random, samples: int = SAMPLES) -> tuple[list[float], float]:
    """(expected price of each colour after the next adjustment, chance of a crash)."""
    bag = _estimate_bag(view)
    black = view["bag"]["black"]
    draw = view["limits"]["draw"]
    items = []
    for c in range(NC):
        items += [c] * int(round(bag[c]))
    items += [NC] * black
    k = min(draw, len(items))
    cells = [[view["prices"][c]["row"], view["prices"][c]["col"]] for c in COLOURS]
    market = [view["market"][c] for c in COLOURS]
    total = [0.0] * NC
    crashes = 0
    for _ in range(samples):
        drawn = [0] * (NC + 1)
        for it in rng.sample(items, k) if k else []:
            drawn[it] += 1
        b = drawn[NC]
        crashes += b >= 2
        minus = b if b >= 2 else 0
        for c in range(NC):
            cell = list(cells[c])
            move(cell, *wsj_steps(drawn[c] - minus))
            if market[c] + drawn[c] == 0:
                up(cell)
            total[c] += price_of(cell)
    return [t / samples for t in total], crashes / samples


def _find(legal: list[dict], **want) -> dict | None:
    for a in legal:
        if all(a.get(k) == v for k, v in want.items()):
            return a
    return None


def _bags_of(a: dict) -> tuple[int, ...]:
    return _vec(a.get("bags", {}))


def _table_colour_score(view: dict, colour: str, table: str, mine: tuple[int, ...]) -> float:
    """How much moving one bag of `colour` from the market to `table` helps this seat: a 3rd
    bag or a last bag moves the colour right."""
    i = COLOURS.index(colour)
    gain = 0.0
    if view["market"][colour] == 1:
        gain += 1
    if view["tables"][table][colour] == 2:
        gain += 1
    return gain * (mine[i] + 0.1) * view["prices"][colour]["price"] + view["market"][colour] * 0.01


def _best_colour(view: dict, legal: list[dict], kind: str, table: str, mine, **fixed) -> dict | None:
    options = [a for a in legal if a["type"] == kind and all(a.get(k) == v for k, v in fixed.items())]
    if not options:
        return None
    return max(options, key=lambda a: _table_colour_score(view, a["colour"], table, mine) if a.get("colour") else 0)


@dataclass
class _Seat:
    """What one decision reads of the seat's view, worked out once."""

    view: dict
    legal: list[dict]
    types: dict[str, list[dict]]
    priv: dict
    mine: tuple[int, ...]
    money: int
    room: int
    sp: int
    late: bool
    prices: list[int]
    limit: int

    @staticmethod
    def of(view: dict, legal: list[dict]) -> _Seat:
        priv = view.get("private") or {}
        types: dict[str, list[dict]] = {}
        for a in legal:
            types.setdefault(a["type"], []).append(a)
        sp = view["silver"]["price"]
        return _Seat(view, legal, types, priv, _vec(priv.get("bags", {})), priv.get("money", 0),
                     priv.get("subsidy_room", 0), sp, sp >= LATE, [view["prices"][c]["price"] for c in COLOURS],
                     view["limits"]["action"])


def choose(view: dict, legal: list[dict], rng: random.Random, level: str = "strong") -> dict:
    """The seat-filler's move. The friendly level looks at fewer draws of the next adjustment,
    skips the special-pass trick and takes any worthwhile move (positive gain) rather than the
    best; both settle debts first and never make a move they expect to lose money on."""
    friendly = check_level(level) == "friendly"
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    me = _Seat.of(view, legal)
    if view["phase"] == "setup":
        return max(legal, key=lambda a: (me.mine[COLOURS.index(a["colour"])] if a.get("colour") else 0, rng.random()))
    forced = _forced(me)
    if forced is not None:
        return forced
    expect, crash = expected_prices(view, rng, FRIENDLY_SAMPLES if friendly else SAMPLES)
    ratio = [expect[c] / me.prices[c] for c in range(NC)]
    # The special pass: a 3rd bag of a colour we hold, on the silver table.
    if "special_pass" in me.types and not me.late and not friendly:
        for a in me.types["special_pass"]:
            c = COLOURS.index(a["colour"])
            if me.mine[c] >= 2 and view["tables"]["silver"][a["colour"]] == 2 and ratio[c] > 0.95:
                return a
    candidates = _candidates(me, ratio, crash)
    if candidates:
        gain, action = max(candidates, key=lambda x: x[0])
        worthwhile = [a for g, a in candidates if g > 0]
        if friendly and worthwhile:
            return rng.choice(worthwhile)
        if gain > 0:
            return action
    return _idle(me, ratio)


def _forced(me: _Seat) -> dict | None:
    """Owed interest first (borrow towards it, else sell the dearest held colour); after the
    main action, the subsidies late in the game or the end of the turn; early subsidies."""
    types, legal = me.types, me.legal
    if me.priv.get("must_settle"):
        if "subsidy" in types:
            need = min(me.room, -(-me.priv.get("owed", 0) // SUBSIDY_UNIT))
            return _find(legal, type="subsidy", units=need) or types["subsidy"][-1]
        if "sell" in types:
            return _pick_sell(me.view, types["sell"], me.mine, me.prices, [1.0] * NC, force=True)
    if me.view["acted"]:
        if me.late and "subsidy" in types:
            return types["subsidy"][-1]
        return types.get("end_turn", legal)[0]
    # Subsidies: $20 now for $1 an adjustment; worth it whenever the money goes to work.
    if "subsidy" in types and (me.sp < SUBSIDY_UNTIL or me.late):
        return types["subsidy"][-1]
    return None


def _candidates(me: _Seat, ratio: list[float], crash: float) -> list[tuple[float, dict]]:
    """(gain, action) for a sale, a buy (or the subsidy that pays for it) and silver."""
    view, types, legal, prices, sp = me.view, me.types, me.legal, me.prices, me.sp
    money, room = me.money, me.room
    candidates: list[tuple[float, dict | None]] = []
    # Sell: into a market expected to fall, or anything late.
    if "sell" in types:
        a = _pick_sell(view, types["sell"], me.mine, prices, ratio, force=False, late=me.late, crash=crash)
        if a is not None:
            vec = _bags_of(a)
            gain = sum(vec[c] * prices[c] * ((1 - ratio[c]) * HORIZON) for c in range(NC))
            if me.late:
                gain += sum(vec[c] * prices[c] for c in range(NC)) * (100 / sp - 1) * SILVER_WEIGHT
            candidates.append((gain, a))
    # Buy: the colours expected to rise, cheapest first; never late.
    budget = money + (room * SUBSIDY_UNIT if sp < BORROW_UNTIL else 0)
    want = _want_buy(view, me.mine, prices, ratio, budget, me.limit, me.priv, me.late)
    if want is not None:
        vec, gain = want
        cost = sum(vec[c] * prices[c] for c in range(NC))
        if cost > money:
            units = min(room, -(-(cost - money) // SUBSIDY_UNIT))
            candidates.append((gain - units * 2, _find(legal, type="subsidy", units=units)))
        else:
            candidates.append((gain, _pick_buy(view, types.get("buy", []), vec, me.mine)))
    # Silver: cash that has nothing better to do.
    cards = me.priv.get("cards", [])
    q_max = me.limit + (1 if any("silver" in card for card in cards) and sp >= SPECIAL_SILVER else 0)
    affordable = min(q_max, money // sp) if sp else 0
    with_sub = min(q_max, (money + room * SUBSIDY_UNIT) // sp) if sp else 0
    if with_sub > affordable and (sp < BORROW_UNTIL or me.late):
        units = min(room, -(-(with_sub * sp - money) // SUBSIDY_UNIT))
        gain = with_sub * (100 - sp) * SILVER_WEIGHT - units * 2
        candidates.append((gain, _find(legal, type="subsidy", units=units)))
    if affordable >= 1:
        opts = [a for a in types.get("silver", []) if a["qty"] == affordable and a.get("end_turn", True)]
        if opts:
            best = max(opts, key=lambda a: _table_colour_score(view, a["colour"], "silver", me.mine) if a.get("colour") else 0)
            candidates.append((affordable * (100 - sp) * SILVER_WEIGHT, best))
    return [(g, a) for g, a in candidates if a is not None]


def _idle(me: _Seat, ratio: list[float]) -> dict:
    """Nothing worth doing: pass with a bag that helps our colours. With an empty market a pass
    moves nothing and the table freezes: sell the weakest bag instead."""
    view, legal, types, mine, prices = me.view, me.legal, me.types, me.mine, me.prices
    if not any(view["market"].values()) and "sell" in types:
        weakest = min((c for c in range(NC) if mine[c]), key=lambda c: (ratio[c], prices[c]))
        one = [a for a in types["sell"] if _bags_of(a) == tuple(int(c == weakest) for c in range(NC))]
        if one:
            return min(one, key=lambda a: mine[COLOURS.index(a["take"])] if a.get("take") else 0)
    a = _best_colour(view, legal, "pass", "silver", mine, end_turn=None)
    if a is None:
        passes = [x for x in legal if x["type"] == "pass" and x.get("end_turn", True)]
        if passes:
            return max(passes, key=lambda x: _table_colour_score(view, x["colour"], "silver", mine) if x.get("colour") else 0)
        sells = types.get("sell")
        if sells:
            return _pick_sell(view, sells, mine, prices, ratio, force=True)
        return legal[0]
    return a


def _want_buy(view, mine, prices, ratio, budget, limit, priv, late):
    """The stock vector worth buying (up to the limit, within budget) and its gain."""
    if late:
        return None
    market = [view["market"][c] for c in COLOURS]
    order = sorted(range(NC), key=lambda c: (-ratio[c], prices[c]))
    vec = [0] * NC
    left = budget
    gain = 0.0
    cap = limit + (1 if any("buy" in card for card in priv.get("cards", [])) and limit >= 3 else 0)
    count = 0
    for c in order:
        if ratio[c] < BUY_RATIO:
            break
        while count < cap and vec[c] < market[c] and prices[c] <= left:
            vec[c] += 1
            count += 1
            left -= prices[c]
            gain += prices[c] * (ratio[c] - 1) * HORIZON
    if count == 0:
        return None
    return tuple(vec), gain


def _pick_buy(view, buys: list[dict], vec, mine) -> dict | None:
    options = [a for a in buys if _bags_of(a) == tuple(vec)]
    if not options:
        # The closest affordable vector the legal list has (same colours, fewer bags).
        options = [a for a in buys if all(_bags_of(a)[c] <= vec[c] for c in range(NC))]
        if not options:
            return None
        top = max(sum(_bags_of(a)) for a in options)
        options = [a for a in options if sum(_bags_of(a)) == top]
    return max(options, key=lambda a: _table_colour_score(view, a["extra"], "buy", mine) if a.get("extra") else 0)


def _pick_sell(view, sells: list[dict], mine, prices, ratio, force: bool, late: bool = False, crash: float = 0.0):
    """The sale: colours expected to fall (or everything late), dearest first, as many as the
    limit allows; lower the colour we keep least of; take a table bag we do not hold."""
    weak = [c for c in range(NC) if mine[c] and (late or ratio[c] < 0.97 or (crash > 0.35 and ratio[c] < 1.05))]
    if not weak and not force:
        return None
    if not weak:
        weak = [max((c for c in range(NC) if mine[c]), key=lambda c: prices[c])]
    sizes = {}
    for a in sells:
        vec = _bags_of(a)
        if all(vec[c] == 0 or c in weak for c in range(NC)):
            value = sum(vec[c] * prices[c] for c in range(NC))
            sizes.setdefault(vec, value)
    if not sizes:
        return None
    best_vec = max(sizes, key=lambda v: (sizes[v], -sum(v)))
    options = [a for a in sells if _bags_of(a) == best_vec]

    def score(a):
        lo = COLOURS.index(a["lower"])
        keep = mine[lo] - best_vec[lo]
        tk = COLOURS.index(a["take"]) if a.get("take") else None
        return (-keep * prices[lo], -(mine[tk] if tk is not None else 0))

    return max(options, key=score)


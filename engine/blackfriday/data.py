"""Black Friday's component data, loaded once from `data.json` and checked at import.

Every number the rules use comes from here, so an owner of the printed game can correct a
[house] value in one place (the JSON) and the checks below say at once if it no longer holds
together. Renderers may import this module too (static data, no state).
"""

from __future__ import annotations

import json
from pathlib import Path

_PATH = Path(__file__).resolve().parent / "data.json"
RAW = json.loads(_PATH.read_text(encoding="utf-8"))

MARKS = ("confirmed", "house")

COLOURS: tuple[str, ...] = tuple(RAW["colours"]["value"])
NC = len(COLOURS)
CIDX = {c: i for i, c in enumerate(COLOURS)}
BAGS_PER_COLOUR: int = RAW["bags_per_colour"]["value"]
BLACKS: int = RAW["black_bags"]["value"]

#: PRICE[row][col]
PRICE: tuple[tuple[int, ...], ...] = tuple(tuple(r["cells"]) for r in RAW["price_table"]["rows"])
ROWS = len(PRICE)
COLS = len(PRICE[0])
START_CELL: tuple[int, int] = tuple(RAW["price_start"]["cell"])  # type: ignore[assignment]
FLOOR_CELL: tuple[int, int] = tuple(RAW["price_floor"]["cell"])  # type: ignore[assignment]

#: n -> (vertical, horizontal) steps
WSJ: dict[int, tuple[int, int]] = {m["n"]: (m["vertical"], m["horizontal"]) for m in RAW["wsj_table"]["moves"]}
WSJ_MIN = min(WSJ)
WSJ_MAX = max(WSJ)

SILVER: tuple[int, ...] = tuple(RAW["silver_track"]["value"])
SILVER_LAST = len(SILVER) - 1
SILVER_START: int = RAW["silver_start"]["index"]
SILVER_SNAKE_ROWS: int = RAW["silver_track"]["snake_rows"]
PURCHASE_DIVISOR: int = RAW["purchase_divisor"]["value"]
PURCHASE_TRACK_MAX: int = RAW["purchase_track"]["max"]
SILVER_PER_GOLD: int = RAW["silver_per_gold"]["value"]

#: LEVELS[face] = (subsidy limit, per-action limit, bags drawn)
LEVELS: tuple[tuple[int, int, int], ...] = tuple((lv["subsidy"], lv["action"], lv["draw"]) for lv in RAW["levels"])

SUBSIDY_UNIT: int = RAW["subsidy_unit"]["value"]
INTEREST_PER_UNIT: int = RAW["interest_per_unit"]["value"]
START_MONEY: int = RAW["start_money"]["value"]

_sell = RAW["sell_tables"]
SELL_COLOURED_PER_COLOUR: int = _sell["coloured_per_colour"]["value"]
SELL_BLACKS: tuple[int, ...] = tuple(_sell["blacks"]["value"])
SELL_ORDER: tuple[int, ...] = tuple(_sell["order"]["value"])
SELL_REPEAT: int = _sell["order"]["repeat"]
REFILL_PER_COLOUR: int = _sell["refill"]["per_colour"]
REFILL_BLACKS: int = _sell["refill"]["blacks"]

WSJ_STOCK_START: int = RAW["wsj_stock_start"]["value"]
MARKET_START: int = RAW["market_start"]["value"]
MARKET_START_2P: int = RAW["market_start"]["two_player"]
BAG_BASE: int = RAW["bag_start"]["base"]
BAG_PER_PLAYER: int = RAW["bag_start"]["per_player"]
HOLDINGS_START: int = RAW["holdings_start"]["value"]
START_PLAYER_DRAW: int = RAW["start_player_draw"]["value"]
TWO_PLAYER_SETUP_MOVES: int = RAW["two_player_setup_moves"]["value"]

TABLE_FULL: int = RAW["triggers"]["table_full"]["value"]
TABLE_FULL_5P: int = RAW["triggers"]["table_full"]["five_player"]
SELL_LEFT: int = RAW["triggers"]["sell_left"]["value"]
SELL_LEFT_5P: int = RAW["triggers"]["sell_left"]["five_player"]

SPECIAL_BY_SEAT: dict[int, tuple[str, ...]] = {int(k): tuple(v) for k, v in RAW["special_cards"]["by_seat"].items()}
SPECIAL_2P: tuple[tuple[str, ...], ...] = tuple(tuple(c) for c in RAW["special_cards"]["two_player"])
SPECIAL_OPTIONS = ("pass", "sell", "silver", "buy")

MIN_PLAYERS: int = RAW["players"]["min"]
MAX_PLAYERS: int = RAW["players"]["max"]

#: The largest number of bags one price adjustment can draw.
MAX_DRAW = max(d for _, _, d in LEVELS)
#: The largest per-action count (a special card adds one).
MAX_ACTION = max(a for _, a, _ in LEVELS) + 1


def price(cell) -> int:
    return PRICE[cell[0]][cell[1]]


def _marks(value, where: str) -> None:
    """Every `status` anywhere in the data is one of MARKS."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "status":
                statuses = item.values() if isinstance(item, dict) else [item]
                for s in statuses:
                    if s not in MARKS:
                        raise ValueError(f"{where}: status {s!r} is not one of {MARKS}")
            else:
                _marks(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _marks(item, f"{where}[{i}]")


def check() -> None:
    """The data holds together; raises ValueError naming the first problem."""

    def need(cond: bool, msg: str) -> None:
        if not cond:
            raise ValueError(f"blackfriday data: {msg}")

    _marks(RAW, "data")
    # Every top-level entry (other than the note) is marked, directly or per part.
    for key, entry in RAW.items():
        if key.startswith("_"):
            continue
        text = json.dumps(entry)
        need('"status"' in text, f"{key} has no confirmed/house mark")

    need(len(COLOURS) == 5 and len(set(COLOURS)) == 5, "five distinct colours")
    need(ROWS == len(LEVELS) == 10, "10 price rows, one per level face")
    need(all(len(r) == COLS == 7 for r in PRICE), "7 columns in every price row")
    for r, row in enumerate(PRICE):
        need(all(a < b for a, b in zip(row, row[1:])), f"price row {r} rises left to right")
        need(RAW["price_table"]["rows"][r]["level"] == r, f"price row {r} is level {r}")
    need(price(START_CELL) == 7, "the start cell is $7")
    need(FLOOR_CELL == (0, 0) and price(FLOOR_CELL) == 4, "the floor is (0,0) = $4")
    need(min(min(r) for r in PRICE) == price(FLOOR_CELL), "nothing is cheaper than the floor")

    need(set(WSJ) == set(range(WSJ_MIN, WSJ_MAX + 1)), "the WSJ table has no gaps")
    need(WSJ_MIN <= -MAX_DRAW and WSJ_MAX >= MAX_DRAW, f"the WSJ table covers +-{MAX_DRAW} (largest draw count)")
    need(WSJ[0] == (0, -1) and WSJ[1] == (1, 0) and WSJ[4] == (2, 1), "the printed WSJ points (0, 1, 4)")

    need(SILVER[-1] == RAW["silver_end"]["value"] == 100, "the silver track ends at 100")
    need(all(a < b for a, b in zip(SILVER, SILVER[1:])), "the silver track rises")
    need(len(SILVER) % SILVER_SNAKE_ROWS == 0, "the silver snake has equal rows")
    need(0 <= SILVER_START < len(SILVER), "silver starts on the track")
    need(SILVER[SILVER_START] == RAW["silver_start"]["price"], "silver starts at its stated price")

    for face, (sub, act, draw) in enumerate(LEVELS):
        need(RAW["levels"][face]["face"] == face, f"level face {face} in order")
        need(sub >= 1 and act >= 1 and draw >= 1, f"level {face} limits are positive")
        if face:
            prev = LEVELS[face - 1]
            need(sub >= prev[0] and act >= prev[1] and draw >= prev[2], f"level {face} limits never fall")
    need(LEVELS[0][1] == 1, "one stock per action at Start (the rulebook)")

    need(len(SELL_BLACKS) == 3 and sorted(SELL_BLACKS) == [1, 2, 3], "sell tables hold 1, 2 and 3 blacks")
    need(sum(SELL_BLACKS) + WSJ_STOCK_START == BLACKS, "blacks: sell tables + WSJ stock = 15")
    need(list(SELL_ORDER) == [0, 1, 2] and SELL_REPEAT == 1, "sell tables 1, 2, 3, then 2 again")

    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        market = MARKET_START_2P if n == 2 else MARKET_START
        in_play = market + BAG_BASE + BAG_PER_PLAYER * n + 3 * SELL_COLOURED_PER_COLOUR
        need(in_play <= BAGS_PER_COLOUR, f"{n} players: no more than 25 bags of a colour in play")
        bag = NC * (BAG_BASE + BAG_PER_PLAYER * n)
        need(bag - HOLDINGS_START * n - START_PLAYER_DRAW >= 0, f"{n} players: the bag covers the deal")
        need(n == 2 or set(range(2, n + 1)) <= set(SPECIAL_BY_SEAT), f"{n} players: a special card for seats 2..{n}")
    for k, opts in SPECIAL_BY_SEAT.items():
        need(all(o in SPECIAL_OPTIONS for o in opts), f"special card {k} options")
    need(all(o in SPECIAL_OPTIONS for c in SPECIAL_2P for o in c), "two-player special cards")
    need(TABLE_FULL >= 3 and TABLE_FULL_5P >= TABLE_FULL, "table triggers")
    need(0 < SELL_LEFT_5P <= SELL_LEFT < NC * SELL_COLOURED_PER_COLOUR, "sell-table triggers")


check()

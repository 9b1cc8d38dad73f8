"""The pieces of the Black Friday pictures (render/blackfriday.py draws the pictures from them):
text and briefcase helpers, the price table (10 levels x 7 columns) with its level bands and
five markers, the side column (level card, bag, Wall Street Journal stock), the buy, silver and
sell tables, the market, and the silver track (a snake of the data's spaces). Drawn from
engine views only; nothing private is drawn here.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.blackfriday.data import COLOURS, COLS, PRICE, ROWS, SILVER, SILVER_SNAKE_ROWS
from render.common import (
    BAD,
    GOLD,
    GOOD,
    LINE,
    PANEL,
    PANEL_LIGHT,
    SIZE_BODY,
    SIZE_LABEL,
    SIZE_SMALL,
    SIZE_TITLE,
    TEXT,
    TEXT_DIM,
    canvas,
    chip,
    draw_text,
    drawable,
    font,
    layer,
    lines_at_most,
    rounded,
    t,
)

W = 1200
STOCK = {
    "Y": (246, 204, 58),
    "B": (64, 132, 236),
    "R": (226, 72, 72),
    "G": (72, 184, 96),
    "O": (244, 140, 48),
}
BLACK_BAG = (18, 18, 22)
SILVER_COLOUR = (200, 206, 216)
BAND = [(26, 62, 46), (36, 84, 60)]  # the board's dark and light green level bands




def palette_colours() -> list[tuple[int, int, int]]:
    """Colours worked out while drawing, kept exactly in the palette (tools/pictures.py): the
    briefcases' edges and their dimmed forms (an empty market, a colour not held)."""
    return [dark(c, f) for c in [*STOCK.values(), BLACK_BAG] for f in (0.3, 0.4, 0.55, 0.6)] + [dark(b, 0.6) for b in BAND]


def name_of(names, seat) -> str:
    if seat is None:
        return ""
    name = drawable(names[seat]) if seat < len(names) and names[seat] else ""
    return name or f"P{seat + 1}"


def tk(lang: str, key: str, **params) -> str:
    return t(lang, f"blackfriday.{key}", **params)


def options_text(cards: list, lang: str) -> str:
    """The unused special options, "extra pass / sell +1": a line may break only between two
    options (their inner spaces are no-break; `wrap` breaks at plain spaces only), so that
    "silver" and its "+1" stay together. Draw each line with `plain`."""
    return " / ".join(tk(lang, f"special.{o}").replace(" ", "\u00a0") for card in cards for o in card)


def plain(line: str) -> str:
    return line.replace("\u00a0", " ")


def dark(c, f=0.55):
    return tuple(int(v * f) for v in c)


def _draw_briefcase(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, colour, outline=None) -> None:
    h = w * 0.8
    body_top = y + h * 0.25
    hw = w * 0.36
    edge = outline or (dark(colour) if colour != BLACK_BAG else (150, 150, 160))
    draw.rounded_rectangle([x + (w - hw) / 2, y, x + (w + hw) / 2, body_top + 3], radius=max(2, int(w * 0.1)),
                           outline=edge, width=max(2, int(w * 0.08)))
    draw.rounded_rectangle([x, body_top, x + w, y + h], radius=max(2, int(w * 0.14)), fill=colour, outline=edge,
                           width=2)
    draw.line([x + 2, body_top + (y + h - body_top) * 0.42, x + w - 2, body_top + (y + h - body_top) * 0.42],
              fill=edge, width=max(1, int(w * 0.05)))


@lru_cache(maxsize=128)
def _sprite(colour, w: int, outline) -> Image.Image:
    img = Image.new("RGBA", (w + 2, int(w * 0.8) + 3), (0, 0, 0, 0))
    _draw_briefcase(ImageDraw.Draw(img), 0, 0, w, colour, outline)
    return img


def briefcase(img: Image.Image, x: float, y: float, w: int, colour, outline=None) -> None:
    """A briefcase (the game's bag piece) with its top-left corner at (x, y); height 0.8 w."""
    sprite = _sprite(tuple(colour), int(w), outline and tuple(outline))
    img.paste(sprite, (int(x), int(y)), sprite)


def bag_rows(count: int, width: float, size: int, gap: int) -> int:
    """The rows `_bags_row` wraps `count` briefcases onto in a box `width` wide (its rule: a
    briefcase goes on the next row when it would cross the right edge)."""
    per_row = max(1, int((width + gap) // (size + gap)))
    return -(-count // per_row)


def _bags_row(img, box, counts: dict, black: int = 0, size: int = 30, gap: int = 6) -> None:
    """Briefcases of a table in colour order (blacks last), wrapped inside box."""
    x0, y0, x1, _ = box
    x, y = x0, y0
    items = [STOCK[c] for c in COLOURS for _ in range(counts.get(c, 0))] + [BLACK_BAG] * black
    for colour in items:
        if x + size > x1:
            x = x0
            y += size * 0.8 + gap
        briefcase(img, x, y, size, colour)
        x += size + gap


# -- the board -------------------------------------------------------------------------------

CELL_W = 72
CELL_H = 50
LABEL_W = 116


GRID_W = LABEL_W + COLS * CELL_W


def _cell_box(row: int, col: int, x0: int, y0: int) -> tuple[int, int]:
    return x0 + LABEL_W + col * CELL_W, y0 + (ROWS - 1 - row) * CELL_H


@layer(maxsize=4)
def _grid(lang: str) -> Image.Image:
    """The printed price table (bands, prices, level labels): the same in every picture, so it is
    drawn once per language and pasted."""
    img, draw = canvas(GRID_W + 1, ROWS * CELL_H + 1)
    for row in range(ROWS):
        _, y = _cell_box(row, 0, 0, 0)
        band = BAND[row % 2]
        draw.rectangle([0, y, GRID_W, y + CELL_H], fill=band)
        _row_label(draw, row, 0, y, lang, False)
        for col in range(COLS):
            _cell(draw, row, col, 0, 0, ())
    return img


def _row_label(draw, row: int, x0: int, y: int, lang: str, current: bool) -> None:
    band = BAND[row % 2]
    draw.rectangle([x0, y, x0 + LABEL_W, y + CELL_H], fill=band)
    label = tk(lang, "render.start_level") if row == 0 else str(row)
    draw_text(draw, (x0 + LABEL_W / 2, y + CELL_H / 2), label, SIZE_SMALL if row == 0 else SIZE_BODY,
              GOLD if current else TEXT_DIM, bold=current, anchor="mm", max_width=LABEL_W - 8)


def _cell(draw, row: int, col: int, x0: int, y0: int, markers) -> None:
    cx, y = _cell_box(row, col, x0, y0)
    band = BAND[row % 2]
    draw.rectangle([cx, y, cx + CELL_W, y + CELL_H], fill=band, outline=dark(band, 0.6), width=1)
    txt_y = y + (15 if markers else CELL_H / 2)
    draw_text(draw, (cx + CELL_W / 2, txt_y), str(PRICE[row][col]), SIZE_SMALL,
              TEXT if markers else (190, 210, 196), bold=bool(markers), anchor="mm")
    if markers:
        k = len(markers)
        step = (CELL_W - 8) / k
        r = min(10, step / 2 + 1)  # five markers may touch, but stay big enough to see
        for j, c in enumerate(markers):
            chip(draw, (cx + 4 + step * (j + 0.5), y + CELL_H - 13), r, STOCK[c], outline=(10, 10, 10), width=2)


PRICES_H = 44 + ROWS * CELL_H + 44


def draw_price_grid(img, draw, lang: str) -> None:
    """The price table as printed (10 x 7, top row = level 9) with its title and foot; the
    markers and the current level go on it (`price_cell`, `level_label`)."""
    draw_text(draw, (0, 0), tk(lang, "render.prices"), SIZE_LABEL, GOLD, bold=True)
    img.paste(_grid(lang), (0, 44))
    draw_text(draw, (0, 44 + ROWS * CELL_H + 4), tk(lang, "render.level") + " ↑", SIZE_SMALL, TEXT_DIM)


def markers_at(prices: dict) -> dict[tuple[int, int], list[str]]:
    """The price table's cells holding markers, with their colours."""
    at: dict[tuple[int, int], list[str]] = {}
    for c in COLOURS:
        at.setdefault((prices[c]["row"], prices[c]["col"]), []).append(c)
    return at


def price_cell(draw, row: int, col: int, markers: list[str]) -> None:
    """A cell holding markers, at (0, 0)."""
    cx, y = _cell_box(row, col, 0, 0)
    _cell(draw, row, col, -cx, -y, markers)


def level_label(draw, level: int, lang: str) -> None:
    """The current level's label, lit, at (0, 0)."""
    _row_label(draw, level, 0, 0, lang, True)


def cell_box(row: int, col: int) -> tuple[int, int]:
    """A cell's top left in the price table (below its title)."""
    return _cell_box(row, col, 0, 44)


def _change(view: dict, c: str) -> int:
    """The colour's change at the last adjustment, from the price it found to the one it left
    (what its narration says: "$180→$121" is ▼59). An entry written before adjustments kept
    what they found shows no arrow rather than a change that includes the trades in between."""
    hist = view.get("history") or []
    if not hist or "from" not in hist[-1]:
        return 0
    i = COLOURS.index(c)
    return hist[-1]["prices"][i] - hist[-1]["from"][i]


#: Where the side column's prices end (right-aligned), their changes beside them.
PRICE_X = 330


def draw_level(draw, x0: int, y0: int, x1: int, level: int, lim: dict, lang: str) -> int:
    """The level card: the level and its limits."""
    rounded(draw, (x0, y0, x1, y0 + 104), fill=PANEL_LIGHT, outline=GOLD)
    lvl = tk(lang, "render.start_level") if level == 0 else str(level)
    draw_text(draw, (x0 + 18, y0 + 10), f"{tk(lang, 'render.level')} {lvl}", SIZE_TITLE - 4, GOLD, bold=True)
    draw_text(draw, (x0 + 18, y0 + 64), tk(lang, "render.level_card", subsidy=lim["subsidy"], action=lim["action"],
                                            draw=lim["draw"]), SIZE_SMALL, TEXT, max_width=x1 - x0 - 30)
    return y0 + 120


#: The prices' panel: a row of 52 px per colour, 10 px above the first.
STOCK_ROW, STOCKS_H = 52, 5 * 52 + 30


def draw_stock(img, draw, x0: int, ry: int, c: str, price: int, change: int, lang: str) -> None:
    """A colour's price, and its change at the last adjustment (the market's counts are in the
    market panel below)."""
    briefcase(img, x0 + 14, ry + 6, 40, STOCK[c])
    draw_text(draw, (x0 + 66, ry + 24), tk(lang, f"colour.{c}"), SIZE_BODY, TEXT, anchor="lm", max_width=PRICE_X - 190)
    draw_text(draw, (x0 + PRICE_X, ry + 24), f"${price}", SIZE_LABEL + 4, TEXT, bold=True, anchor="rm")
    if change:
        draw_text(draw, (x0 + PRICE_X + 14, ry + 24), f"{'▲' if change > 0 else '▼'}{abs(change)}", SIZE_BODY,
                  GOOD if change > 0 else BAD, anchor="lm")


def draw_silver(draw, x0: int, y: int, x1: int, price: int, purchases: int, lang: str) -> int:
    """The silver price and the silver bought since the last adjustment."""
    rounded(draw, (x0, y, x1, y + 64), fill=PANEL)
    chip(draw, (x0 + 34, y + 32), 18, SILVER_COLOUR, outline=(90, 96, 110))
    draw_text(draw, (x0 + 66, y + 32), tk(lang, "render.silver"), SIZE_BODY, TEXT, anchor="lm", max_width=PRICE_X - 190)
    draw_text(draw, (x0 + PRICE_X, y + 32), f"${price}", SIZE_LABEL + 4, TEXT, bold=True, anchor="rm")
    draw_text(draw, (x1 - 14, y + 32), f"+{purchases}", SIZE_SMALL, TEXT_DIM, anchor="rm")
    return y + 78


#: The last draw's briefcases: their size, the gap between them, and where the row starts (after
#: the "X drew" label). A draw can hold more than a row's seven (twelve were seen).
LAST_BAG, LAST_GAP, LAST_X = 34, 5, 232


def last_draw_height(last: dict | None, width: int) -> int:
    """The height `draw_last_draw` takes for `last` in a column `width` wide: one line for the
    label and the first row of briefcases, and a row more for each wrap."""
    if not last:
        return 0
    rows = max(1, bag_rows(sum(last["bags"].values()) + last["black"], width - LAST_X, LAST_BAG, LAST_GAP))
    return 44 + math.ceil((rows - 1) * (LAST_BAG * 0.8 + LAST_GAP))


def draw_last_draw(img, draw, x0: int, y: int, x1: int, last: dict | None, who: str, lang: str) -> int:
    """Who drew last, and the briefcases they drew (wrapped onto as many rows as they need)."""
    if last:
        draw_text(draw, (x0 + 4, y + 16), tk(lang, "render.last_draw", name=who), SIZE_SMALL, TEXT_DIM, anchor="lm",
                  max_width=LAST_X - 12)
        _bags_row(img, (x0 + LAST_X, y, x1, y + 40), last["bags"], last["black"], size=LAST_BAG, gap=LAST_GAP)
    return y + last_draw_height(last, x1 - x0)


def changes(view: dict) -> dict[str, int]:
    return {c: _change(view, c) for c in COLOURS}


TABLE_LINE = SIZE_SMALL + 4
BAG, BAG_GAP = 30, 6


def _no_orphan(text: str) -> str:
    """`text` with its last word of one or two characters bound to the word before ("sell
    table 1" breaks "sell" / "table 1", not "sell table" / "1")."""
    return re.sub(r" (\S{1,2})$", "\u00a0\\1", text)


def _table_lines(title: str, note: list[str], width: int) -> tuple[list[str], list[str]]:
    """A table's name and its notes, each wrapped onto at most two lines."""
    bold, small = font(SIZE_SMALL, True), font(SIZE_SMALL)
    return (lines_at_most(_no_orphan(title), width, bold, 2),
            [line for n in note for line in lines_at_most(_no_orphan(n), width, small, 2)])


def _table_height(title: str, note: list[str], bags: int, width: int) -> int:
    titles, notes = _table_lines(title, note, width)
    rows = bag_rows(bags, width, BAG, BAG_GAP)
    return 12 + TABLE_LINE * len(titles) + 6 + rows * int(BAG * 0.8 + BAG_GAP) + 8 + TABLE_LINE * len(notes) + 8


def _table_panel(img, draw, box, title: str, counts: dict, black: int, note: list[str], state: str) -> None:
    """One table: state 'current' (outlined in gold), 'used' (dimmed) or ''."""
    x0, y0, x1, y1 = box
    outline = GOLD if state == "current" else LINE
    rounded(draw, box, fill=PANEL if state != "used" else (30, 34, 44), outline=outline, width=4 if state == "current" else 2)
    titles, notes = _table_lines(title, note, int(x1 - x0 - 20))
    for k, line in enumerate(titles):
        draw_text(draw, (x0 + 12, y0 + 8 + k * TABLE_LINE), line, SIZE_SMALL, GOLD if state == "current" else TEXT,
                  bold=True)
    _bags_row(img, (x0 + 12, y0 + 18 + TABLE_LINE * len(titles), x1 - 8, y1), counts, black, size=BAG, gap=BAG_GAP)
    for k, line in enumerate(reversed(notes)):
        draw_text(draw, (x0 + 12, y1 - 10 - k * TABLE_LINE), line, SIZE_SMALL, TEXT_DIM if state != "current" else GOLD,
                  anchor="ld")


def table_panels(view: dict, lang: str) -> tuple[list[tuple], int]:
    """The buy, silver and three sell tables as (title, counts, blacks, notes, state), and the
    height every panel takes (that of the tallest)."""
    w = (W - 32 - 4 * 10) / 5
    tables = view["tables"]
    trig = view["triggers"]
    cur = view["sell_current"]
    used = view["sell_used"]
    panels = [(tk(lang, "table.buy"), tables["buy"], 0, [tk(lang, "render.trigger_table", count=trig["table"])], ""),
              (tk(lang, "table.silver"), tables["silver"], 0, [tk(lang, "render.trigger_table", count=trig["table"])],
               "")]
    for i in range(3):
        t_no = i + 1
        counts = tables["sell"][i]
        done = (t_no == 1 and used >= 1) or (t_no == 3 and used >= 3)
        state = "current" if t_no == cur else ("used" if done else "")
        note = ([tk(lang, "render.current"), tk(lang, "render.trigger_sell", count=trig["sell"])]
                if state == "current" else [tk(lang, "render.used")] if done else [])
        panels.append((tk(lang, f"table.sell{t_no}"), counts, counts.get("black", 0), note, state))
    h = max([200] + [_table_height(title, note, sum(v for k, v in counts.items() if k in COLOURS) + black, int(w - 20))
                     for title, counts, black, note, _state in panels])
    return panels, h


def draw_table(img, draw, box, panel: tuple) -> None:
    _table_panel(img, draw, box, *panel)


MARKET_X1 = 770
MARKET_H = 96


#: The market's colours side by side: each group's width.
MARKET_GROUP_W = (MARKET_X1 - 16 - 30) / 5


def draw_market_panel(draw, lang: str) -> None:
    """The market's panel and title (the colours' groups go on it, `draw_market_group`)."""
    rounded(draw, (0, 0, MARKET_X1 - 16, MARKET_H), fill=PANEL)
    draw_text(draw, (14, 8), tk(lang, "render.market"), SIZE_SMALL + 2, TEXT, bold=True)


def draw_market_group(img, draw, c: str, n: int) -> None:
    """A colour's briefcases in the market (a dim one when there are none) and their count, at
    (0, 44) of a part as tall as the panel's contents below its title."""
    if n == 0:
        briefcase(img, 0, 0, 38, dark(STOCK[c], 0.3), outline=dark(STOCK[c], 0.6))
    for k in range(min(n, 4)):
        briefcase(img, k * 9, 0, 38, STOCK[c])
    draw_text(draw, (38 + 9 * max(0, min(n, 4) - 1) + 8, 18), f"×{n}", SIZE_BODY, TEXT if n else BAD, bold=True,
              anchor="lm")


def draw_bag(draw, x0: int, y0: int, x1: int, bag: dict, wsj: int, lang: str) -> None:
    """The bag and the Wall Street Journal stock."""
    rounded(draw, (x0, y0, x1, y0 + MARKET_H), fill=PANEL)
    _sack(draw, x0 + 14, y0 + 10, 40)
    draw_text(draw, (x0 + 66, y0 + 30), tk(lang, "render.bag", size=bag["size"], black=bag["black"]), SIZE_SMALL + 2,
              TEXT, anchor="lm", max_width=x1 - x0 - 80)
    draw_text(draw, (x0 + 14, y0 + 74), tk(lang, "render.wsj", count=wsj), SIZE_SMALL, TEXT_DIM, anchor="lm",
              max_width=x1 - x0 - 28)


def _sack(draw, x, y, w) -> None:
    draw.ellipse([x, y + w * 0.25, x + w, y + w * 1.15], fill=(150, 112, 72), outline=(90, 64, 40), width=2)
    draw.polygon([(x + w * 0.3, y + w * 0.3), (x + w * 0.7, y + w * 0.3), (x + w * 0.85, y), (x + w * 0.15, y)],
                 fill=(150, 112, 72), outline=(90, 64, 40))
    draw.line([x + w * 0.28, y + w * 0.3, x + w * 0.72, y + w * 0.3], fill=(90, 64, 40), width=3)


TRACK_PER = len(SILVER) // SILVER_SNAKE_ROWS
TRACK_SW = (W - 32) / TRACK_PER
TRACK_SH = 46
TRACK_GAP = 14
TRACK_H = SILVER_SNAKE_ROWS * (TRACK_SH + TRACK_GAP)


def _space(i: int) -> tuple[float, float]:
    """Top-left of silver space i inside the track layer (a snake: every other row runs back)."""
    r, k = divmod(i, TRACK_PER)
    col = k if r % 2 == 0 else TRACK_PER - 1 - k
    return 16 + col * TRACK_SW, r * (TRACK_SH + TRACK_GAP)


@layer(maxsize=2)
def _track_layer(passed: bool) -> Image.Image:
    """The printed silver track, drawn once: plain, or with every space greyed as passed."""
    img, draw = canvas(W, TRACK_H)
    for i, price in enumerate(SILVER):
        x, y = _space(i)
        fill = (70, 76, 90) if passed else PANEL_LIGHT
        if i == len(SILVER) - 1:
            fill = (110, 86, 30)
        rounded(draw, (x + 3, y, x + TRACK_SW - 3, y + TRACK_SH), radius=10, fill=fill, outline=LINE, width=1)
        draw_text(draw, (x + TRACK_SW / 2, y + TRACK_SH / 2), str(price), SIZE_SMALL + 2,
                  TEXT_DIM if passed else TEXT, anchor="mm")
    for r in range(SILVER_SNAKE_ROWS - 1):
        ax, ay = _space((r + 1) * TRACK_PER - 1)
        bx, by = _space((r + 1) * TRACK_PER)
        draw.line([ax + TRACK_SW / 2, ay + TRACK_SH, bx + TRACK_SW / 2, by], fill=LINE, width=4)
    return img


def draw_track_head(draw, y0: int, purchases: int, lang: str) -> None:
    draw_text(draw, (16, y0), tk(lang, "render.silver_track"), SIZE_LABEL, GOLD, bold=True)
    draw_text(draw, (W - 16, y0 + 18), tk(lang, "render.purchases", count=purchases, steps=purchases // 3), SIZE_SMALL,
              TEXT_DIM, anchor="rm", max_width=640)


def draw_track(img, draw, y0: int, cur: int) -> None:
    """The silver track, the spaces passed greyed, the current one framed with the marker."""
    img.paste(_track_layer(False), (0, y0))
    dim = _track_layer(True)
    for i in range(cur):
        x, y = _space(i)
        box = (int(x), int(y), int(x + TRACK_SW) + 1, int(y + TRACK_SH) + 1)
        img.paste(dim.crop(box), (box[0], y0 + box[1]))
    x, y = _space(cur)
    rounded(draw, (x + 3, y0 + y, x + TRACK_SW - 3, y0 + y + TRACK_SH), radius=10,
            fill=(110, 86, 30) if cur == len(SILVER) - 1 else PANEL_LIGHT, outline=GOLD, width=4)
    draw_text(draw, (x + TRACK_SW / 2, y0 + y + TRACK_SH / 2), str(SILVER[cur]), SIZE_SMALL + 2, TEXT, bold=True,
              anchor="mm")
    chip(draw, (x + TRACK_SW - 16, y0 + y + 2), 11, SILVER_COLOUR, outline=(40, 40, 50), width=2)

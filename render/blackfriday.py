"""Black Friday pictures, drawn from engine views only.

table_image: the board: the price table (10 levels x 7 columns) with its level bands and five
markers, the current prices, the level card, every table with its briefcases (blacks too), the
market, the bag, the Wall Street Journal stock, the silver track (a snake of 33 spaces) with the
silver bought since the last adjustment, and each player's public line (start player, special
options left, owed-interest flag). Holdings and money are private and never drawn here.
panel_image: one seat's private holdings, money, subsidies, silver and gold, special card.
results_image: the final standings and the price history (one line per colour, silver too).
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.blackfriday.data import COLOURS, COLS, PRICE, ROWS, SILVER, SILVER_SNAKE_ROWS
from render.common import (
    BAD,
    BG,
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
    draw_text as _draw_text,
    drawable,
    ellipsize,
    fit,
    font,
    header,
    rounded,
    seat_colour,
    t,
    text_width,
    wrap,
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


def draw_text(draw, xy, text: str, size: int = SIZE_BODY, fill=TEXT, bold: bool = False, anchor: str = "la",
              max_width: int | None = None) -> None:
    """render.common.draw_text, but a long text shrinks no further than SIZE_SMALL (legible on
    a phone) and is cut with an ellipsis beyond that."""
    if max_width is None:
        _draw_text(draw, xy, text, size, fill, bold, anchor)
        return
    fnt = fit(text, int(max_width), size, bold, min_size=min(size, SIZE_SMALL))
    draw.text(xy, ellipsize(text, int(max_width), fnt), font=fnt, fill=fill, anchor=anchor)


def _name(names, seat) -> str:
    if seat is None:
        return ""
    name = drawable(names[seat]) if seat < len(names) and names[seat] else ""
    return name or f"P{seat + 1}"


def _tk(lang: str, key: str, **params) -> str:
    return t(lang, f"blackfriday.{key}", **params)


def _dark(c, f=0.55):
    return tuple(int(v * f) for v in c)


def _draw_briefcase(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, colour, outline=None) -> None:
    h = w * 0.8
    body_top = y + h * 0.25
    hw = w * 0.36
    edge = outline or (_dark(colour) if colour != BLACK_BAG else (150, 150, 160))
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

CELL_W = 74
CELL_H = 50
LABEL_W = 100


GRID_W = LABEL_W + COLS * CELL_W


def _cell_box(row: int, col: int, x0: int, y0: int) -> tuple[int, int]:
    return x0 + LABEL_W + col * CELL_W, y0 + (ROWS - 1 - row) * CELL_H


@lru_cache(maxsize=4)
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
    label = _tk(lang, "render.start_level") if row == 0 else str(row)
    draw_text(draw, (x0 + LABEL_W / 2, y + CELL_H / 2), label, SIZE_SMALL if row == 0 else SIZE_BODY,
              GOLD if current else TEXT_DIM, bold=current, anchor="mm", max_width=LABEL_W - 8)


def _cell(draw, row: int, col: int, x0: int, y0: int, markers) -> None:
    cx, y = _cell_box(row, col, x0, y0)
    band = BAND[row % 2]
    draw.rectangle([cx, y, cx + CELL_W, y + CELL_H], fill=band, outline=_dark(band, 0.6), width=1)
    txt_y = y + (15 if markers else CELL_H / 2)
    draw_text(draw, (cx + CELL_W / 2, txt_y), str(PRICE[row][col]), SIZE_SMALL,
              TEXT if markers else (190, 210, 196), bold=bool(markers), anchor="mm")
    if markers:
        k = len(markers)
        step = (CELL_W - 8) / k
        r = min(10, step / 2 + 1)  # five markers may touch, but stay big enough to see
        for j, c in enumerate(markers):
            chip(draw, (cx + 4 + step * (j + 0.5), y + CELL_H - 13), r, STOCK[c], outline=(10, 10, 10), width=2)


def _price_table(img, draw, x0: int, y0: int, view: dict, lang: str) -> int:
    """The 10 x 7 price table, top row = level 9, with the markers and the current level."""
    draw_text(draw, (x0, y0), _tk(lang, "render.prices"), SIZE_LABEL, GOLD, bold=True)
    y0 += 44
    img.paste(_grid(lang), (x0, y0))
    level = view["level"]
    at: dict[tuple[int, int], list[str]] = {}
    for c in COLOURS:
        p = view["prices"][c]
        at.setdefault((p["row"], p["col"]), []).append(c)
    for (row, col), markers in at.items():
        _cell(draw, row, col, x0, y0, markers)
    _, ly = _cell_box(level, 0, x0, y0)
    _row_label(draw, level, x0, ly, lang, True)
    draw.rectangle([x0, ly, x0 + GRID_W, ly + CELL_H], outline=GOLD, width=3)
    draw_text(draw, (x0, y0 + ROWS * CELL_H + 6), _tk(lang, "render.level") + " ↑", SIZE_SMALL, TEXT_DIM)
    return y0 + ROWS * CELL_H + 34


def _change(view: dict, c: str) -> int:
    hist = view.get("history") or []
    if len(hist) < 2:
        return 0
    i = COLOURS.index(c)
    return hist[-1]["prices"][i] - hist[-2]["prices"][i]


def _side(img, draw, x0: int, y0: int, x1: int, view: dict, names, lang: str) -> int:
    """Level card, current prices, silver price and the last draw."""
    lim = view["limits"]
    level = view["level"]
    rounded(draw, (x0, y0, x1, y0 + 104), fill=PANEL_LIGHT, outline=GOLD)
    lvl = _tk(lang, "render.start_level") if level == 0 else str(level)
    draw_text(draw, (x0 + 18, y0 + 10), f"{_tk(lang, 'render.level')} {lvl}", SIZE_TITLE - 4, GOLD, bold=True)
    draw_text(draw, (x0 + 18, y0 + 64), _tk(lang, "render.level_card", subsidy=lim["subsidy"], action=lim["action"],
                                            draw=lim["draw"]), SIZE_SMALL, TEXT, max_width=x1 - x0 - 30)
    y = y0 + 120
    rounded(draw, (x0, y, x1, y + 5 * 52 + 16), fill=PANEL)
    for i, c in enumerate(COLOURS):
        ry = y + 10 + i * 52
        p = view["prices"][c]
        briefcase(img, x0 + 14, ry + 6, 40, STOCK[c])
        draw_text(draw, (x0 + 66, ry + 24), _tk(lang, f"colour.{c}"), SIZE_BODY, TEXT, anchor="lm", max_width=130)
        draw_text(draw, (x0 + 270, ry + 24), f"${p['price']}", SIZE_LABEL + 4, TEXT, bold=True, anchor="rm")
        d = _change(view, c)
        if d:
            draw_text(draw, (x0 + 282, ry + 24), f"{'▲' if d > 0 else '▼'}{abs(d)}", SIZE_SMALL, GOOD if d > 0 else BAD,
                      anchor="lm")
        draw_text(draw, (x1 - 14, ry + 24), f"{_tk(lang, 'render.market')} ×{view['market'][c]}", SIZE_SMALL, TEXT_DIM,
                  anchor="rm")
    y += 5 * 52 + 30
    rounded(draw, (x0, y, x1, y + 64), fill=PANEL)
    chip(draw, (x0 + 34, y + 32), 18, SILVER_COLOUR, outline=(90, 96, 110))
    draw_text(draw, (x0 + 66, y + 32), _tk(lang, "render.silver"), SIZE_BODY, TEXT, anchor="lm", max_width=130)
    draw_text(draw, (x0 + 270, y + 32), f"${view['silver']['price']}", SIZE_LABEL + 4, TEXT, bold=True, anchor="rm")
    count = view["purchases"]
    draw_text(draw, (x1 - 14, y + 32), f"+{count}", SIZE_SMALL, TEXT_DIM, anchor="rm")
    y += 78
    last = view.get("last_draw")
    if last:
        draw_text(draw, (x0 + 4, y + 16), _tk(lang, "render.last_draw", name=_name(names, last["seat"])), SIZE_SMALL,
                  TEXT_DIM, anchor="lm", max_width=220)
        _bags_row(img, (x0 + 232, y, x1, y + 40), last["bags"], last["black"], size=34, gap=5)
        y += 44
    return y


def _table_panel(img, draw, box, title: str, counts: dict, black: int, note: list[str], state: str) -> None:
    """One table: state 'current' (outlined in gold), 'used' (dimmed) or ''."""
    x0, y0, x1, y1 = box
    outline = GOLD if state == "current" else LINE
    rounded(draw, box, fill=PANEL if state != "used" else (30, 34, 44), outline=outline, width=4 if state == "current" else 2)
    draw_text(draw, (x0 + 12, y0 + 8), title, SIZE_SMALL + 2, GOLD if state == "current" else TEXT, bold=True,
              max_width=x1 - x0 - 20)
    _bags_row(img, (x0 + 12, y0 + 44, x1 - 8, y1), counts, black, size=30, gap=6)
    for k, line in enumerate(reversed(note)):
        draw_text(draw, (x0 + 12, y1 - 10 - k * 28), line, SIZE_SMALL, TEXT_DIM if state != "current" else GOLD,
                  anchor="ld", max_width=x1 - x0 - 20)


def _tables(img, draw, y0: int, view: dict, lang: str) -> int:
    gap = 10
    w = (W - 32 - 4 * gap) / 5
    h = 200
    tables = view["tables"]
    trig = view["triggers"]
    boxes = [(16 + i * (w + gap), y0, 16 + i * (w + gap) + w, y0 + h) for i in range(5)]
    _table_panel(img, draw, boxes[0], _tk(lang, "table.buy"), tables["buy"], 0,
                 [_tk(lang, "render.trigger_table", count=trig["table"])], "")
    _table_panel(img, draw, boxes[1], _tk(lang, "table.silver"), tables["silver"], 0,
                 [_tk(lang, "render.trigger_table", count=trig["table"])], "")
    cur = view["sell_current"]
    used = view["sell_used"]
    for i in range(3):
        t_no = i + 1
        counts = tables["sell"][i]
        done = (t_no == 1 and used >= 1) or (t_no == 3 and used >= 3)
        state = "current" if t_no == cur else ("used" if done else "")
        note = ([_tk(lang, "render.current"), _tk(lang, "render.trigger_sell", count=trig["sell"])]
                if state == "current" else [_tk(lang, "render.used")] if done else [])
        _table_panel(img, draw, boxes[2 + i], _tk(lang, f"table.sell{t_no}"), counts, counts.get("black", 0), note, state)
    return y0 + h + 12


def _market_row(img, draw, y0: int, view: dict, lang: str) -> int:
    h = 96
    mx1 = 770
    rounded(draw, (16, y0, mx1, y0 + h), fill=PANEL)
    draw_text(draw, (30, y0 + 8), _tk(lang, "render.market"), SIZE_SMALL + 2, TEXT, bold=True)
    gw = (mx1 - 30 - 16) / 5
    for i, c in enumerate(COLOURS):
        gx = 30 + i * gw
        n = view["market"][c]
        if n == 0:
            briefcase(img, gx, y0 + 44, 38, _dark(STOCK[c], 0.3), outline=_dark(STOCK[c], 0.6))
        for k in range(min(n, 4)):
            briefcase(img, gx + k * 9, y0 + 44, 38, STOCK[c])
        draw_text(draw, (gx + 38 + 9 * max(0, min(n, 4) - 1) + 8, y0 + 62), f"×{n}", SIZE_BODY,
                  TEXT if n else BAD, bold=True, anchor="lm")
    # The bag and the Wall Street Journal stock.
    bx0 = mx1 + 12
    rounded(draw, (bx0, y0, W - 16, y0 + h), fill=PANEL)
    bag = view["bag"]
    _sack(draw, bx0 + 14, y0 + 10, 40)
    draw_text(draw, (bx0 + 66, y0 + 30), _tk(lang, "render.bag", size=bag["size"], black=bag["black"]), SIZE_SMALL + 2,
              TEXT, anchor="lm", max_width=W - 16 - bx0 - 80)
    wsj = view["wsj"]
    draw_text(draw, (bx0 + 14, y0 + 74), _tk(lang, "render.wsj", count=wsj), SIZE_SMALL, TEXT_DIM, anchor="lm",
              max_width=W - 16 - bx0 - 28)
    return y0 + h + 12


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


@lru_cache(maxsize=2)
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


def _silver_track(img, draw, y0: int, view: dict, lang: str) -> int:
    draw_text(draw, (16, y0), _tk(lang, "render.silver_track"), SIZE_LABEL, GOLD, bold=True)
    count = view["purchases"]
    draw_text(draw, (W - 16, y0 + 18), _tk(lang, "render.purchases", count=count, steps=count // 3), SIZE_SMALL,
              TEXT_DIM, anchor="rm", max_width=640)
    y0 += 48
    img.paste(_track_layer(False), (0, y0))
    cur = view["silver"]["index"]
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
    return y0 + TRACK_H + 4


def _players(draw, y0: int, view: dict, names, lang: str) -> int:
    """One card per seat: name, start player, unused special options (or "special card used"),
    owed interest. Long lines wrap onto a second line rather than being cut, and every card is
    as tall as the tallest."""
    seats = view["seats"]
    n = len(seats)
    gap = 10
    w = (W - 32 - gap * (n - 1)) / n
    small = font(SIZE_SMALL)
    line_h = 27
    cards = []
    for s in seats:
        entries = []
        if s.get("start"):
            entries.append(("★ " + _tk(lang, "render.start_player"), GOLD))
        if s["cards"]:
            # No break inside an option ("silver +1"): only between options.
            opts = " / ".join(_tk(lang, f"special.{o}").replace(" ", "\u00a0") for card in s["cards"] for o in card)
            entries.append((opts, TEXT_DIM))
        elif not s.get("start"):
            entries.append((_tk(lang, "render.special_spent"), TEXT_DIM))
        # The start-player line shrinks to fit; the options wrap (at most two lines).
        lines = [(line, colour) for text, colour in entries
                 for line in ([text] if text.startswith("★") else wrap(text, int(w - 24), small)[:2])]
        cards.append(lines)
    h = max(132, max(52 + line_h * len(lines) + (30 if s["debt"] else 0) + 12 for lines, s in zip(cards, seats)))
    active = view.get("active")
    for i, (s, lines) in enumerate(zip(seats, cards)):
        x = 16 + i * (w + gap)
        is_active = i == active and not view["over"]
        rounded(draw, (x, y0, x + w, y0 + h), fill=PANEL, outline=GOLD if is_active else LINE, width=4 if is_active else 2)
        chip(draw, (x + 22, y0 + 26), 11, seat_colour(i))
        draw_text(draw, (x + 40, y0 + 26), _name(names, i), SIZE_BODY, TEXT, bold=True, anchor="lm",
                  max_width=int(w - 52))
        y = y0 + 52
        for line, colour in lines:
            draw_text(draw, (x + 14, y), line, SIZE_SMALL, colour, max_width=int(w - 24))
            y += line_h
        if s["debt"]:
            draw.rectangle([x + 14, y + 4, x + 34, y + 24], fill=(90, 40, 40), outline=BAD, width=2)
            draw_text(draw, (x + 42, y + 14), _tk(lang, "render.debt"), SIZE_SMALL, BAD, anchor="lm",
                      max_width=int(w - 56))
    return y0 + h + 14


def table_image(view: dict, names: list[str], lang: str) -> Image.Image:
    img, draw = canvas(W, 1420)
    if view["over"]:
        sub = _tk(lang, "phase.over")
    elif view["phase"] == "setup":
        sub = _tk(lang, "phase.setup")
    else:
        sub = _tk(lang, "render.turn_of", name=_name(names, view.get("active")))
    y = header(draw, W, _tk(lang, "render.title"), sub)
    bottom_left = _price_table(img, draw, 16, y, view, lang)
    bottom_right = _side(img, draw, 16 + GRID_W + 20, y, W - 16, view, names, lang)
    y = max(bottom_left, bottom_right) + 4
    y = _tables(img, draw, y, view, lang)
    y = _market_row(img, draw, y, view, lang)
    y = _silver_track(img, draw, y, view, lang)
    y = _players(draw, y, view, names, lang)
    return _flat(img).crop((0, 0, W, y))


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One 256-colour palette for every Black Friday picture, chosen from a swatch of the
    colours we draw with and their anti-aliased blends over our backgrounds."""
    backs = [BG, PANEL, PANEL_LIGHT, (30, 34, 44), (70, 76, 90), (110, 86, 30), (90, 40, 40), *BAND]
    fores = [TEXT, TEXT_DIM, GOLD, GOOD, BAD, LINE, SILVER_COLOUR, BLACK_BAG, (190, 210, 196), (150, 112, 72),
             (10, 10, 10), *STOCK.values(), *(_dark(c) for c in STOCK.values()),
             *(_dark(c, 0.3) for c in STOCK.values()), *(seat_colour(i) for i in range(6))]
    swatch = Image.new("RGB", (len(fores) * 8, len(backs) * 8))
    px = swatch.load()
    for j, b in enumerate(backs):
        for i, f in enumerate(fores):
            for k in range(8):
                a = k / 7
                colour = tuple(int(b[m] + (f[m] - b[m]) * a) for m in range(3))
                for dy in range(8):
                    px[i * 8 + k, j * 8 + dy] = colour
    return swatch.quantize(colors=256, method=Image.Quantize.FASTOCTREE)


def _flat(img: Image.Image) -> Image.Image:
    """A palette picture: the board is flat colours, so a fixed 256-colour palette loses
    nothing visible, and the PNG encodes many times faster at half the size."""
    return img.quantize(palette=_palette(), dither=Image.Dither.NONE)


# -- the private panel -----------------------------------------------------------------------


def panel_image(view: dict, names: list[str], lang: str) -> Image.Image | None:
    priv = view.get("private")
    if priv is None:
        return None
    pw = 1000
    img, draw = canvas(pw, 560)
    me = view.get("me")
    y = header(draw, pw, _name(names, me), _tk(lang, "render.private"))
    # Holdings by colour with their value at today's prices.
    rounded(draw, (16, y, 560, y + 5 * 62 + 76), fill=PANEL)
    draw_text(draw, (32, y + 10), _tk(lang, "render.holdings"), SIZE_LABEL, GOLD, bold=True)
    total = 0
    for i, c in enumerate(COLOURS):
        ry = y + 58 + i * 62
        n = priv["bags"][c]
        price = view["prices"][c]["price"]
        total += n * price
        briefcase(img, 32, ry + 4, 46, STOCK[c] if n else _dark(STOCK[c], 0.4))
        draw_text(draw, (92, ry + 24), _tk(lang, f"colour.{c}"), SIZE_BODY, TEXT if n else TEXT_DIM, anchor="lm",
                  max_width=130)
        draw_text(draw, (300, ry + 24), f"×{n}", SIZE_LABEL, TEXT if n else TEXT_DIM, bold=True, anchor="rm")
        draw_text(draw, (330, ry + 24), f"@ ${price}", SIZE_SMALL, TEXT_DIM, anchor="lm")
        draw_text(draw, (544, ry + 24), f"${n * price}", SIZE_BODY, TEXT if n else TEXT_DIM, anchor="rm")
    draw_text(draw, (544, y + 5 * 62 + 58), _tk(lang, "render.value", value=total), SIZE_BODY, GOLD, bold=True,
              anchor="rm")
    # Money, subsidies, silver and gold, special card.
    x0 = 580
    rounded(draw, (x0, y, pw - 16, y + 5 * 62 + 76), fill=PANEL)
    lines_y = y + 14
    draw_text(draw, (x0 + 18, lines_y), _tk(lang, "render.money"), SIZE_BODY, TEXT_DIM)
    draw_text(draw, (pw - 34, lines_y - 4), f"${priv['money']}", SIZE_TITLE, GOLD, bold=True, anchor="ra")
    lines_y += 60
    draw_text(draw, (x0 + 18, lines_y), _tk(lang, "render.subsidies"), SIZE_BODY, TEXT_DIM)
    draw_text(draw, (pw - 34, lines_y), _tk(lang, "render.units", units=priv["units"], limit=view["limits"]["subsidy"]),
              SIZE_BODY, TEXT, anchor="ra")
    lines_y += 40
    if priv["owed"]:
        draw_text(draw, (x0 + 18, lines_y), _tk(lang, "render.owed", owed=priv["owed"]), SIZE_BODY, BAD, bold=True,
                  max_width=pw - x0 - 50)
        lines_y += 40
    draw_text(draw, (x0 + 18, lines_y + 8), _tk(lang, "render.silver"), SIZE_BODY, TEXT_DIM)
    for k in range(5):
        chip(draw, (x0 + 160 + k * 34, lines_y + 24), 13, SILVER_COLOUR if k < priv["silver"] else (60, 66, 78),
             outline=(40, 44, 54))
    lines_y += 52
    draw_text(draw, (x0 + 18, lines_y + 8), _tk(lang, "render.gold"), SIZE_BODY, TEXT_DIM)
    gx = x0 + 150
    for k in range(min(priv["gold"], 7)):
        _bar(draw, gx + k * 30, lines_y + 12, 26)
    draw_text(draw, (pw - 34, lines_y + 8), str(priv["gold"]), SIZE_LABEL, GOLD, bold=True, anchor="ra")
    lines_y += 56
    draw_text(draw, (x0 + 18, lines_y), _tk(lang, "render.special_card"), SIZE_SMALL, TEXT_DIM)
    cards = priv["cards"]
    seats = view.get("seats") or []
    never = me is not None and me < len(seats) and seats[me].get("start") and view.get("players", 0) != 2
    text = (" / ".join(_tk(lang, f"special.{o}") for card in cards for o in card) if cards
            else _tk(lang, "render.no_special" if never else "render.special_spent"))
    draw_text(draw, (x0 + 18, lines_y + 30), text, SIZE_SMALL + 2, TEXT, max_width=pw - x0 - 50)
    y += 5 * 62 + 90
    lim = view["limits"]
    draw_text(draw, (pw / 2, y + 12), _tk(lang, "ui.limit_line", limit=lim["action"], subsidy=lim["subsidy"]),
              SIZE_BODY, TEXT, anchor="mm", max_width=pw - 40)
    return _flat(img).crop((0, 0, pw, y + 40))


def _bar(draw, x, y, w) -> None:
    h = w * 0.55
    draw.polygon([(x + w * 0.18, y), (x + w * 0.82, y), (x + w, y + h), (x, y + h)], fill=GOLD, outline=(150, 110, 30))


# -- results -----------------------------------------------------------------------------------


def results_image(view: dict, names: list[str], lang: str) -> Image.Image:
    seats = view["seats"]
    n = len(seats)
    row_h = 58
    chart_h = 470
    h = 80 + 50 + n * row_h + 30 + chart_h + 90
    img, draw = canvas(W, h)
    reason = view.get("end")
    sub = _tk(lang, "render.ended_by", reason=_tk(lang, f"reason.{reason}")) if reason else ""
    y = header(draw, W, _tk(lang, "render.title"), sub)
    draw_text(draw, (16, y), _tk(lang, "render.results"), SIZE_LABEL, GOLD, bold=True)
    y += 48
    finals = [s.get("final") or {"place": 0, "gold": 0, "silver": 0, "money": 0} for s in seats]
    order = sorted(range(n), key=lambda i: (finals[i]["place"] or 99, i))
    top = max(7, min(30, max(f["gold"] for f in finals)))  # up to 8 bars stand side by side unsqueezed
    for rank, i in enumerate(order):
        f = finals[i]
        ry = y + rank * row_h
        first = f["place"] == 1
        rounded(draw, (16, ry, W - 16, ry + row_h - 8), fill=PANEL_LIGHT if first else PANEL,
                outline=GOLD if first else LINE, width=3 if first else 1)
        draw_text(draw, (40, ry + (row_h - 8) / 2), _tk(lang, "render.place", place=f["place"]), SIZE_LABEL,
                  GOLD if first else TEXT, bold=True, anchor="lm")
        chip(draw, (140, ry + (row_h - 8) / 2), 12, seat_colour(i))
        draw_text(draw, (162, ry + (row_h - 8) / 2), _name(names, i), SIZE_BODY, TEXT, bold=True, anchor="lm",
                  max_width=420)
        bars = min(f["gold"], 30)
        # The bars squeeze together rather than spill, and every row keeps its length in
        # proportion to the most gold (squeezing each row on its own made 11 and 16 look equal).
        span = 168 * min(f["gold"], top) / top
        step = min(24, span / max(1, bars - 1))
        for k in range(bars):
            _bar(draw, 600 + k * step, ry + 16, 22)
        draw_text(draw, (900, ry + (row_h - 8) / 2), _tk(lang, "render.gold_short", gold=f["gold"]), SIZE_BODY, GOLD,
                  bold=True, anchor="rm")
        draw_text(draw, (1040, ry + (row_h - 8) / 2), _tk(lang, "render.silver_short", silver=f["silver"]), SIZE_BODY,
                  TEXT, anchor="rm")
        draw_text(draw, (W - 36, ry + (row_h - 8) / 2), _tk(lang, "render.money_short", money=f["money"]), SIZE_BODY,
                  TEXT_DIM, anchor="rm")
    y += n * row_h + 20
    _chart(draw, (16, y, W - 16, y + chart_h), view.get("history") or [], lang)
    y += chart_h + 12
    # legend
    lx = 30
    for c in COLOURS:
        draw.line([lx, y + 16, lx + 36, y + 16], fill=STOCK[c], width=6)
        draw_text(draw, (lx + 44, y + 16), _tk(lang, f"colour.{c}"), SIZE_SMALL, TEXT, anchor="lm")
        lx += 44 + text_width(_tk(lang, f"colour.{c}"), font(SIZE_SMALL)) + 30
    _dashed(draw, (lx, y + 16), (lx + 36, y + 16), SILVER_COLOUR, 6)
    draw_text(draw, (lx + 44, y + 16), _tk(lang, "render.silver"), SIZE_SMALL, TEXT, anchor="lm")
    return _flat(img).crop((0, 0, W, y + 44))


def _dashed(draw, a, b, colour, width, dash=10) -> None:
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    steps = int(length // dash)
    for k in range(0, steps, 2):
        s, e = k / steps, min(1, (k + 1) / steps)
        draw.line([x0 + (x1 - x0) * s, y0 + (y1 - y0) * s, x0 + (x1 - x0) * e, y0 + (y1 - y0) * e], fill=colour,
                  width=width)


def _chart(draw, box, history: list, lang: str) -> None:
    """Price history on a log scale ($4 to $200): one line per colour, silver dashed."""
    x0, y0, x1, y1 = box
    rounded(draw, box, fill=PANEL)
    draw_text(draw, (x0 + 16, y0 + 10), _tk(lang, "render.history"), SIZE_LABEL, GOLD, bold=True)
    left, right, top, bottom = x0 + 70, x1 - 20, y0 + 60, y1 - 46
    lo, hi = math.log(4), math.log(200)

    def yv(v):
        return bottom - (math.log(max(4, min(200, v))) - lo) / (hi - lo) * (bottom - top)

    for g in (4, 10, 20, 50, 100, 200):
        gy = yv(g)
        draw.line([left, gy, right, gy], fill=LINE, width=1)
        draw_text(draw, (left - 10, gy), f"${g}", SIZE_SMALL, TEXT_DIM, anchor="rm")
    n = len(history)
    if n == 0:
        return

    def xv(i):
        return left + (right - left) * (i / max(1, n - 1))

    step = max(1, round(n / 8))
    for i in range(0, n, step):
        draw_text(draw, (xv(i), bottom + 8), str(i), SIZE_SMALL, TEXT_DIM, anchor="ma")
    draw_text(draw, (x1 - 20, y0 + 24), "→ " + _tk(lang, "render.adjustments"), SIZE_SMALL, TEXT_DIM, anchor="ra")
    sil = [(xv(i), yv(h["silver"])) for i, h in enumerate(history)]
    for a, b in zip(sil, sil[1:]):
        _dashed(draw, a, b, SILVER_COLOUR, 4, dash=8)
    for ci, c in enumerate(COLOURS):
        pts = [(xv(i), yv(h["prices"][ci])) for i, h in enumerate(history)]
        if len(pts) > 1:
            draw.line(pts, fill=STOCK[c], width=4, joint="curve")
        ex, ey = pts[-1]
        chip(draw, (ex, ey), 6, STOCK[c], outline=BG, width=1)


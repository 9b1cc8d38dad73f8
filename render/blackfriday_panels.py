"""Black Friday's private panel (a seat's holdings, money, subsidies, silver and gold, special
card) and the results picture (the final standings and the price history), drawn from engine
views only; the board is in render/blackfriday.py."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image

from engine.blackfriday.data import COLOURS
from render.common import (
    picture,
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
    font,
    header,
    lines_at_most,
    rounded,
    seat_colour,
    text_width,
)
from render.blackfriday_parts import (
    BAND,
    BLACK_BAG,
    SILVER_COLOUR,
    STOCK,
    W,
    briefcase,
    dark,
    draw_text,
    name_of,
    options_text,
    plain,
    tk,
)



@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One 256-colour palette for every Black Friday picture, chosen from a swatch of the
    colours we draw with and their anti-aliased blends over our backgrounds."""
    backs = [BG, PANEL, PANEL_LIGHT, (30, 34, 44), (70, 76, 90), (110, 86, 30), (90, 40, 40), *BAND]
    fores = [TEXT, TEXT_DIM, GOLD, GOOD, BAD, LINE, SILVER_COLOUR, BLACK_BAG, (190, 210, 196), (150, 112, 72),
             (10, 10, 10), *STOCK.values(), *(dark(c) for c in STOCK.values()),
             *(dark(c, 0.3) for c in STOCK.values()), *(seat_colour(i) for i in range(6))]
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


PANEL_W = 1000
#: A line of the special card's options on the panel.
SPECIAL_LINE = 34


@picture(PANEL_W)
def panel_image(view: dict, names: list[str], lang: str) -> Image.Image | None:
    priv = view.get("private")
    if priv is None:
        return None
    pw = PANEL_W
    img, draw = canvas(pw, 560)
    me = view.get("me")
    y = header(draw, pw, name_of(names, me), tk(lang, "render.private"))
    # Holdings by colour with their value at today's prices.
    rounded(draw, (16, y, 560, y + 5 * 62 + 76), fill=PANEL)
    draw_text(draw, (32, y + 10), tk(lang, "render.holdings"), SIZE_LABEL, GOLD, bold=True)
    total = 0
    for i, c in enumerate(COLOURS):
        ry = y + 58 + i * 62
        n = priv["bags"][c]
        price = view["prices"][c]["price"]
        total += n * price
        briefcase(img, 32, ry + 4, 46, STOCK[c] if n else dark(STOCK[c], 0.4))
        draw_text(draw, (92, ry + 24), tk(lang, f"colour.{c}"), SIZE_BODY, TEXT if n else TEXT_DIM, anchor="lm",
                  max_width=130)
        draw_text(draw, (300, ry + 24), f"×{n}", SIZE_LABEL, TEXT if n else TEXT_DIM, bold=True, anchor="rm")
        draw_text(draw, (330, ry + 24), f"@ ${price}", SIZE_SMALL, TEXT_DIM, anchor="lm")
        draw_text(draw, (544, ry + 24), f"${n * price}", SIZE_BODY, TEXT if n else TEXT_DIM, anchor="rm")
    draw_text(draw, (544, y + 5 * 62 + 58), tk(lang, "render.value", value=total), SIZE_BODY, GOLD, bold=True,
              anchor="rm")
    # Money, subsidies, silver and gold, special card.
    x0 = 580
    rounded(draw, (x0, y, pw - 16, y + 5 * 62 + 76), fill=PANEL)
    lines_y = y + 14
    draw_text(draw, (x0 + 18, lines_y), tk(lang, "render.money"), SIZE_BODY, TEXT_DIM)
    draw_text(draw, (pw - 34, lines_y - 4), f"${priv['money']}", SIZE_TITLE, GOLD, bold=True, anchor="ra")
    lines_y += 60
    draw_text(draw, (x0 + 18, lines_y), tk(lang, "render.subsidies"), SIZE_BODY, TEXT_DIM)
    draw_text(draw, (pw - 34, lines_y), tk(lang, "render.units", units=priv["units"], limit=view["limits"]["subsidy"]),
              SIZE_BODY, TEXT, anchor="ra")
    lines_y += 50
    if priv["owed"]:
        draw_text(draw, (x0 + 18, lines_y), tk(lang, "render.owed", owed=priv["owed"]), SIZE_BODY, BAD, bold=True,
                  max_width=pw - x0 - 50)
        lines_y += 40
    draw_text(draw, (x0 + 18, lines_y + 24), tk(lang, "render.silver"), SIZE_BODY, TEXT_DIM, anchor="lm")
    for k in range(5):
        chip(draw, (x0 + 160 + k * 34, lines_y + 24), 13, SILVER_COLOUR if k < priv["silver"] else (60, 66, 78),
             outline=(40, 44, 54))
    lines_y += 52
    draw_text(draw, (x0 + 18, lines_y + 24), tk(lang, "render.gold"), SIZE_BODY, TEXT_DIM, anchor="lm")
    gx = x0 + 150
    for k in range(min(priv["gold"], 7)):
        _bar(draw, gx + k * 30, lines_y + 17, 26)
    draw_text(draw, (pw - 34, lines_y + 24), str(priv["gold"]), SIZE_LABEL, GOLD, bold=True, anchor="rm")
    lines_y += 56
    draw_text(draw, (x0 + 18, lines_y), tk(lang, "render.special_card"), SIZE_SMALL, TEXT_DIM)
    cards = priv["cards"]
    seats = view.get("seats") or []
    never = me is not None and me < len(seats) and seats[me].get("start") and view.get("players", 0) != 2
    text = (options_text(cards, lang) if cards
            else tk(lang, "render.no_special" if never else "render.special_spent"))
    # Wrapped in the box's room (four options take two lines): a player plans with all of them.
    box_bottom = y + 5 * 62 + 76
    special = font(SIZE_SMALL + 2)
    most = max(1, (box_bottom - 8 - (lines_y + 30)) // SPECIAL_LINE)
    for k, line in enumerate(lines_at_most(text, pw - x0 - 50, special, most)):
        draw_text(draw, (x0 + 18, lines_y + 30 + k * SPECIAL_LINE), plain(line), SIZE_SMALL + 2, TEXT,
                  max_width=pw - x0 - 50)
    y += 5 * 62 + 90
    lim = view["limits"]
    draw_text(draw, (pw / 2, y + 12), tk(lang, "ui.limit_line", limit=lim["action"], subsidy=lim["subsidy"]),
              SIZE_BODY, TEXT, anchor="mm", max_width=pw - 40)
    return _flat(img.crop((0, 0, pw, y + 46)))


def _bar(draw, x, y, w) -> None:
    h = w * 0.55
    draw.polygon([(x + w * 0.18, y), (x + w * 0.82, y), (x + w, y + h), (x, y + h)], fill=GOLD, outline=(150, 110, 30))


# -- results -----------------------------------------------------------------------------------


@picture(W)
def results_image(view: dict, names: list[str], lang: str) -> Image.Image:
    seats = view["seats"]
    n = len(seats)
    row_h = 58
    chart_h = 470
    h = 80 + 50 + n * row_h + 30 + chart_h + 90
    img, draw = canvas(W, h)
    reason = view.get("end")
    sub = tk(lang, "render.ended_by", reason=tk(lang, f"reason.{reason}")) if reason else ""
    y = header(draw, W, tk(lang, "render.title"), sub)
    draw_text(draw, (16, y), tk(lang, "render.results"), SIZE_LABEL, GOLD, bold=True)
    y += 48
    finals = [s.get("final") or {"place": 0, "gold": 0, "silver": 0, "money": 0} for s in seats]
    order = sorted(range(n), key=lambda i: (finals[i]["place"] or 99, i))
    top = max(7, min(30, max(f["gold"] for f in finals)))  # up to 8 bars stand side by side unsqueezed
    # Right-aligned columns as wide as their widest figure: money, silver, gold.
    cols = [max(text_width(tk(lang, key, **{arg: f[arg]}), font(SIZE_BODY, bold)) for f in finals)
            for key, arg, bold in (("render.money_short", "money", False), ("render.silver_short", "silver", False),
                                   ("render.gold_short", "gold", True))]
    for rank, i in enumerate(order):
        _result_row(draw, y + rank * row_h, row_h - 8, i, finals[i], top, cols, names, lang)
    y += n * row_h + 20
    _chart(draw, (16, y, W - 16, y + chart_h), view.get("history") or [], lang)
    y += chart_h + 12
    # legend
    lx = 30
    for c in COLOURS:
        draw.line([lx, y + 16, lx + 36, y + 16], fill=STOCK[c], width=6)
        draw_text(draw, (lx + 44, y + 16), tk(lang, f"colour.{c}"), SIZE_SMALL, TEXT, anchor="lm")
        lx += 44 + text_width(tk(lang, f"colour.{c}"), font(SIZE_SMALL)) + 30
    _dashed(draw, (lx, y + 16), (lx + 36, y + 16), SILVER_COLOUR, 6)
    draw_text(draw, (lx + 44, y + 16), tk(lang, "render.silver"), SIZE_SMALL, TEXT, anchor="lm")
    return _flat(img.crop((0, 0, W, y + 44)))


def _result_row(draw, y: int, h: int, i: int, f: dict, top: int, cols: list[int], names, lang: str) -> None:
    """One player's result, right to left: money, silver, gold (as bars and a figure); then the
    place and the name in the room left."""
    first = f["place"] == 1
    mid = y + h / 2
    rounded(draw, (16, y, W - 16, y + h), fill=PANEL_LIGHT if first else PANEL, outline=GOLD if first else LINE,
            width=3 if first else 1)
    x = W - 36
    draw_text(draw, (x, mid), tk(lang, "render.money_short", money=f["money"]), SIZE_BODY, TEXT_DIM, anchor="rm")
    x -= cols[0] + 30
    draw_text(draw, (x, mid), tk(lang, "render.silver_short", silver=f["silver"]), SIZE_BODY, TEXT, anchor="rm")
    x -= cols[1] + 30
    draw_text(draw, (x, mid), tk(lang, "render.gold_short", gold=f["gold"]), SIZE_BODY, GOLD, bold=True, anchor="rm")
    x -= cols[2] + 24
    # The bars squeeze together rather than spill, and every row keeps its length in
    # proportion to the most gold (squeezing each row on its own made 11 and 16 look equal).
    bars = min(f["gold"], 30)
    span = 168 * min(f["gold"], top) / top
    step = min(24, span / max(1, bars - 1))
    x -= 190
    for k in range(bars):
        _bar(draw, x + k * step, mid - 8, 22)
    draw_text(draw, (40, mid), tk(lang, "render.place", place=f["place"]), SIZE_LABEL, GOLD if first else TEXT,
              bold=True, anchor="lm")
    chip(draw, (140, mid), 12, seat_colour(i))
    draw_text(draw, (162, mid), name_of(names, i), SIZE_BODY, TEXT, bold=True, anchor="lm", max_width=x - 182)


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
    draw_text(draw, (x0 + 16, y0 + 10), tk(lang, "render.history"), SIZE_LABEL, GOLD, bold=True)
    left, right, top, bottom = x0 + 86, x1 - 24, y0 + 80, y1 - 46
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
    draw_text(draw, (x1 - 20, y0 + 24), "→ " + tk(lang, "render.adjustments"), SIZE_SMALL, TEXT_DIM, anchor="ra")
    sil = [(xv(i), yv(h["silver"])) for i, h in enumerate(history)]
    for a, b in zip(sil, sil[1:]):
        _dashed(draw, a, b, SILVER_COLOUR, 4, dash=8)
    for ci, c in enumerate(COLOURS):
        pts = [(xv(i), yv(h["prices"][ci])) for i, h in enumerate(history)]
        if len(pts) > 1:
            draw.line(pts, fill=STOCK[c], width=4, joint="curve")
        ex, ey = pts[-1]
        chip(draw, (ex, ey), 6, STOCK[c], outline=BG, width=1)

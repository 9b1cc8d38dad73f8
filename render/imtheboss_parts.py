"""I'm the Boss! pictures, the pieces: clan squares with their initials, the ring of deal spaces
and its tiles, the deal card, and the hand's cards with their icons. render/imtheboss.py puts
them together into the table, results and panel pictures."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Sequence

from PIL import Image, ImageDraw

from engine.imtheboss.data import CLAN_RGB, SPACES
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
    WHITE,
    font,
    layer,
    floor,
    fit_wrap,
    rounded,
    t,
    text,
    text_width,
)

T = "imtheboss"
W = 1200
MARGIN = 16
GAP = 8
TILE_W = (W - 2 * MARGIN - 4 * GAP) // 5
DARK_INK = (20, 22, 28)
GREY_TRAVEL = (150, 156, 168)
COVER = (18, 20, 26)
CARD_FACE = (244, 236, 214)
def draw_text(draw: ImageDraw.ImageDraw, xy, words: str, size: int = SIZE_BODY, fill=TEXT, bold: bool = False,
              anchor: str = "la", max_width: int | None = None) -> int:
    """Text at `xy`; with `max_width` it is cut with an ellipsis, never shrunk below `size`, so
    long player names stay legible on a phone."""
    return text(draw, xy, words, size, fill, bold, anchor, max_width, shrink=False)


def tk(lang: str, key: str, **params: Any) -> str:
    return t(lang, f"{T}.{key}", **params)


def seat_name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "-"
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def palette_colours() -> list[tuple[int, int, int]]:
    """Colours worked out while drawing, kept exactly in the palette (tools/pictures.py): the
    clans' squares on covered spaces, and every square's edge."""
    out = []
    for rgb in CLAN_RGB.values():
        dim = blend(rgb, COVER, 0.62)
        out += [dim, blend(dim, BG, 0.5), blend(rgb, BG, 0.5), blend(DARK_INK if light(dim) else WHITE, dim, 0.3)]
    return out


def light(rgb) -> bool:
    r, g, b = rgb[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b > 150


def blend(c1, c2, a: float):
    return tuple(int(x * (1 - a) + y * a) for x, y in zip(c1, c2))


def initial(lang: str, clan: str) -> str:
    """The clan's mark in its square (from the catalogue: Spanish needs "Az" and "Am")."""
    return tk(lang, f"clan_letter.{clan}")


def money_text(lang: str, seat_view: dict) -> str:
    if "money" in seat_view:
        return tk(lang, "render.money_exact", money=seat_view["money"])
    lo, hi = seat_view["money_est"]
    if hi == 0:
        return tk(lang, "render.money_zero")
    return tk(lang, "render.money_range", lo=lo, hi=hi)


#: A clan square on the board and beside the players: big enough for its mark at the phone floor.
SQ = 46


def _mark_font(mark: str, size: int) -> tuple[int, bool]:
    """(font size, bold) of a clan's mark in a square `size` wide: a single letter or kanji a
    little over half the square, two letters ("Az", "Am") at the floor, in the regular weight
    when the bold one is too wide for the square."""
    low = floor()
    if len(mark) == 1:
        return max(low, int(size * 0.62)), True
    bold = text_width(mark, font(low, True)) <= size - 6
    return low, bold


@layer(maxsize=512)
def square_img(clan: str, size: int, lang: str, dim: bool) -> Image.Image:
    """A clan's square with its initial, drawn once per (clan, size, language) and pasted: the
    board shows some eighty of them, and text is the slow part of drawing."""
    rgb = CLAN_RGB[clan]
    fill = blend(rgb, COVER, 0.62) if dim else rgb
    ink = DARK_INK if light(fill) else WHITE
    img = Image.new("RGBA", (size + 1, size + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([0, 0, size, size], radius=max(3, size // 6), fill=fill, outline=blend(fill, BG, 0.5), width=1)
    mark = initial(lang, clan)
    msize, bold = _mark_font(mark, size)
    text(d, (size / 2, size / 2 + 1), mark, msize, blend(ink, fill, 0.3) if dim else ink, bold, "mm")
    return img


def clan_square(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, clan: str, lang: str,
                dim: bool = False, tick: bool = False, cross: bool = False) -> None:
    """A clan's square with its initial; `dim` for covered spaces, `tick` when a clan is in."""
    sq = square_img(clan, int(size), lang, dim)
    draw._image.paste(sq, (int(x), int(y)), sq)
    if tick:
        draw_tick(draw, x, y, size)
    if cross:
        draw.line([x + 4, y + 4, x + size - 4, y + size - 4], fill=BAD, width=4)
        draw.line([x + size - 4, y + 4, x + 4, y + size - 4], fill=BAD, width=4)


def draw_tick(draw: ImageDraw.ImageDraw, x: float, y: float, size: int) -> None:
    cx, cy, r = x + size - 4, y + 4, max(9, size // 4)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=GOOD, outline=BG, width=2)
    draw.line([cx - r * 0.5, cy, cx - r * 0.1, cy + r * 0.45, cx + r * 0.55, cy - r * 0.4], fill=WHITE, width=3)


def ring_cells() -> list[tuple[int, int]]:
    """(col, row) of spaces 0..15 on a 5x5 grid, clockwise from the top left."""
    cells = [(c, 0) for c in range(5)]
    cells += [(4, r) for r in range(1, 4)]
    cells += [(c, 4) for c in range(4, -1, -1)]
    cells += [(0, r) for r in range(3, 0, -1)]
    return cells


RING = ring_cells()
#: A tile's header (its letter, the deal card on it, its dividends), and the padding below.
HEAD_H = 50
PAD = 8
SQ_STEP = SQ + 4


def _pool_label_w() -> int:
    return text_width("5×", font(SIZE_SMALL, True)) + 10


def flow(sp: dict, x0: int, y0: int, x1: int) -> list[tuple]:
    """Positions of a space's requirement items: (kind, x, y, height, width, payload). The
    squares keep their size (their marks at the phone floor); a pool too long for one row
    wraps onto more rows, as even as they go (3+3, not 5+1), and the tile grows instead."""
    label_w = _pool_label_w()
    items = []
    if sp["req"]:
        items.append(("req", len(sp["req"]) * (SQ + 6) - 6, SQ, sp["req"]))
    for pool, k in sp["pools"]:
        per_row = max(1, min(len(pool), (x1 - x0 - 20 - label_w) // SQ_STEP))
        rows = -(-len(pool) // per_row)
        per_row = -(-len(pool) // rows)
        w = label_w + per_row * SQ_STEP + 4
        items.append(("pool", w, rows * SQ_STEP + 4, (pool, k, per_row)))
    out = []
    x, y, row_h = x0 + 8, y0, 0
    for kind_, w, h, payload in items:
        if x + w > x1 - 4 and x > x0 + 8:
            x, y, row_h = x0 + 8, y + row_h + 6, 0
        out.append((kind_, x, y, h, w, payload))
        x += w + 8
        row_h = max(row_h, h)
    return out or [("none", x0, y0, 0, 0, None)]


@lru_cache(maxsize=1)
def row_heights() -> tuple[int, ...]:
    """The five rows of the ring, each as tall as its tallest space needs."""
    heights = [HEAD_H + SQ + PAD] * 5
    for space, sp in enumerate(SPACES):
        bottom = max(y + h for _k, _x, y, h, _w, _p in flow(sp, 0, HEAD_H, TILE_W))
        row = RING[space][1]
        heights[row] = max(heights[row], bottom + PAD)
    return tuple(heights)


def board_height() -> int:
    return sum(row_heights()) + 4 * GAP


def tile_box(space: int, y0: int) -> tuple[int, int, int, int]:
    c, r = RING[space]
    rows = row_heights()
    x = MARGIN + c * (TILE_W + GAP)
    y = y0 + sum(rows[:r]) + r * GAP
    return x, y, x + TILE_W, y + rows[r]


def centre_box(y0: int) -> tuple[int, int, int, int]:
    """The middle of the ring (rows 1 to 3, columns 1 to 3)."""
    rows = row_heights()
    top = y0 + rows[0] + GAP
    return MARGIN + TILE_W + GAP, top, W - MARGIN - TILE_W - GAP, top + sum(rows[1:4]) + 2 * GAP


def tile_picture(space: int, card: int | None, lang: str, height: int, ticked: list[str], marker: bool) -> Image.Image:
    """A space as the table shows it: its tile, ticks on the clans a deal there has covered,
    and the dollar marker (a gold frame, the space's letter on a gold coin)."""
    base, squares = tile_base(space, card, lang, height)
    img = base.copy()
    draw = ImageDraw.Draw(img)
    for clan, sx, sy, size in squares:
        if clan in ticked:
            draw_tick(draw, sx, sy, size)
    if marker:
        draw.rounded_rectangle((0, 0, TILE_W, height), radius=12, outline=GOLD, width=5)
        draw.ellipse([6, 5, 46, 45], fill=GOLD, outline=blend(GOLD, BG, 0.5), width=3)
        draw_text(draw, (26, 25), tk(lang, f"space.{space}"), SIZE_SMALL, DARK_INK, bold=True, anchor="mm")
    return img


@layer(maxsize=128)  # each space's look is kept as a part (render.compose) anyway
def tile_base(space: int, card: int | None, lang: str, height: int) -> tuple[Image.Image, tuple]:
    """A space drawn once per (space, deal card on it, language, height), with the positions of
    its clan squares (for the deal's ticks)."""
    img = Image.new("RGB", (TILE_W + 1, height + 1), BG)
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = 0, 0, TILE_W, height
    sp = SPACES[space]
    covered = card is not None
    fill = blend(PANEL, COVER, 0.55) if covered else PANEL
    rounded(draw, (x0, y0, x1, y1), radius=12, fill=fill, outline=LINE, width=2)
    # header: the space letter, the deal card on it (a red pill), its dividends
    draw.ellipse([x0 + 7, y0 + 6, x0 + 45, y0 + 44], fill=blend(PANEL_LIGHT, BG, 0.2) if not covered else COVER,
                 outline=LINE, width=2)
    draw_text(draw, (x0 + 26, y0 + 25), tk(lang, f"space.{space}"), SIZE_SMALL, TEXT_DIM if covered else TEXT,
              bold=True, anchor="mm")
    draw_text(draw, (x1 - 10, y0 + 25), tk(lang, "render.dividends", count=sp["div"]), SIZE_SMALL,
              TEXT_DIM if covered else GOLD, bold=True, anchor="rm")
    if covered:
        pill = f"#{card}"
        pw = text_width(pill, font(SIZE_SMALL, True)) + 16
        px = x0 + 52
        draw.rounded_rectangle([px, y0 + 8, px + pw, y0 + 42], radius=9, fill=(150, 40, 50), outline=GOLD, width=2)
        draw_text(draw, (px + pw / 2, y0 + 25), pill, SIZE_SMALL, WHITE, bold=True, anchor="mm")
    # requirements flow left to right and wrap: required clans as squares, pools as boxes
    squares = []
    label_w = _pool_label_w()
    for kind_, x, y, h, w, item in flow(sp, x0, y0 + HEAD_H, x1):
        if kind_ == "req":
            cx = x
            for c in item:
                clan_square(draw, cx, y, SQ, c, lang, dim=covered)
                squares.append((c, cx, y, SQ))
                cx += SQ + 6
        elif kind_ == "pool":
            pool, k, per_row = item
            draw.rounded_rectangle([x, y, x + w, y + h], radius=6, fill=blend(fill, WHITE, 0.06),
                                   outline=blend(LINE, WHITE, 0.2), width=1)
            draw_text(draw, (x + 5, y + 4 + SQ / 2), f"{k}×", SIZE_SMALL, TEXT_DIM if covered else TEXT, bold=True,
                      anchor="lm")
            for i, c in enumerate(pool):
                row, col = divmod(i, per_row)
                cx, cy = x + label_w + col * SQ_STEP, y + 2 + row * SQ_STEP
                clan_square(draw, cx, cy, SQ, c, lang, dim=covered)
                squares.append((c, cx, cy, SQ))
    return img, tuple(squares)


def deal_card(draw: ImageDraw.ImageDraw, x: int, y: int, view: dict, lang: str, w: int = 172, h: int = 200) -> None:
    top = view.get("top")
    if top is None:
        rounded(draw, (x, y, x + w, y + h), radius=14, fill=COVER, outline=LINE)
        draw_text(draw, (x + w / 2, y + h / 2), tk(lang, "render.no_cards"), SIZE_SMALL, TEXT_DIM, anchor="mm",
                  max_width=w - 12)
        return
    # the stack under it
    for i in range(min(3, len(view["stack"]) - 1), 0, -1):
        rounded(draw, (x + 5 * i, y + 5 * i, x + w + 5 * i, y + h + 5 * i), radius=14, fill=(92, 30, 36),
                outline=(60, 20, 24), width=2)
    rounded(draw, (x, y, x + w, y + h), radius=14, fill=CARD_FACE, outline=GOLD, width=4)
    draw_text(draw, (x + 14, y + 12), f"#{top['no']}", SIZE_LABEL, (120, 36, 44), bold=True)
    draw_text(draw, (x + w / 2, y + h / 2 + 12), f"${top['value']}M", SIZE_TITLE + 8, DARK_INK, bold=True, anchor="mm")
    if top.get("end"):
        sub = tk(lang, "render.last_card")
    elif top["back"]:
        back = top["back"]
        sub = tk(lang, "render.ends_on", faces=f"{back[0]}-{back[-1]}" if len(back) > 1 else str(back[0]))
    else:
        sub = tk(lang, "render.no_roll")
    draw_text(draw, (x + w / 2, y + h - 22), sub, SIZE_SMALL, (90, 70, 60), anchor="mm", max_width=w - 8)


CARD_W = 168
CARD_H = 252
CARD_GAP = 14
def kind_look(k: str) -> tuple[tuple[int, int, int], str]:
    """(colour, family) of a card kind."""
    if k.startswith("clan-"):
        return CLAN_RGB[k[5:]], "clan"
    if k == "travel-grey":
        return GREY_TRAVEL, "travel"
    if k.startswith("travel-"):
        return CLAN_RGB[k[7:]], "travel"
    return {"recruit": (92, 120, 170), "boss": (40, 40, 48), "stop": (200, 48, 48)}[k], k


def suitcase(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour, body) -> None:
    """A suitcase for travel cards (旅行)."""
    draw.rounded_rectangle([cx - s * 0.4, cy - s * 0.95, cx + s * 0.4, cy - s * 0.45], radius=int(s * 0.15),
                           outline=colour, width=max(4, int(s * 0.14)))
    draw.rounded_rectangle([cx - s, cy - s * 0.6, cx + s, cy + s * 0.75], radius=int(s * 0.2), fill=colour)
    for dx in (-0.55, 0.55):
        draw.rectangle([cx + s * dx - s * 0.08, cy - s * 0.6, cx + s * dx + s * 0.08, cy + s * 0.75], fill=body)


def icon(draw: ImageDraw.ImageDraw, family: str, cx: float, cy: float, ink, lang: str, k: str, body=None) -> None:
    if family == "clan":
        draw.ellipse([cx - 26, cy - 46, cx + 26, cy + 6], fill=ink)
        draw.pieslice([cx - 46, cy + 2, cx + 46, cy + 90], 180, 360, fill=ink)
    elif family == "travel":
        suitcase(draw, cx, cy + 8, 44, ink, body)
    elif family == "recruit":
        for dx in (-26, 0, 26):
            draw.ellipse([cx + dx - 12, cy - 30, cx + dx + 12, cy - 6], fill=ink)
            draw.pieslice([cx + dx - 20, cy - 4, cx + dx + 20, cy + 36], 180, 360, fill=ink)
        draw_text(draw, (cx, cy + 44), "×3", SIZE_BODY, ink, bold=True, anchor="mm")
    elif family == "boss":
        draw.polygon([(cx - 44, cy + 24), (cx - 44, cy - 24), (cx - 22, cy), (cx, cy - 34), (cx + 22, cy), (cx + 44, cy - 24),
                      (cx + 44, cy + 24)], fill=GOLD)
    elif family == "stop":
        pts = []
        for i in range(8):
            a = math.pi / 8 + i * math.pi / 4
            pts.append((cx + 46 * math.cos(a), cy + 46 * math.sin(a)))
        draw.polygon(pts, fill=WHITE)
        draw.polygon([(px * 0.86 + cx * 0.14, py * 0.86 + cy * 0.14) for px, py in pts], fill=(200, 48, 48))
        draw_text(draw, (cx, cy), "STOP", SIZE_SMALL, WHITE, bold=True, anchor="mm")


def card_name_lines(k: str, lang: str) -> tuple[int, list[str]]:
    """A hand card's name on at most three lines, shrunk (to the floor) rather than cut mid-word;
    a word too long even there is hyphenated ("Recluta-" "miento", issue 30)."""
    return fit_wrap(tk(lang, f"card.{k}"), CARD_W - 14, SIZE_SMALL, 3, bold=True)


def hand_card(draw: ImageDraw.ImageDraw, x: int, y: int, k: str, count: int, lang: str) -> None:
    colour, family = kind_look(k)
    rounded(draw, (x, y, x + CARD_W, y + CARD_H), radius=14, fill=CARD_FACE, outline=blend(colour, BG, 0.2), width=4)
    draw.rounded_rectangle([x + 8, y + 8, x + CARD_W - 8, y + 150], radius=10, fill=colour)
    ink = DARK_INK if light(colour) else WHITE
    icon(draw, family, x + CARD_W / 2, y + 78, ink, lang, k, body=colour)
    size, lines = card_name_lines(k, lang)
    ty = y + 202 - (len(lines) - 1) * (size + 3) / 2
    for line in lines:
        draw_text(draw, (x + CARD_W / 2, ty), line, size, DARK_INK, bold=True, anchor="mm", max_width=CARD_W - 10)
        ty += size + 3
    if count > 1:  # how many: a gold tag on the card's top right corner
        tag = f"×{count}"
        tw = text_width(tag, font(SIZE_SMALL, True)) + 18
        x1, y0 = x + CARD_W + 6, y - 8
        draw.rounded_rectangle([x1 - tw, y0, x1, y0 + 38], radius=19, fill=GOLD, outline=BG, width=3)
        draw_text(draw, (x1 - tw / 2, y0 + 19), tag, SIZE_SMALL, DARK_INK, bold=True, anchor="mm")

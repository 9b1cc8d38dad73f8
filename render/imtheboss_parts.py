"""I'm the Boss! pictures, the pieces: clan squares with their initials, the ring of deal spaces
and its tiles, the deal card, and the hand's cards with their icons. render/imtheboss.py puts
them together into the table, results and panel pictures."""

from __future__ import annotations

import math
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
TILE_H = 172
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
    text(d, (size / 2, size / 2 + 1), mark, max(12, int(size * (0.66 if len(mark) == 1 else 0.46))),
         blend(ink, fill, 0.4) if dim else ink, True, "mm")
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
    cx, cy, r = x + size - 4, y + 4, max(8, size // 4)
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
def tile_box(space: int, y0: int) -> tuple[int, int, int, int]:
    c, r = RING[space]
    x = MARGIN + c * (TILE_W + GAP)
    y = y0 + r * (TILE_H + GAP)
    return x, y, x + TILE_W, y + TILE_H


def draw_tile(draw: ImageDraw.ImageDraw, view: dict, space: int, box, lang: str) -> None:
    x0, y0, x1, y1 = box
    card = view["covered"][space]
    base, squares = tile_base(space, card, lang)
    draw._image.paste(base, (x0, y0))
    deal = view.get("deal")
    if deal is not None and deal["space"] == space:
        cov = set(deal["covered"])
        for clan, sx, sy, size in squares:
            if clan in cov:
                draw_tick(draw, x0 + sx, y0 + sy, size)
    if view.get("marker") == space and not view["over"]:
        draw.rounded_rectangle(box, radius=12, outline=GOLD, width=5)
        r = 19  # the dollar marker, in the corner the requirements never reach
        cx, cy = x1 - 26, y1 - 26
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=GOLD, outline=blend(GOLD, BG, 0.5), width=3)
        draw_text(draw, (cx, cy + 1), "$", SIZE_LABEL, DARK_INK, bold=True, anchor="mm")


@layer(maxsize=1024)
def tile_base(space: int, card: int | None, lang: str) -> tuple[Image.Image, tuple]:
    """A space drawn once per (space, deal card on it, language), with the positions of its clan
    squares (for the deal's ticks)."""
    img = Image.new("RGB", (TILE_W + 1, TILE_H + 1), BG)
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = 0, 0, TILE_W, TILE_H
    sp = SPACES[space]
    covered = card is not None
    fill = blend(PANEL, COVER, 0.55) if covered else PANEL
    rounded(draw, (x0, y0, x1, y1), radius=12, fill=fill, outline=LINE, width=2)
    # header: the space letter and its dividends
    letter = tk(lang, f"space.{space}")
    draw.ellipse([x0 + 8, y0 + 7, x0 + 40, y0 + 39], fill=blend(PANEL_LIGHT, BG, 0.2) if not covered else COVER,
                 outline=LINE, width=2)
    draw_text(draw, (x0 + 24, y0 + 23), letter, SIZE_SMALL, TEXT_DIM if covered else TEXT, bold=True, anchor="mm")
    draw_text(draw, (x1 - 10, y0 + 23), tk(lang, "render.dividends", count=sp["div"]), SIZE_SMALL,
              TEXT_DIM if covered else GOLD, bold=True, anchor="rm")
    if covered:
        # the deal card lies on the space: a red pill in the header, the clans dimmed below
        pill = f"#{card}"
        pw = text_width(pill, font(SIZE_BODY, True)) + 22
        px = x0 + 50
        draw.rounded_rectangle([px, y0 + 8, px + pw, y0 + 40], radius=9, fill=(150, 40, 50), outline=GOLD, width=2)
        draw_text(draw, (px + pw / 2, y0 + 24), pill, SIZE_BODY, WHITE, bold=True, anchor="mm")
    # requirements flow left to right and wrap: required clans as big squares, pools as boxes;
    # squares shrink a step when a space's requirements would not fit the tile (they start large:
    # the picture is read about 400 pixels wide on a phone)
    label_w = text_width("5×", font(SIZE_SMALL, True)) + 8
    for big, small in ((42, 36), (40, 32), (38, 28), (34, 26), (30, 22)):
        placed = flow(sp, big, small, label_w, x0, y0 + 48, x1)
        if placed[-1][2] + placed[-1][3] <= y1 - 6:
            break
    squares = []
    for kind_, x, y, h, w, item in placed:
        if kind_ == "req":
            cx = x
            for c in item:
                clan_square(draw, cx, y, big, c, lang, dim=covered)
                squares.append((c, cx, y, big))
                cx += big + 6
        elif kind_ == "pool":
            pool, k, step, per_row = item
            draw.rounded_rectangle([x, y, x + w, y + h], radius=6, fill=blend(fill, WHITE, 0.06),
                                   outline=blend(LINE, WHITE, 0.2), width=1)
            draw_text(draw, (x + 5, y + h / 2), f"{k}×", SIZE_SMALL, TEXT_DIM if covered else TEXT, bold=True,
                      anchor="lm")
            for i, c in enumerate(pool):
                row, col = divmod(i, per_row)
                cx, cy = x + label_w + col * step, y + 3 + row * step
                clan_square(draw, cx, cy, small, c, lang, dim=covered)
                squares.append((c, cx, cy, small))
    return img, tuple(squares)


def flow(sp: dict, big: int, small: int, label_w: int, x0: int, y0: int, x1: int) -> list[tuple]:
    """Positions of a space's requirement items: (kind, x, y, height, width, payload)."""
    items = []
    if sp["req"]:
        items.append(("req", len(sp["req"]) * (big + 6) - 6, big, sp["req"]))
    for pool, k in sp["pools"]:
        # A pool too long for one row wraps onto more rows at the same size (shrinking its
        # squares made their letters unreadable on a phone).
        step = small + 4
        per_row = max(1, min(len(pool), (TILE_W - 20 - label_w) // step))
        rows = -(-len(pool) // per_row)
        per_row = -(-len(pool) // rows)  # rows as even as they go: 3+3, not 5+1
        w = label_w + per_row * step + 4
        items.append(("pool", w, rows * step + 2, (pool, k, step, per_row)))
    out = []
    x, y, row_h = x0 + 8, y0, 0
    for kind_, w, h, payload in items:
        if x + w > x1 - 4 and x > x0 + 8:
            x, y, row_h = x0 + 8, y + row_h + 6, 0
        out.append((kind_, x, y, h, w, payload))
        x += w + 8
        row_h = max(row_h, h)
    return out or [("none", x0, y0, 0, 0, None)]


def deal_card(draw: ImageDraw.ImageDraw, x: int, y: int, view: dict, lang: str, w: int = 150, h: int = 200) -> None:
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
    draw_text(draw, (x + w / 2, y + h - 22), sub, SIZE_SMALL, (90, 70, 60), anchor="mm", max_width=w - 12)


CARD_W = 168
CARD_H = 232
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


def hand_card(draw: ImageDraw.ImageDraw, x: int, y: int, k: str, count: int, lang: str) -> None:
    colour, family = kind_look(k)
    rounded(draw, (x, y, x + CARD_W, y + CARD_H), radius=14, fill=CARD_FACE, outline=blend(colour, BG, 0.2), width=4)
    draw.rounded_rectangle([x + 8, y + 8, x + CARD_W - 8, y + 150], radius=10, fill=colour)
    ink = DARK_INK if light(colour) else WHITE
    icon(draw, family, x + CARD_W / 2, y + 78, ink, lang, k, body=colour)
    label = tk(lang, f"card.{k}")
    lines = two_lines(label, CARD_W - 16, SIZE_SMALL)
    ty = y + 170 if len(lines) > 1 else y + 184
    for line in lines:
        draw_text(draw, (x + CARD_W / 2, ty), line, SIZE_SMALL, DARK_INK, bold=True, anchor="mm", max_width=CARD_W - 12)
        ty += 28
    if count > 1:
        cx, cy, r = x + CARD_W - 10, y + 10, 24
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=GOLD, outline=BG, width=3)
        draw_text(draw, (cx, cy + 1), f"×{count}", SIZE_SMALL, DARK_INK, bold=True, anchor="mm")


def two_lines(text: str, width: int, size: int) -> list[str]:
    f = font(size, True)
    if text_width(text, f) <= width:
        return [text]
    if " " in text:
        words = text.split(" ")
        for cut in range(len(words) - 1, 0, -1):
            a, b = " ".join(words[:cut]), " ".join(words[cut:])
            if text_width(a, f) <= width:
                return [a, b]
    # Japanese: break after the particle の ("赤の / 一族カード") when both halves fit
    for cut in [i + 1 for i, ch in enumerate(text) if ch == "の"]:
        if text_width(text[:cut], f) <= width and text_width(text[cut:], f) <= width:
            return [text[:cut], text[cut:]]
    mid = len(text) // 2
    for cut in range(mid, len(text)):
        if text_width(text[:cut], f) > width:
            return [text[:cut - 1], text[cut - 1:]]
    return [text[:mid], text[mid:]]

"""Filthy Rich pictures, drawn from engine views only.

The table is the binder seen from above: the open page's 3x3 slots, each showing the card on
top (cards of lower pages showing through empty sleeves are dimmed and tagged with their page),
every ad in its owner's colour with its business name and payout, page tabs 1-4 with the open
one lit, the last roll (each die's hit, zeros as tax marks), the luxury market and one row per
player (money, luxuries, businesses, assets, hand size). The panel shows the seat's hand as
cards with cost, $ marks and an effect summary.
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from engine.filthyrich.binder import rc
from render.common import (
    picture,
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
    canvas,
    draw_text,
    fit_size,
    fit_wrap,
    font,
    rounded,
    seat_colour,
    text_width,
)
from render.filthyrich_hand import panel_image  # noqa: F401 (the title's renderer API)
from render.filthyrich_words import (
    DARK_INK,
    blend,
    card_name,
    is_light,
    say,
    seat_name,
    short_hit,
)
from render.filthyrich_side import draw_side, player_rows, row_height, rows_height  # noqa: F401 (row_height: tests)
from render.palette import flat

W = 1200
CELL = 206
GAP = 8
GRID_X = 24
#: The page tabs above the binder.
TABS_H = 68


# -- the binder --------------------------------------------------------------------------------


def _cell_box(slot: int, y0: int) -> tuple[int, int, int, int]:
    r, c = rc(slot)
    x = GRID_X + c * (CELL + GAP)
    y = y0 + r * (CELL + GAP)
    return x, y, x + CELL, y + CELL


def _draw_tabs(draw: ImageDraw.ImageDraw, view: dict, lang: str, y: int) -> int:
    """Page tabs 1-4, the open one lit, each with a dot per card on its page (nine at most)."""
    width = 3 * CELL + 2 * GAP
    tab_w = (width - 3 * 8) // 4
    for p in range(1, 5):
        x = GRID_X + (p - 1) * (tab_w + 8)
        is_open = p == view["page"]
        cards = sum(1 for s in view["binder"][p - 1] if s is not None)
        fill = GOLD if is_open else (PANEL if p > view["page"] else PANEL_LIGHT)
        rounded(draw, (x, y, x + tab_w, y + 58), radius=10, fill=fill, outline=None)
        colour = BG if is_open else (TEXT_DIM if p > view["page"] else TEXT)
        draw_text(draw, (x + tab_w / 2, y + 21), say(lang, "render.page", page=p), SIZE_BODY, colour, bold=is_open,
                  anchor="mm", max_width=tab_w - 12)
        step = 13
        left = x + tab_w / 2 - (cards - 1) * step / 2
        for k in range(cards):
            cx = left + k * step
            draw.ellipse([cx - 4, y + 44, cx + 4, y + 52], fill=colour)
    return y + TABS_H


def _hit_marks(view: dict) -> dict[int, list[dict]]:
    """Dice of the last roll to mark on the grid: only when it was rolled on the page shown and
    the card it hit still shows there (the binder may have changed since)."""
    roll = view.get("roll")
    marks: dict[int, list[dict]] = {}
    if not roll or roll.get("page") != view["page"]:
        return marks
    for h in roll.get("hits", []):
        cell = view["grid"][h["slot"] - 1]
        if (cell and cell["sign"] == h["sign"]) or (cell is None and h["sign"] is None):
            marks.setdefault(h["slot"], []).append(h)
    return marks


def _draw_binder(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int) -> int:
    grid = view["grid"]
    page = view["page"]
    y0 = _draw_tabs(draw, view, lang, y0)
    # Sleeve backing.
    width = 3 * CELL + 2 * GAP
    rounded(draw, (GRID_X - 10, y0 - 10, GRID_X + width + 10, y0 + width + 10), radius=16, fill=(30, 34, 44),
            outline=LINE, width=2)

    def colours(cell):
        base = seat_colour(cell["owner"])
        if cell["page"] < page:
            return blend(base, BG, 0.62), blend(TEXT, BG, 0.25)
        fill = blend(base, (20, 20, 24), 0.18)
        return fill, (DARK_INK if is_light(fill) else WHITE)

    # Bridges between adjacent cells of one ad, so each ad reads as one shape.
    for s in range(1, 10):
        cell = grid[s - 1]
        if not cell:
            continue
        r, c = rc(s)
        for nb, horizontal in ((s + 1, True), (s + 3, False)):
            if (horizontal and c == 2) or nb > 9:
                continue
            other = grid[nb - 1]
            if other and other["sign"] == cell["sign"] and other["page"] == cell["page"]:
                x0, y, x1, y1 = _cell_box(s, y0)
                fill = colours(cell)[0]
                if horizontal:
                    draw.rectangle([x1 - 4, y + 14, x1 + GAP + 4, y1 - 14], fill=fill)
                else:
                    draw.rectangle([x0 + 14, y1 - 4, x1 - 14, y1 + GAP + 4], fill=fill)
    # The first visible cell of each ad carries its name.
    first: dict[str, int] = {}
    for s in range(1, 10):
        if grid[s - 1] and grid[s - 1]["sign"] not in first:
            first[grid[s - 1]["sign"]] = s
    marks = _hit_marks(view)
    for s in range(1, 10):
        _draw_cell(draw, view, names, lang, s, _cell_box(s, y0), first.get((grid[s - 1] or {}).get("sign")) == s,
                   marks.get(s, []), colours)
    return y0 + width + 20


def _draw_cell(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, s: int, box, first: bool,
               hits: list[dict], colours) -> None:
    """One slot of the open page: empty (its number), or the card on top in its owner's colour:
    the slot number and the owner across the top (and the page it shows through from), and in
    the ad's first cell its business and payout."""
    x0, y, x1, y1 = box
    cell = view["grid"][s - 1]
    page = view["page"]
    if cell is None:
        rounded(draw, box, radius=12, fill=(40, 46, 58), outline=(70, 78, 94), width=2)
        draw_text(draw, ((x0 + x1) / 2, (y + y1) / 2), str(s), SIZE_LABEL + 10, (84, 92, 110), bold=True, anchor="mm")
    else:
        fill, ink = colours(cell)
        rounded(draw, box, radius=12, fill=fill, outline=blend(fill, WHITE, 0.25), width=2)
        left = x0 + 12 + (0 if hits else 10 + draw_text(draw, (x0 + 12, y + 8), str(s), SIZE_SMALL,
                                                         blend(ink, fill, 0.35), bold=True))
        right = x1 - 10
        if cell["page"] < page:
            tag = say(lang, "render.from_page", page=cell["page"])
            tw = text_width(tag, font(SIZE_SMALL, True)) + 16
            rounded(draw, (x1 - tw - 8, y + 6, x1 - 8, y + 40), radius=8, fill=blend(BG, fill, 0.3))
            draw_text(draw, (x1 - 8 - tw / 2, y + 23), tag, SIZE_SMALL, TEXT_DIM, bold=True, anchor="mm")
            right = x1 - tw - 16
        if hits:
            left = x0 + 6 + _die_badge(draw, x0, y, s, len(hits), cell) + 10
        owner = seat_name(names, cell["owner"])
        if right - left >= text_width(owner[:2] + "…", font(SIZE_SMALL)):  # else the colour says it
            draw_text(draw, (left, y + 8), owner, SIZE_SMALL, ink, max_width=right - left)
        if first:
            size, lines = fit_wrap(card_name(lang, cell["kind"]), CELL - 24, SIZE_BODY - 2, 3, bold=True)
            ty = y + 48
            for line in lines:
                draw_text(draw, (x0 + 12, ty), line, size, ink, bold=True, max_width=CELL - 24)
                ty += size + 5
            pay = short_hit(cell["kind"])
            size = fit_size(pay, CELL - 40, SIZE_LABEL, bold=True)
            pw = text_width(pay, font(size, True)) + 18
            draw.rounded_rectangle([x0 + 8, y1 - 50, x0 + 8 + pw, y1 - 10], radius=10, fill=(22, 24, 30))
            draw_text(draw, (x0 + 17, y1 - 30), pay, size, GOLD if cell["page"] == page else blend(GOLD, BG, 0.35),
                      True, "lm")
    if hits and cell is None:
        _die_badge(draw, x0, y, s, len(hits), cell)


def _die_badge(draw: ImageDraw.ImageDraw, x0: int, y: int, s: int, dice: int, cell) -> int:
    """A die of the last roll that landed on slot `s` (x2 for two) in place of its number; its width."""
    label = str(s) if dice == 1 else f"{s}×{dice}"
    dw = max(42, text_width(label, font(SIZE_BODY, True)) + 16)
    draw.rounded_rectangle([x0 + 6, y + 6, x0 + 6 + dw, y + 48], radius=8, fill=WHITE, outline=GOOD if cell else LINE,
                           width=4)
    draw_text(draw, (x0 + 6 + dw / 2, y + 27), str(label), SIZE_BODY, BG, bold=True, anchor="mm")
    return dw


# -- the pictures ------------------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, view: dict, lang: str, title: str) -> int:
    draw.rectangle([0, 0, W, 70], fill=PANEL)
    draw_text(draw, (24, 35), title, SIZE_TITLE, GOLD, bold=True, anchor="lm", max_width=520)
    right = say(lang, "render.round", round=view["round"]) + " · " + say(lang, "render.open_page", page=view["page"])
    draw_text(draw, (W - 24, 35), right, SIZE_BODY, TEXT, anchor="rm", max_width=600)
    return HEADER_H


HEADER_H = 88
#: The binder's height below the header: page tabs, 3 cells and their gaps, the margin.
BINDER_H = TABS_H + 3 * CELL + 2 * GAP + 20
SIDE_X = GRID_X + 3 * CELL + 2 * GAP + 28
SIDE_W = W - SIDE_X - 24
#: Room for the side column before it is measured: more than it ever takes (12 market chips on
#: two lines, 6 hit lines, the dice); if it ever took more, it is drawn again taller.
SIDE_ROOM = 1400


def _side_column(view: dict, names: Sequence[str], lang: str) -> Image.Image:
    """The side column drawn on its own canvas and cut to its height, so the table can be sized
    before anything is drawn on it (the rows below used to be drawn past a canvas sized for the
    binder alone when the column ran longer)."""
    room = SIDE_ROOM
    while True:
        img, draw = canvas(SIDE_W, room)
        bottom = draw_side(draw, view, names, lang, 0, 0, SIDE_W)
        if bottom <= room:
            return img.crop((0, 0, SIDE_W, bottom))
        room = bottom


def _table(view: dict, names: Sequence[str], lang: str, results: bool) -> Image.Image:
    n = len(view["seats"])
    places = None
    if results:
        out = view.get("places")
        places = out if out else [1 if s in (view.get("winners") or []) else 2 for s in range(n)]
    side = _side_column(view, names, lang)
    rows_top = HEADER_H + max(BINDER_H, side.height) + 4
    img, draw = canvas(W, rows_top + rows_height(view, names, lang, places) + 2)
    title = say(lang, "name") + (" · " + say(lang, "render.results") if results else "")
    y = _header(draw, view, lang, title)
    _draw_binder(img, draw, view, names, lang, y)
    img.paste(side, (SIDE_X, y))
    player_rows(draw, view, names, lang, rows_top, places)
    return img


def _flat(img: Image.Image) -> Image.Image:
    """These pictures are flat colours and text, with no gradients: a 256-colour palette looks
    the same and halves the PNG encoding time and size (the 60 ms budget on a busy host)."""
    return flat(img)


@picture(W)
def table_image(view: dict, names: list[str], lang: str) -> Image.Image:
    return _flat(_table(view, names, lang, results=False))


@picture(W)
def results_image(view: dict, names: list[str], lang: str) -> Image.Image:
    return _flat(_table(view, names, lang, results=True))


#: The placement picture: the binder alone.
PLACEMENT_W = 2 * GRID_X + 3 * CELL + 2 * GAP


@picture(PLACEMENT_W)
def placement_image(view: dict, names: list[str], lang: str, k: str, placements: list[list[int]]) -> Image.Image:
    """The open page as the table shows it, with every slot an ad of business `k` may take
    outlined in gold: the picture beside the "where does the ad go?" select."""
    width = PLACEMENT_W
    img, draw = canvas(width, 70 + 18 + TABS_H + 3 * CELL + 2 * GAP + 30)
    draw.rectangle([0, 0, width, 70], fill=PANEL)
    draw_text(draw, (24, 35), say(lang, "ui.slots_pick", card=k, page=view["page"]), SIZE_BODY, GOLD, bold=True,
              anchor="lm", max_width=width - 48)
    _draw_binder(img, draw, view, names, lang, 88)
    grid_top = 88 + TABS_H  # below the page tabs
    for slot in sorted({s for slots in placements for s in slots}):
        x0, y0, x1, y1 = _cell_box(slot, grid_top)
        draw.rounded_rectangle([x0 - 3, y0 - 3, x1 + 3, y1 + 3], radius=14, outline=GOLD, width=7)
    return _flat(img)

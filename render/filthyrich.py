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
    T,
    blend,
    card_name,
    is_light,
    say,
    seat_name,
    short_hit,
)
from render.compose import Sheet, part
from render.filthyrich_side import row_parts, side_parts
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


def _draw_tabs(draw: ImageDraw.ImageDraw, page: int, counts: list[int], lang: str, y: int) -> int:
    """Page tabs 1-4, the open one lit, each with a dot per card on its page (nine at most)."""
    width = 3 * CELL + 2 * GAP
    tab_w = (width - 3 * 8) // 4
    for p in range(1, 5):
        x = GRID_X + (p - 1) * (tab_w + 8)
        is_open = p == page
        cards = counts[p - 1]
        fill = GOLD if is_open else (PANEL if p > page else PANEL_LIGHT)
        rounded(draw, (x, y, x + tab_w, y + 58), radius=10, fill=fill, outline=None)
        colour = BG if is_open else (TEXT_DIM if p > page else TEXT)
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


def _cell_colours(cell: dict, page: int) -> tuple[tuple, tuple]:
    """(fill, ink) of a card's cell: its owner's colour, dimmed when it shows through from a
    lower page."""
    base = seat_colour(cell["owner"])
    if cell["page"] < page:
        return blend(base, BG, 0.62), blend(TEXT, BG, 0.25)
    fill = blend(base, (20, 20, 24), 0.18)
    return fill, (DARK_INK if is_light(fill) else WHITE)


SLEEVE = (30, 34, 44)


def palette_colours() -> list[tuple[int, int, int]]:
    """Colours worked out while drawing, kept exactly in the palette (tools/pictures.py): each
    seat's cells (on the open page, showing through, their outlines), its row's stripe and text."""
    out = []
    for seat in range(6):
        for page in (1, 2):
            fill, ink = _cell_colours({"owner": seat, "page": 1}, page)
            out += [fill, ink, blend(fill, WHITE, 0.25)]
        out += [blend(seat_colour(seat), BG, 0.6), blend(seat_colour(seat), WHITE, 0.35)]
    return out


def binder_parts(view: dict, names: Sequence[str], lang: str, y0: int) -> list[tuple[Image.Image, tuple[int, int]]]:
    """The page tabs, the sleeve with the bridges between the cells of one ad (so each ad reads
    as one shape), and the nine cells, each a part, with where they go."""
    grid = view["grid"]
    page = view["page"]
    counts = [sum(1 for s in view["binder"][p] if s is not None) for p in range(4)]
    out = [(_tabs_part(page, counts, lang), (0, y0))]
    y0 += TABS_H
    bridges = []
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
                x0, y, x1, y1 = _cell_box(s, 10)
                x0, x1 = x0 - GRID_X + 10, x1 - GRID_X + 10
                box = [x1 - 4, y + 14, x1 + GAP + 4, y1 - 14] if horizontal else [x0 + 14, y1 - 4, x1 - 14, y1 + GAP + 4]
                bridges.append([box, _cell_colours(cell, page)[0]])
    out.append((_sleeve_part(bridges), (GRID_X - 10, y0 - 10)))
    # The first visible cell of each ad carries its name.
    first: dict[str, int] = {}
    for s in range(1, 10):
        if grid[s - 1] and grid[s - 1]["sign"] not in first:
            first[grid[s - 1]["sign"]] = s
    marks = _hit_marks(view)
    for s in range(1, 10):
        cell = grid[s - 1]
        owner = seat_name(names, cell["owner"]) if cell else ""
        piece = _cell_part(cell, page, s, owner, first.get((cell or {}).get("sign")) == s, len(marks.get(s, [])), lang)
        out.append((piece, _cell_box(s, y0)[:2]))
    return out


@part(T)
def _tabs_part(page: int, counts: list[int], lang: str) -> Image.Image:
    img, draw = canvas(W, TABS_H)
    _draw_tabs(draw, page, counts, lang, 0)
    return img


@part(T)
def _sleeve_part(bridges: list) -> Image.Image:
    width = 3 * CELL + 2 * GAP
    img, draw = canvas(width + 21, width + 21)
    rounded(draw, (0, 0, width + 20, width + 20), radius=16, fill=SLEEVE, outline=LINE, width=2)
    for box, fill in bridges:
        draw.rectangle(box, fill=tuple(fill))
    return img


@part(T)
def _cell_part(cell: dict | None, page: int, s: int, owner: str, first: bool, hits: int, lang: str) -> Image.Image:
    img, draw = canvas(CELL + 1, CELL + 1, SLEEVE)
    _draw_cell(draw, cell, page, s, owner, first, hits, lang)
    return img


def cell_name_lines(k: str, lang: str) -> tuple[int, list[str]]:
    """A business's name in its binder cell, on at most three lines (shrunk to the floor)."""
    return fit_wrap(card_name(lang, k), CELL - 24, SIZE_BODY - 2, 3, bold=True)


def _draw_cell(draw: ImageDraw.ImageDraw, cell: dict | None, page: int, s: int, owner: str, first: bool, hits: int,
               lang: str) -> None:
    """One slot of the open page: empty (its number), or the card on top in its owner's colour:
    the slot number and the owner across the top (and the page it shows through from), and in
    the ad's first cell its business and payout. `hits`: dice of the last roll that landed here."""
    x0, y, x1, y1 = 0, 0, CELL, CELL
    box = (x0, y, x1, y1)
    if cell is None:
        rounded(draw, box, radius=12, fill=(40, 46, 58), outline=(70, 78, 94), width=2)
        draw_text(draw, ((x0 + x1) / 2, (y + y1) / 2), str(s), SIZE_LABEL + 10, (84, 92, 110), bold=True, anchor="mm")
    else:
        fill, ink = _cell_colours(cell, page)
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
            left = x0 + 6 + _die_badge(draw, x0, y, s, hits, cell) + 10
        if right - left >= text_width(owner[:2] + "…", font(SIZE_SMALL)):  # else the colour says it
            draw_text(draw, (left, y + 8), owner, SIZE_SMALL, ink, max_width=right - left)
        if first:
            size, lines = cell_name_lines(cell["kind"], lang)
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
        _die_badge(draw, x0, y, s, hits, cell)


def _die_badge(draw: ImageDraw.ImageDraw, x0: int, y: int, s: int, dice: int, cell) -> int:
    """A die of the last roll that landed on slot `s` (x2 for two) in place of its number; its width."""
    label = str(s) if dice == 1 else f"{s}×{dice}"
    dw = max(42, text_width(label, font(SIZE_BODY, True)) + 16)
    draw.rounded_rectangle([x0 + 6, y + 6, x0 + 6 + dw, y + 48], radius=8, fill=WHITE, outline=GOOD if cell else LINE,
                           width=4)
    draw_text(draw, (x0 + 6 + dw / 2, y + 27), str(label), SIZE_BODY, BG, bold=True, anchor="mm")
    return dw


# -- the pictures ------------------------------------------------------------------------------


@part(T)
def _header_part(title: str, right: str) -> Image.Image:
    img, draw = canvas(W, HEADER_H)
    draw.rectangle([0, 0, W, 70], fill=PANEL)
    draw_text(draw, (24, 35), title, SIZE_TITLE, GOLD, bold=True, anchor="lm", max_width=520)
    draw_text(draw, (W - 24, 35), right, SIZE_BODY, TEXT, anchor="rm", max_width=600)
    return img


HEADER_H = 88
#: The binder's height below the header: page tabs, 3 cells and their gaps, the margin.
BINDER_H = TABS_H + 3 * CELL + 2 * GAP + 20
SIDE_X = GRID_X + 3 * CELL + 2 * GAP + 28
SIDE_W = W - SIDE_X - 24


def _table(view: dict, names: Sequence[str], lang: str, results: bool) -> Sheet:
    """The table as a sheet of parts: the header, the binder (tabs, sleeve, cells), the side
    column and a row per player."""
    n = len(view["seats"])
    places = None
    if results:
        out = view.get("places")
        places = out if out else [1 if s in (view.get("winners") or []) else 2 for s in range(n)]
    side, side_h = side_parts(view, names, lang, SIDE_W)
    rows = row_parts(view, names, lang, places)
    rows_top = HEADER_H + max(BINDER_H, side_h) + 4
    sheet = Sheet(T, W, rows_top + sum(top.height + rest.height - 1 + 8 for top, rest, _small in rows) + 2, BG)
    title = say(lang, "name") + (" · " + say(lang, "render.results") if results else "")
    right = say(lang, "render.round", round=view["round"]) + " · " + say(lang, "render.open_page", page=view["page"])
    sheet.paste(_header_part(title, right), (0, 0))
    for piece, xy in binder_parts(view, names, lang, HEADER_H):
        sheet.paste(piece, xy)
    for piece, y in side:
        sheet.paste(piece, (SIDE_X, HEADER_H + y))
    y = rows_top
    for top, rest, small in rows:
        sheet.paste(top, (0, y))
        sheet.paste(rest, (0, y + top.height))
        for piece, (dx, dy) in small:  # the money, the hand / $-marks / tax line
            sheet.paste(piece, (dx, y + dy))
        y += top.height + rest.height - 1 + 8
    return sheet


@picture(W)
def table_image(view: dict, names: list[str], lang: str) -> Image.Image:
    return _table(view, names, lang, results=False).img


@picture(W)
def results_image(view: dict, names: list[str], lang: str) -> Image.Image:
    return _table(view, names, lang, results=True).img


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
    for piece, xy in binder_parts(view, names, lang, 88):
        img.paste(piece.convert("RGB"), xy)
    grid_top = 88 + TABS_H  # below the page tabs
    for slot in sorted({s for slots in placements for s in slots}):
        x0, y0, x1, y1 = _cell_box(slot, grid_top)
        draw.rounded_rectangle([x0 - 3, y0 - 3, x1 + 3, y1 + 3], radius=14, outline=GOLD, width=7)
    return flat(img)

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
from engine.filthyrich.data import BUSINESSES, LUXURIES, LUXURY_ORDER, kind
from locales.format import join_list, separator
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
    WHITE,
    canvas,
    draw_text,
    ellipsize,
    fit,
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
    lines_at_most,
    say,
    seat_name,
    short_hit,
)
from render.palette import flat

W = 1200
CELL = 206
GAP = 8
GRID_X = 24


# -- the binder --------------------------------------------------------------------------------


def _cell_box(slot: int, y0: int) -> tuple[int, int, int, int]:
    r, c = rc(slot)
    x = GRID_X + c * (CELL + GAP)
    y = y0 + r * (CELL + GAP)
    return x, y, x + CELL, y + CELL


def _draw_tabs(draw: ImageDraw.ImageDraw, view: dict, lang: str, y: int) -> int:
    width = 3 * CELL + 2 * GAP
    tab_w = (width - 3 * 8) // 4
    for p in range(1, 5):
        x = GRID_X + (p - 1) * (tab_w + 8)
        is_open = p == view["page"]
        cards = sum(1 for s in view["binder"][p - 1] if s is not None)
        fill = GOLD if is_open else (PANEL if p > view["page"] else PANEL_LIGHT)
        rounded(draw, (x, y, x + tab_w, y + 54), radius=10, fill=fill, outline=None)
        colour = BG if is_open else (TEXT_DIM if p > view["page"] else TEXT)
        draw_text(draw, (x + tab_w / 2, y + 20), say(lang, "render.page", page=p), SIZE_BODY, colour, bold=is_open,
                  anchor="mm", max_width=tab_w - 12)
        dots = "●" * cards if cards <= 9 else f"{cards}"
        draw_text(draw, (x + tab_w / 2, y + 43), dots or "·", 14, colour, anchor="mm", max_width=tab_w - 12)
    return y + 64


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
        box = _cell_box(s, y0)
        x0, y, x1, y1 = box
        cell = grid[s - 1]
        if cell is None:
            rounded(draw, box, radius=12, fill=(40, 46, 58), outline=(70, 78, 94), width=2)
            draw_text(draw, ((x0 + x1) / 2, (y + y1) / 2), str(s), SIZE_LABEL + 10, (84, 92, 110), bold=True, anchor="mm")
        else:
            fill, ink = colours(cell)
            rounded(draw, box, radius=12, fill=fill, outline=blend(fill, WHITE, 0.25), width=2)
            if s not in marks:
                draw_text(draw, (x0 + 12, y + 8), str(s), SIZE_SMALL, blend(ink, fill, 0.35), bold=True)
            if cell["page"] < page:
                tag = say(lang, "render.from_page", page=cell["page"])
                tw = text_width(tag, font(SIZE_SMALL, True)) + 16
                rounded(draw, (x1 - tw - 8, y + 8, x1 - 8, y + 38), radius=8, fill=blend(BG, fill, 0.3))
                draw_text(draw, (x1 - 8 - tw / 2, y + 23), tag, SIZE_SMALL, TEXT_DIM, bold=True, anchor="mm")
            if first.get(cell["sign"]) == s:
                size, lines = fit_wrap(card_name(lang, cell["kind"]), CELL - 24, SIZE_BODY - 2, 3, bold=True)
                ty = y + 44
                for line in lines:
                    draw_text(draw, (x0 + 12, ty), line, size, ink, bold=True, max_width=CELL - 24)
                    ty += size + 6
                pay = short_hit(cell["kind"])
                fnt = fit(pay, CELL // 2 + 20, SIZE_LABEL, bold=True)
                pw = text_width(pay, fnt) + 18
                draw.rounded_rectangle([x0 + 8, y1 - 50, x0 + 8 + pw, y1 - 10], radius=10, fill=(22, 24, 30))
                draw_text(draw, (x0 + 17, y1 - 30), pay, fnt.size, GOLD if cell["page"] == page else blend(GOLD, BG, 0.35),
                          True, "lm")
            owner = seat_name(names, cell["owner"])
            draw_text(draw, (x1 - 12, y1 - 12), owner, SIZE_SMALL, ink, anchor="rd",
                      max_width=CELL - 24 - (CELL // 2 + 30 if first.get(cell["sign"]) == s else 0))
        # Dice of the last roll that landed here: the slot number becomes a die (x2 for two).
        hits = marks.get(s, [])
        if hits:
            label = str(s) if len(hits) == 1 else f"{s}×{len(hits)}"
            dw = max(40, text_width(label, font(SIZE_BODY, True)) + 16)
            draw.rounded_rectangle([x0 + 6, y + 6, x0 + 6 + dw, y + 46], radius=8, fill=WHITE,
                                   outline=GOOD if cell else LINE, width=4)
            draw_text(draw, (x0 + 6 + dw / 2, y + 26), label, SIZE_BODY, BG, bold=True, anchor="mm")
    return y0 + width + 20


# -- the side column ---------------------------------------------------------------------------


def _die(draw, x, y, face: int, size: int, fill, ink, outline=None) -> None:
    draw.rounded_rectangle([x, y, x + size, y + size], radius=10, fill=fill, outline=outline, width=3)
    draw_text(draw, (x + size / 2, y + size / 2), str(face), SIZE_LABEL, ink, bold=True, anchor="mm")


def _status(view: dict, names: Sequence[str], lang: str) -> tuple[str, str]:
    ph = view["phase"]
    if ph == "over":
        winners = join_list((seat_name(names, s) for s in view.get("winners") or []), lang)
        return f"{say(lang, 'render.winner')}: {winners}", say(lang, f"reason.{view['end']}")
    if ph in ("tax", "audit"):
        tx = view["tax"]
        waiting = join_list((seat_name(names, s) for s in tx["pending"]), lang)
        head = say(lang, "render.tax_window", zeros=tx["zeros"]) if ph == "tax" else say(lang, "phase.audit")
        return head, say(lang, "render.waiting", names=waiting)
    if ph == "auction":
        a = view["auction"]
        head = say(lang, "render.auction", luxury=a["luxury"])
        if a["high"] is None:
            sub = say(lang, "render.no_bid", amount=a["min"])
        else:
            sub = say(lang, "render.high_bid", amount=a["high"], seat=seat_name(names, a["high_seat"]))
        return head, sub + " · " + say(lang, "render.waiting", names=seat_name(names, a["seat"]))
    turn = view["turn"]
    head = f"{seat_name(names, view['active'])}: {say(lang, 'render.active')}"
    sub = say(lang, "render.actions", count=turn["actions"]) + f" · {turn['dice']} {say(lang, 'render.dice')}"
    return head, sub


def _draw_side(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, x: int, y: int, w: int) -> int:
    """The status, the last roll and the luxury market in a column `w` wide; returns its bottom."""
    head, sub = _status(view, names, lang)
    rounded(draw, (x, y, x + w, y + 96), fill=PANEL, outline=GOLD, width=3)
    draw_text(draw, (x + 16, y + 12), head, SIZE_LABEL, GOLD, bold=True, max_width=w - 32)
    draw_text(draw, (x + 16, y + 56), sub, SIZE_SMALL, TEXT, max_width=w - 32)
    y += 112
    # Last roll: each die with what it hit; zeros as tax marks.
    roll = view.get("roll")
    box_top = y
    draw_text(draw, (x + 16, y + 10), say(lang, "render.last_roll"), SIZE_BODY, TEXT, bold=True)
    y += 48
    if not roll:
        draw_text(draw, (x + 16, y), say(lang, "render.no_roll"), SIZE_SMALL, TEXT_DIM)
        y += 36
    else:
        who = seat_name(names, roll["seat"])
        draw_text(draw, (x + w - 16, box_top + 14), f"{who} · {say(lang, 'render.page', page=roll['page'])}", SIZE_SMALL,
                  TEXT_DIM, anchor="ra", max_width=w // 2)
        dice = roll["dice"]
        size = 52 if len(dice) <= 7 else 40
        dx = x + 16
        for i, d in enumerate(dice):
            hit = next((h for h in roll["hits"] if h["die"] == i), None)
            if d == 0:
                _die(draw, dx, y, 0, size, BAD, WHITE)
            elif hit and hit["sign"]:
                _die(draw, dx, y, d, size, WHITE, BG, outline=seat_colour(hit["seat"]))
            else:
                _die(draw, dx, y, d, size, (90, 98, 114), TEXT)
            dx += size + 8
            if dx + size > x + w:
                dx = x + 16
                y += size + 8
        if not dice:
            draw_text(draw, (x + 16, y + 12), "—", SIZE_BODY, TEXT_DIM)
        y += size + 10
        lines = []
        for h in roll["hits"]:
            if h["sign"]:
                name = card_name(lang, BUSINESSES_BY_SIGN.get(h["sign"], h["sign"]))
                lines.append((f"{h['slot']} → {name}", f"+${h['amount']} {seat_name(names, h['seat'])}",
                              seat_colour(h["seat"])))
        zeros = roll["dice"].count(0)
        if zeros:
            lines.append((f"0 ×{zeros} → {say(lang, 'render.tax_mark')}", "", BAD))
        for left, right, colour in lines[:6]:
            draw_text(draw, (x + 16, y), left, SIZE_SMALL, colour, bold=True, max_width=w - 186)
            draw_text(draw, (x + w - 16, y), right, SIZE_SMALL, TEXT, anchor="ra", max_width=150)
            y += 32
        if roll.get("page_die") is not None:
            text = f"{say(lang, 'render.page_die', die=roll['page_die'])} → {say(lang, 'render.page_turn', page=roll['next_page'])}"
            draw_text(draw, (x + 16, y), text, SIZE_SMALL, TEXT_DIM, max_width=w - 32)
            y += 32
    draw.rounded_rectangle([x, box_top, x + w, y + 8], radius=12, outline=LINE, width=2)
    y += 24
    # Luxury market in price order, two columns.
    draw_text(draw, (x + 4, y), say(lang, "render.market"), SIZE_BODY, GOLD, bold=True)
    y += 40
    col_w = (w - 10) // 2
    market = [x_ for x_ in LUXURY_ORDER if x_ in view["market"]]
    # Names that do not fit one line go on two at the same size (shrinking them made them
    # unreadable on a phone); then every chip is two lines tall, so the columns stay even.
    small = font(SIZE_SMALL)
    chips = []
    for lid in market:
        price = f"${LUXURIES[lid]['price']}"
        room = col_w - text_width(price, font(SIZE_SMALL, True)) - 28
        chips.append((lid, price, [ellipsize(line, room, small) for line in lines_at_most(card_name(lang, lid), room, small, 2)]))
    chip_h = 64 if any(len(lines) > 1 for _, _, lines in chips) else 40
    for i, (_lid, price, lines) in enumerate(chips):
        cx = x + (i % 2) * (col_w + 10)
        cy = y + (i // 2) * (chip_h + 6)
        rounded(draw, (cx, cy, cx + col_w, cy + chip_h), radius=8, fill=PANEL_LIGHT)
        draw_text(draw, (cx + col_w - 10, cy + chip_h // 2), price, SIZE_SMALL, GOLD, bold=True, anchor="rm")
        top = cy + chip_h // 2 - (len(lines) - 1) * 13
        for k, line in enumerate(lines):
            draw_text(draw, (cx + 10, top + k * 26), line, SIZE_SMALL, TEXT, anchor="lm")
    y += ((len(market) + 1) // 2) * (chip_h + 6)
    if view["removed"]:
        text = say(lang, "render.removed") + ": " + separator(lang).join(card_name(lang, r) for r in view["removed"])
        draw_text(draw, (x + 4, y + 4), text, SIZE_SMALL, TEXT_DIM, max_width=w - 8)
        y += 36
    draw_text(draw, (x + 4, y + 6), say(lang, "render.deck", count=view["deck_count"]) + " · " +
              say(lang, "render.discard", count=len(view["discard"])), SIZE_SMALL, TEXT_DIM, max_width=w - 8)
    return y + 44


BUSINESSES_BY_SIGN = {b["sign"]: k for k, b in BUSINESSES.items()}


# -- players -----------------------------------------------------------------------------------


ROW_H = 122


def _player_rows(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y: int,
                 places: list | None = None) -> int:
    """One row per player: name, luxuries and money; businesses with hand, marks and tax;
    assets (Muscle with its row)."""
    sep = separator(lang)
    for s, seat in enumerate(view["seats"]):
        h = ROW_H
        alive = seat["alive"]
        active = s in (view.get("to_act") or []) or (view["phase"] == "turn" and s == view["active"])
        colour = seat_colour(s)
        fill = PANEL if alive else (30, 32, 38)
        rounded(draw, (24, y, W - 24, y + h), radius=12, fill=fill, outline=GOLD if active else LINE,
                width=4 if active else 2)
        draw.rounded_rectangle([24, y, 36, y + h], radius=6, fill=colour if alive else blend(colour, BG, 0.6))
        money = f"${seat['money']}"
        draw_text(draw, (W - 44, y + 6), money, SIZE_TITLE, GOLD if alive else TEXT_DIM, bold=True, anchor="ra")
        mw = text_width(money, font(SIZE_TITLE, True))
        # Line 1: (place) name, luxury pips and tags.
        x = 52
        if places is not None:
            place = places[s]
            draw_text(draw, (x, y + 8), say(lang, "render.place", place=place), SIZE_LABEL,
                      GOLD if place == 1 else TEXT_DIM, bold=True)
            x += 70
        name = seat_name(names, s)
        fnt = fit(name, 300, SIZE_LABEL, bold=True)
        name = ellipsize(name, 300, fnt)
        draw_text(draw, (x, y + 8), name, fnt.size, TEXT if alive else TEXT_DIM, True)
        x += text_width(name, fnt) + 18
        pips = "♦" * len(seat["luxuries"]) + "◇" * max(0, 3 - len(seat["luxuries"]))
        draw_text(draw, (x, y + 10), pips, SIZE_BODY, GOLD, bold=True)
        x += text_width(pips, font(SIZE_BODY, True)) + 12
        room = W - 60 - mw - 10
        for lid in seat["luxuries"]:
            label = card_name(lang, lid)
            tw = min(text_width(label, font(SIZE_SMALL)) + 20, 250)
            if x + tw > room:
                tw = room - x
                if tw < 70:
                    break
            rounded(draw, (x, y + 10, x + tw, y + 42), radius=8, fill=blend(GOLD, BG, 0.7), outline=GOLD, width=1)
            draw_text(draw, (x + 10, y + 26), label, SIZE_SMALL, TEXT, anchor="lm", max_width=tw - 16)
            x += tw + 8
        # Line 2: businesses (in the seat's colour) and, on the right, hand / marks / tax.
        info = [say(lang, "render.hand", count=seat["hand"]), say(lang, "render.marks", count=seat["marks"]),
                say(lang, "render.tax_per_zero", amount=seat["tax_per_zero"])]
        if seat["interest"]:
            info.append(say(lang, "render.interest", amount=seat["interest"]))
        if not alive:
            info = [say(lang, "render.out")]
        info_text = " · ".join(info)
        iw = min(text_width(info_text, font(SIZE_SMALL)), 460)
        draw_text(draw, (W - 44, y + 56), info_text, SIZE_SMALL, TEXT_DIM if alive else BAD, anchor="ra", max_width=460)
        biz = sep.join(card_name(lang, kind(c)) for c in seat["businesses"]) or "—"
        draw_text(draw, (52, y + 56), f"{say(lang, 'render.businesses')}: {biz}", SIZE_SMALL,
                  blend(colour, WHITE, 0.35) if alive else TEXT_DIM, max_width=W - 120 - iw)
        # Line 3: assets.
        assets = []
        for a in seat["assets"]:
            label = card_name(lang, a["kind"])
            if a.get("row"):
                label += f" ({say(lang, 'render.muscle_row', row=a['row'])})"
            assets.append(label)
        draw_text(draw, (52, y + 88), f"{say(lang, 'render.assets')}: {sep.join(assets) or '—'}", SIZE_SMALL,
                  TEXT_DIM, max_width=W - 100)
        y += h + 8
    return y


# -- the pictures ------------------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, view: dict, lang: str, title: str) -> int:
    draw.rectangle([0, 0, W, 70], fill=PANEL)
    draw_text(draw, (24, 35), title, SIZE_TITLE, GOLD, bold=True, anchor="lm", max_width=520)
    right = say(lang, "render.round", round=view["round"]) + " · " + say(lang, "render.open_page", page=view["page"])
    draw_text(draw, (W - 24, 35), right, SIZE_BODY, TEXT, anchor="rm", max_width=600)
    return HEADER_H


HEADER_H = 88
#: The binder's height below the header: page tabs, 3 cells and their gaps, the margin.
BINDER_H = 64 + 3 * CELL + 2 * GAP + 20
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
        bottom = _draw_side(draw, view, names, lang, 0, 0, SIDE_W)
        if bottom <= room:
            return img.crop((0, 0, SIDE_W, bottom))
        room = bottom


def _table(view: dict, names: Sequence[str], lang: str, results: bool) -> Image.Image:
    n = len(view["seats"])
    side = _side_column(view, names, lang)
    rows_top = HEADER_H + max(BINDER_H, side.height) + 4
    img, draw = canvas(W, rows_top + n * (ROW_H + 8) + 10)
    title = say(lang, "name") + (" · " + say(lang, "render.results") if results else "")
    y = _header(draw, view, lang, title)
    _draw_binder(img, draw, view, names, lang, y)
    img.paste(side, (SIDE_X, y))
    places = None
    if results:
        out = view.get("places")
        places = out if out else [1 if s in (view.get("winners") or []) else 2 for s in range(n)]
    _player_rows(draw, view, names, lang, rows_top, places)
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
    img, draw = canvas(width, 70 + 18 + 64 + 3 * CELL + 2 * GAP + 30)
    draw.rectangle([0, 0, width, 70], fill=PANEL)
    draw_text(draw, (24, 35), say(lang, "ui.slots_pick", card=k, page=view["page"]), SIZE_BODY, GOLD, bold=True,
              anchor="lm", max_width=width - 48)
    _draw_binder(img, draw, view, names, lang, 88)
    grid_top = 88 + 64  # below the page tabs
    for slot in sorted({s for slots in placements for s in slots}):
        x0, y0, x1, y1 = _cell_box(slot, grid_top)
        draw.rounded_rectangle([x0 - 3, y0 - 3, x1 + 3, y1 + 3], radius=14, outline=GOLD, width=7)
    return _flat(img)

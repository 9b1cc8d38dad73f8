"""I'm the Boss! pictures, drawn from engine views only.

The table is the board seen from above: the 16 deal spaces as a clockwise ring (A top left to
P), each with its required clans as big squares and its pools as "k x" boxes of small squares,
in the clans' colours with their initials (for colour-blind players), its dividends, and once
covered its deal card; the dollar marker is a gold frame with a coin. The middle of the ring holds
the top deal card (value per dividend, the die faces that end the game), the piles, the spare
placards and the deals made. During a deal a panel lists each requirement and who fills it, the
offers and their prices, the clan cards on the table, the travellers, the boss, the proceeds
and the open window. One card per player: placards, hand size, money (a bracket until the end).
The panel picture shows the seat's hand as cards.

Seats are told apart by name, never by colour: the six clan colours already fill the board.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Sequence

from PIL import Image, ImageDraw

from engine.imtheboss.data import CLAN_RGB, CLANS, KINDS, SPACES
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
    canvas,
    ellipsize,
    font,
    rounded,
    t,
    text_width,
)
from render.palette import flat

T = "imtheboss"
W = 1200
MARGIN = 16
GAP = 8
TILE_W = (W - 2 * MARGIN - 4 * GAP) // 5
TILE_H = 150
DARK_INK = (20, 22, 28)
GREY_TRAVEL = (150, 156, 168)
COVER = (18, 20, 26)
CARD_FACE = (244, 236, 214)


def draw_text(draw: ImageDraw.ImageDraw, xy, text: str, size: int = SIZE_BODY, fill=TEXT, bold: bool = False,
              anchor: str = "la", max_width: int | None = None) -> None:
    """Text at `xy`; with `max_width` it is cut with an ellipsis, never shrunk below `size`, so
    long player names stay legible on a phone."""
    fnt = font(size, bold)
    if max_width is not None:
        text = ellipsize(text, max_width, fnt)
    draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)


def _t(lang: str, key: str, **params: Any) -> str:
    return t(lang, f"{T}.{key}", **params)


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "-"
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _light(rgb) -> bool:
    r, g, b = rgb[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b > 150


def _blend(c1, c2, a: float):
    return tuple(int(x * (1 - a) + y * a) for x, y in zip(c1, c2))


def _initial(lang: str, clan: str) -> str:
    """The clan's mark in its square (from the catalogue: Spanish needs "Az" and "Am")."""
    return _t(lang, f"clan_letter.{clan}")


def _money(lang: str, seat_view: dict) -> str:
    if "money" in seat_view:
        return _t(lang, "render.money_exact", money=seat_view["money"])
    lo, hi = seat_view["money_est"]
    if hi == 0:
        return _t(lang, "render.money_zero")
    return _t(lang, "render.money_range", lo=lo, hi=hi)


@lru_cache(maxsize=512)
def _square_img(clan: str, size: int, lang: str, dim: bool) -> Image.Image:
    """A clan's square with its initial, drawn once per (clan, size, language) and pasted: the
    board shows some eighty of them, and text is the slow part of drawing."""
    rgb = CLAN_RGB[clan]
    fill = _blend(rgb, COVER, 0.62) if dim else rgb
    ink = DARK_INK if _light(fill) else WHITE
    img = Image.new("RGBA", (size + 1, size + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([0, 0, size, size], radius=max(3, size // 6), fill=fill, outline=_blend(fill, BG, 0.5), width=1)
    mark = _initial(lang, clan)
    d.text((size / 2, size / 2 + 1), mark, font=font(max(12, int(size * (0.66 if len(mark) == 1 else 0.46))), True),
           fill=_blend(ink, fill, 0.4) if dim else ink, anchor="mm")
    return img


def clan_square(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, clan: str, lang: str,
                dim: bool = False, tick: bool = False, cross: bool = False) -> None:
    """A clan's square with its initial; `dim` for covered spaces, `tick` when a clan is in."""
    sq = _square_img(clan, int(size), lang, dim)
    draw._image.paste(sq, (int(x), int(y)), sq)
    if tick:
        _tick(draw, x, y, size)
    if cross:
        draw.line([x + 4, y + 4, x + size - 4, y + size - 4], fill=BAD, width=4)
        draw.line([x + size - 4, y + 4, x + 4, y + size - 4], fill=BAD, width=4)


def _tick(draw: ImageDraw.ImageDraw, x: float, y: float, size: int) -> None:
    cx, cy, r = x + size - 4, y + 4, max(8, size // 4)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=GOOD, outline=BG, width=2)
    draw.line([cx - r * 0.5, cy, cx - r * 0.1, cy + r * 0.45, cx + r * 0.55, cy - r * 0.4], fill=WHITE, width=3)


# -- the ring ------------------------------------------------------------------------------------------

def _ring_cells() -> list[tuple[int, int]]:
    """(col, row) of spaces 0..15 on a 5x5 grid, clockwise from the top left."""
    cells = [(c, 0) for c in range(5)]
    cells += [(4, r) for r in range(1, 4)]
    cells += [(c, 4) for c in range(4, -1, -1)]
    cells += [(0, r) for r in range(3, 0, -1)]
    return cells


RING = _ring_cells()


def _tile_box(space: int, y0: int) -> tuple[int, int, int, int]:
    c, r = RING[space]
    x = MARGIN + c * (TILE_W + GAP)
    y = y0 + r * (TILE_H + GAP)
    return x, y, x + TILE_W, y + TILE_H


def _draw_tile(draw: ImageDraw.ImageDraw, view: dict, space: int, box, lang: str) -> None:
    x0, y0, x1, y1 = box
    card = view["covered"][space]
    base, squares = _tile_base(space, card, lang)
    draw._image.paste(base, (x0, y0))
    deal = view.get("deal")
    if deal is not None and deal["space"] == space:
        cov = set(deal["covered"])
        for clan, sx, sy, size in squares:
            if clan in cov:
                _tick(draw, x0 + sx, y0 + sy, size)
    if view.get("marker") == space and not view["over"]:
        draw.rounded_rectangle(box, radius=12, outline=GOLD, width=5)
        r = 19  # the dollar marker, in the corner the requirements never reach
        cx, cy = x1 - 26, y1 - 26
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=GOLD, outline=_blend(GOLD, BG, 0.5), width=3)
        draw_text(draw, (cx, cy + 1), "$", SIZE_LABEL, DARK_INK, bold=True, anchor="mm")


@lru_cache(maxsize=1024)
def _tile_base(space: int, card: int | None, lang: str) -> tuple[Image.Image, tuple]:
    """A space drawn once per (space, deal card on it, language), with the positions of its clan
    squares (for the deal's ticks)."""
    img = Image.new("RGB", (TILE_W + 1, TILE_H + 1), BG)
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = 0, 0, TILE_W, TILE_H
    sp = SPACES[space]
    covered = card is not None
    fill = _blend(PANEL, COVER, 0.55) if covered else PANEL
    rounded(draw, (x0, y0, x1, y1), radius=12, fill=fill, outline=LINE, width=2)
    # header: the space letter and its dividends
    letter = _t(lang, f"space.{space}")
    draw.ellipse([x0 + 8, y0 + 7, x0 + 40, y0 + 39], fill=_blend(PANEL_LIGHT, BG, 0.2) if not covered else COVER,
                 outline=LINE, width=2)
    draw_text(draw, (x0 + 24, y0 + 23), letter, SIZE_SMALL, TEXT_DIM if covered else TEXT, bold=True, anchor="mm")
    draw_text(draw, (x1 - 10, y0 + 23), _t(lang, "render.dividends", count=sp["div"]), SIZE_SMALL,
              TEXT_DIM if covered else GOLD, bold=True, anchor="rm")
    if covered:
        # the deal card lies on the space: a red pill in the header, the clans dimmed below
        pill = f"#{card}"
        pw = text_width(pill, font(SIZE_BODY, True)) + 22
        px = x0 + 50
        draw.rounded_rectangle([px, y0 + 8, px + pw, y0 + 40], radius=9, fill=(150, 40, 50), outline=GOLD, width=2)
        draw_text(draw, (px + pw / 2, y0 + 24), pill, SIZE_BODY, WHITE, bold=True, anchor="mm")
    # requirements flow left to right and wrap: required clans as big squares, pools as boxes;
    # squares shrink a step when a space's requirements would not fit the tile
    label_w = text_width("5×", font(SIZE_SMALL, True)) + 8
    for big, small in ((38, 28), (34, 26), (30, 22)):
        placed = _flow(sp, big, small, label_w, x0, y0 + 48, x1)
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
            draw.rounded_rectangle([x, y, x + w, y + h], radius=6, fill=_blend(fill, WHITE, 0.06),
                                   outline=_blend(LINE, WHITE, 0.2), width=1)
            draw_text(draw, (x + 5, y + h / 2), f"{k}×", SIZE_SMALL, TEXT_DIM if covered else TEXT, bold=True,
                      anchor="lm")
            for i, c in enumerate(pool):
                row, col = divmod(i, per_row)
                cx, cy = x + label_w + col * step, y + 3 + row * step
                clan_square(draw, cx, cy, small, c, lang, dim=covered)
                squares.append((c, cx, cy, small))
    return img, tuple(squares)


def _flow(sp: dict, big: int, small: int, label_w: int, x0: int, y0: int, x1: int) -> list[tuple]:
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


def _deal_card(draw: ImageDraw.ImageDraw, x: int, y: int, view: dict, lang: str, w: int = 150, h: int = 200) -> None:
    top = view.get("top")
    if top is None:
        rounded(draw, (x, y, x + w, y + h), radius=14, fill=COVER, outline=LINE)
        draw_text(draw, (x + w / 2, y + h / 2), _t(lang, "render.no_cards"), SIZE_SMALL, TEXT_DIM, anchor="mm",
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
        sub = _t(lang, "render.last_card")
    elif top["back"]:
        back = top["back"]
        sub = _t(lang, "render.ends_on", faces=f"{back[0]}-{back[-1]}" if len(back) > 1 else str(back[0]))
    else:
        sub = _t(lang, "render.no_roll")
    draw_text(draw, (x + w / 2, y + h - 22), sub, SIZE_SMALL, (90, 70, 60), anchor="mm", max_width=w - 12)


def _centre(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, box) -> None:
    x0, y0, x1, y1 = box
    rounded(draw, box, radius=16, fill=_blend(BG, PANEL, 0.5), outline=_blend(LINE, BG, 0.4), width=2)
    _deal_card(draw, x0 + 20, y0 + 20, view, lang)
    tx = x0 + 200
    y = y0 + 22
    top = view.get("top")
    if top is not None:
        draw_text(draw, (tx, y), _t(lang, "render.deal_card", no=top["no"]), SIZE_LABEL, GOLD, bold=True)
        y += 40
        draw_text(draw, (tx, y), _t(lang, "render.per_div", value=top["value"]), SIZE_BODY, TEXT)
        y += 36
    draw_text(draw, (tx, y), _t(lang, "render.deals_done", count=view["deals"]), SIZE_BODY, TEXT)
    y += 36
    draw_text(draw, (tx, y), _t(lang, "render.draw_pile", count=view["draw_pile"]) + "   "
              + _t(lang, "render.discard_pile", count=view["discard_pile"]), SIZE_SMALL, TEXT_DIM, max_width=x1 - tx - 12)
    y += 32
    draw_text(draw, (tx, y), _t(lang, "render.limit", limit=view["hand_limit"]), SIZE_SMALL, TEXT_DIM)
    y += 34
    if view["spares"]:
        label = _t(lang, "render.spares")
        draw_text(draw, (tx, y + 15), label, SIZE_SMALL, TEXT_DIM, anchor="lm")
        x = tx + text_width(label, font(SIZE_SMALL)) + 10
        for c in view["spares"]:
            clan_square(draw, x, y, 30, c, lang)
            x += 36
    # the deals made, most recent first
    hy = y0 + 240
    draw.line([x0 + 20, hy - 8, x1 - 20, hy - 8], fill=_blend(LINE, BG, 0.3), width=2)
    draw_text(draw, (x0 + 20, hy), _t(lang, "render.history"), SIZE_SMALL, GOLD, bold=True)
    hist = view.get("history") or []
    rows = (y1 - hy - 40) // 30
    col_w = (x1 - x0 - 40) // 2
    items = list(reversed(hist))[: rows * 2]
    if not items:
        draw_text(draw, (x0 + 20, hy + 34), _t(lang, "render.none"), SIZE_SMALL, TEXT_DIM)
    for i, h in enumerate(items):
        cx = x0 + 20 + (i // rows) * col_w
        cy = hy + 34 + (i % rows) * 30
        line = _t(lang, "render.deal_line", card=h["card"], space=h["space"], seat=_name(names, h["boss"]),
                  proceeds=h["proceeds"])
        draw_text(draw, (cx, cy), line, SIZE_SMALL, TEXT, max_width=col_w - 12)


def _board(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int) -> int:
    for space in range(len(SPACES)):
        _draw_tile(draw, view, space, _tile_box(space, y0), lang)
    cx0 = MARGIN + TILE_W + GAP
    cy0 = y0 + TILE_H + GAP
    box = (cx0, cy0, W - MARGIN - TILE_W - GAP, cy0 + 3 * TILE_H + 2 * GAP)
    _centre(draw, view, names, lang, box)
    return y0 + 5 * TILE_H + 4 * GAP


# -- the deal panel ------------------------------------------------------------------------------------

def _src_label(lang: str, names: Sequence[str], src: dict) -> str:
    return _t(lang, "render.src_label", seat=_name(names, src["owner"]), clan=_t(lang, "clan." + src["clan"]),
              kind=_t(lang, "src." + src["kind"]))


def _price(lang: str, offer: dict) -> str:
    ask = offer["ask"]
    if "div" in ask:
        return f"{_t(lang, 'render.dividends', count=ask['div'])} (${offer['usd']}M)"
    return f"${offer['usd']}M"


def _deal_panel(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int) -> int:
    deal = view["deal"]
    x0, x1 = MARGIN, W - MARGIN
    y = y0 + 14
    title = (f"{_t(lang, 'render.boss')}: {_name(names, deal['boss'])}  ·  "
             f"{_t(lang, 'space.' + str(deal['space']))}  ·  {_t(lang, 'render.proceeds', proceeds=deal['proceeds'])}"
             f" ({deal['div']} × ${deal['value']}M)")
    draw_text(draw, (x0 + 18, y), title, SIZE_LABEL, GOLD, bold=True, max_width=x1 - x0 - 36)
    y += 44
    sub = []
    if deal["starter"] != deal["boss"]:
        sub.append(_t(lang, "render.starter", seat=_name(names, deal["starter"])))
    if view["shared"]:
        sub.append(_t(lang, "render.share", share=deal["share"]))
    else:
        sub.append(_t(lang, "render.room", total=deal["accepted_total"], room=deal["room"]))
    sub.append(_t(lang, "render.met") if deal["met"] else _t(lang, "render.not_met"))
    draw_text(draw, (x0 + 18, y), "  ·  ".join(sub), SIZE_SMALL, GOOD if deal["met"] else TEXT_DIM,
              max_width=x1 - x0 - 36)
    y += 36
    # the requirements, each with who fills it
    owner_of = {s["src"]: s for s in deal["sources"]}
    x = x0 + 18
    row_h = 46
    for slot in deal["slots"]:
        if slot["kind"] == "req":
            c = slot["clans"][0]
            filler = [owner_of[s] for s in slot["by"] if s in owner_of]
            who = ", ".join(sorted({_name(names, f["owner"]) for f in filler})) or "—"
            w = 40 + 12 + min(180, text_width(who, font(SIZE_SMALL))) + 24
            if x + w > x1 - 10:
                x = x0 + 18
                y += row_h
            clan_square(draw, x, y, 38, c, lang, tick=bool(filler))
            draw_text(draw, (x + 48, y + 19), who, SIZE_SMALL, TEXT if filler else TEXT_DIM, anchor="lm", max_width=180)
            x += w
        else:
            label = _t(lang, "render.any_of", k=slot["k"])
            lw = text_width(label, font(SIZE_SMALL, True)) + 10
            w = lw + len(slot["clans"]) * 36 + 24
            if x + w > x1 - 10:
                x = x0 + 18
                y += row_h
            draw.rounded_rectangle([x, y - 2, x + w - 16, y + 40], radius=8, outline=_blend(LINE, WHITE, 0.2), width=2)
            draw_text(draw, (x + 6, y + 19), label, SIZE_SMALL, TEXT, bold=True, anchor="lm")
            cx = x + lw
            for c in slot["clans"]:
                clan_square(draw, cx, y + 3, 32, c, lang, tick=c in slot["filled"])
                cx += 36
            x += w
            filler = [owner_of[s] for s in slot["by"] if s in owner_of]
            who = ", ".join(sorted({_name(names, f["owner"]) for f in filler}))
            if who:
                ww = min(220, text_width(who, font(SIZE_SMALL))) + 20
                if x + ww > x1 - 10:
                    x = x0 + 18
                    y += row_h
                draw_text(draw, (x - 6, y + 19), who, SIZE_SMALL, TEXT, anchor="lm", max_width=220)
                x += ww
    y += row_h + 6
    # two columns: offers on the left; table clan cards and travellers on the right
    col = (x1 - x0 - 36) // 2 + 40
    lx, rx = x0 + 18, x0 + 18 + col + 12
    ly = ry = y
    if not view["shared"]:
        draw_text(draw, (lx, ly), _t(lang, "render.offers"), SIZE_BODY, GOLD, bold=True)
        ly += 36
        if not deal["offers"]:
            draw_text(draw, (lx, ly), _t(lang, "render.no_offers"), SIZE_SMALL, TEXT_DIM)
            ly += 32
        for o in deal["offers"][:8]:
            state = o["state"]
            colour = GOOD if state == "accepted" else (GOLD if state == "inherited" else TEXT)
            clan_square(draw, lx, ly, 26, o["clan"], lang)
            text = (f"{_price(lang, o)} · {_t(lang, 'render.' + state)} · {_name(names, o['seat'])}"
                    f" ({_t(lang, 'src.' + o['kind'])})")
            draw_text(draw, (lx + 34, ly + 13), text, SIZE_SMALL, colour, anchor="lm", max_width=col - 44)
            ly += 34
    else:
        draw_text(draw, (lx, ly), _t(lang, "render.placards"), SIZE_BODY, GOLD, bold=True)
        ly += 36
        for s in [s for s in deal["sources"] if s["kind"] == "placard"][:8]:
            clan_square(draw, lx, ly, 26, s["clan"], lang)
            draw_text(draw, (lx + 34, ly + 13), _name(names, s["owner"]), SIZE_SMALL, TEXT, anchor="lm",
                      max_width=col - 44)
            ly += 34
    draw_text(draw, (rx, ry), _t(lang, "render.table"), SIZE_BODY, GOLD, bold=True)
    ry += 36
    if not deal["table"]:
        draw_text(draw, (rx, ry), _t(lang, "render.none"), SIZE_SMALL, TEXT_DIM)
        ry += 32
    # clan cards grouped by clan so six players' cards fit
    by_clan: dict[str, list[int]] = {}
    for tc in deal["table"]:
        by_clan.setdefault(tc["clan"], []).append(tc["owner"])
    for c in CLANS:
        if c in by_clan:
            clan_square(draw, rx, ry, 26, c, lang)
            draw_text(draw, (rx + 34, ry + 13), ", ".join(_name(names, s) for s in by_clan[c]), SIZE_SMALL, TEXT,
                      anchor="lm", max_width=x1 - rx - 50)
            ry += 34
    if deal["away"]:
        ry += 4
        draw_text(draw, (rx, ry), _t(lang, "render.away"), SIZE_BODY, GOLD, bold=True)
        ry += 36
        for a in deal["away"]:
            clan_square(draw, rx, ry, 26, a["clan"], lang, cross=True)
            draw_text(draw, (rx + 34, ry + 13), f"{_name(names, a['owner'])} · {_t(lang, 'card.' + a['card'])}",
                      SIZE_SMALL, TEXT_DIM, anchor="lm", max_width=x1 - rx - 50)
            ry += 34
    y = max(ly, ry) + 6
    win = view.get("window")
    if win is not None:
        who = ", ".join(_name(names, s) for s in win["owing"]) or "—"
        if win["kind"] == "reaction":
            target = _window_target(win, names, lang)
            if target:
                text = _t(lang, "render.window_target", seat=_name(names, win["by"]), card=win["card"],
                          target=target, seats=who)
            else:
                text = _t(lang, "render.window_reaction", seat=_name(names, win["by"]), card=win["card"], seats=who)
        else:
            text = _t(lang, "render.window_last_call", seats=who)
        draw.rounded_rectangle([x0 + 10, y, x1 - 10, y + 44], radius=10, fill=_blend(GOLD, BG, 0.75), outline=GOLD,
                               width=2)
        draw_text(draw, (x0 + 26, y + 22), text, SIZE_SMALL, WHITE, bold=True, anchor="lm", max_width=x1 - x0 - 52)
        y += 54
    return y + 6


def _window_target(win: dict, names: Sequence[str], lang: str) -> str:
    """"Bob: Orange placard" for a travel or a recruit (a boss card has no target)."""
    target = win.get("target")
    if not target:
        return ""
    if win["card"] == "recruit":
        owner = win.get("target_owner")
        who = _name(names, owner) if owner is not None else _t(lang, "render.spares")
        return f"{who}: {_t(lang, 'clan.' + target)} {_t(lang, 'src.placard')}"
    parts = target.split(":")
    kind_ = parts[0]
    return f"{_name(names, win.get('target_owner'))}: {_t(lang, 'clan.' + parts[1])} {_t(lang, 'src.' + kind_)}"


# -- the players -----------------------------------------------------------------------------------------

def _players(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int, places=None) -> int:
    n = len(view["seats"])
    cols = 2 if n > 1 else 1
    cw = (W - 2 * MARGIN - GAP * (cols - 1)) // cols
    ch = 96
    deal = view.get("deal")
    boss = deal["boss"] if deal else None
    active = set(view.get("to_act") or [])
    turn = view.get("active") if view["phase"] in ("turn_start", "moved", "discard") else None
    for i, sv in enumerate(view["seats"]):
        r, c = divmod(i, cols)
        x = MARGIN + c * (cw + GAP)
        y = y0 + r * (ch + GAP)
        hot = i in active and not view["over"]
        rounded(draw, (x, y, x + cw, y + ch), radius=12, fill=PANEL, outline=GOLD if hot else LINE, width=4 if hot else 2)
        tag = ""
        if places is not None and places[i] is not None:
            tag = _t(lang, "render.place", place=places[i])
        elif i == boss:
            tag = _t(lang, "render.boss")
        name = _name(names, i)
        nx = x + 16
        if tag:
            tw = text_width(tag, font(SIZE_SMALL, True)) + 18
            draw.rounded_rectangle([nx, y + 12, nx + tw, y + 42], radius=8,
                                   fill=GOLD if (i == boss or (places and places[i] == 1)) else PANEL_LIGHT)
            draw_text(draw, (nx + tw / 2, y + 27), tag, SIZE_SMALL, DARK_INK, bold=True, anchor="mm")
            nx += tw + 10
        colour = TEXT_DIM if sv["resigned"] else (GOLD if i == turn else TEXT)
        draw_text(draw, (nx, y + 27), name, SIZE_BODY, colour, bold=True, anchor="lm", max_width=cw - (nx - x) - 170)
        money = _money(lang, sv)
        draw_text(draw, (x + cw - 16, y + 27), money, SIZE_BODY, GOLD, bold=True, anchor="rm")
        # placards and hand
        py = y + 52
        px = x + 16
        if sv["placards"]:
            for cl in sv["placards"]:
                clan_square(draw, px, py, 32, cl, lang)
                px += 38
        else:
            draw_text(draw, (px, py + 16), _t(lang, "render.no_placards"), SIZE_SMALL, TEXT_DIM, anchor="lm")
            px += text_width(_t(lang, "render.no_placards"), font(SIZE_SMALL)) + 8
        hand = _t(lang, "render.hand", count=sv["hand"])
        draw_text(draw, (x + cw - 16, py + 16), hand, SIZE_SMALL, TEXT_DIM, anchor="rm")
    rows = (n + cols - 1) // cols
    return y0 + rows * (ch + GAP)


# -- the pictures ------------------------------------------------------------------------------------------

def _status(view: dict, names: Sequence[str], lang: str) -> str:
    if view["over"]:
        return _t(lang, "render.results")
    phase = _t(lang, f"phase.{view['phase']}")
    who = view.get("to_act") or []
    if view["phase"] in ("turn_start", "moved", "discard", "marker") and who:
        return f"{phase} · {_name(names, who[0])}"
    return phase


def _flat(img: Image.Image) -> Image.Image:
    """Flat colours and text: a 256-colour palette looks the same and halves the encoding."""
    return flat(img)


def _table(view: dict, names: Sequence[str], lang: str, results: bool) -> Image.Image:
    img, draw = canvas(W, 2200)
    draw.rectangle([0, 0, W, 64], fill=PANEL)
    draw_text(draw, (24, 32), _t(lang, "name"), SIZE_TITLE - 6, GOLD, bold=True, anchor="lm", max_width=W // 2 - 40)
    draw_text(draw, (W - 24, 32), _status(view, names, lang), SIZE_BODY, TEXT_DIM, anchor="rm", max_width=W // 2)
    y = 80
    y = _board(draw, view, names, lang, y) + 12
    if view.get("deal") is not None and not results:
        top = y
        y = _deal_panel(draw, view, names, lang, y)
        # frame the panel drawn above it
        draw.rounded_rectangle([MARGIN, top, W - MARGIN, y], radius=14, outline=GOLD, width=3)
        y += 12
    if not results:  # the results picture ranks the players below instead
        y = _players(draw, view, names, lang, y) + 8
    return img.crop((0, 0, W, y))


def table_image(view: dict, names: list[str], lang: str) -> Image.Image:
    return _flat(_table(view, names, lang, results=False))


def results_image(view: dict, names: list[str], lang: str) -> Image.Image:
    """The final board and every player's money, ranked."""
    board = _table(view, names, lang, results=True)
    res = view.get("results") or {}
    places = res.get("places") or [None] * len(view["seats"])
    money = res.get("money") or [s.get("money", 0) for s in view["seats"]]
    order = sorted(range(len(view["seats"])), key=lambda s: (places[s] is None, places[s] or 99, -money[s]))
    row = 60
    head = 80
    h = head + row * len(order) + 20
    img, draw = canvas(W, board.height + h)
    img.paste(board, (0, 0))
    y = board.height
    draw.rectangle([0, y, W, y + 64], fill=PANEL)
    draw_text(draw, (24, y + 32), _t(lang, "render.results"), SIZE_TITLE - 6, GOLD, bold=True, anchor="lm")
    y += head
    bosses: dict[int, int] = {}
    for hst in view.get("history") or []:
        bosses[hst["boss"]] = bosses.get(hst["boss"], 0) + 1
    for s in order:
        p = places[s]
        win = p == 1
        rounded(draw, (MARGIN, y, W - MARGIN, y + row - 8), radius=10, fill=_blend(GOLD, BG, 0.7) if win else PANEL,
                outline=GOLD if win else LINE)
        draw_text(draw, (MARGIN + 20, y + (row - 8) / 2), _t(lang, "render.place", place=p) if p else "—", SIZE_LABEL,
                  GOLD if win else TEXT, bold=True, anchor="lm")
        draw_text(draw, (MARGIN + 110, y + (row - 8) / 2), _name(names, s), SIZE_LABEL, WHITE if win else TEXT, bold=True,
                  anchor="lm", max_width=W - 2 * MARGIN - 540 - 38 * len(view["seats"][s]["placards"]))
        draw_text(draw, (W - MARGIN - 20, y + (row - 8) / 2), _t(lang, "render.money_exact", money=money[s]),
                  SIZE_LABEL, GOLD, bold=True, anchor="rm")
        if bosses.get(s):
            draw_text(draw, (W - MARGIN - 200, y + (row - 8) / 2), _t(lang, "render.boss_deals", count=bosses[s]),
                      SIZE_SMALL, TEXT_DIM, anchor="rm")
        x = W - MARGIN - 400 - 38 * len(view["seats"][s]["placards"])
        for cl in view["seats"][s]["placards"]:
            clan_square(draw, x, y + (row - 8) / 2 - 16, 32, cl, lang)
            x += 38
        y += row
    return _flat(img.crop((0, 0, W, y + 12)))


# -- the hand ---------------------------------------------------------------------------------------------

CARD_W = 168
CARD_H = 232
CARD_GAP = 14


def _kind_look(k: str) -> tuple[tuple[int, int, int], str]:
    """(colour, family) of a card kind."""
    if k.startswith("clan-"):
        return CLAN_RGB[k[5:]], "clan"
    if k == "travel-grey":
        return GREY_TRAVEL, "travel"
    if k.startswith("travel-"):
        return CLAN_RGB[k[7:]], "travel"
    return {"recruit": (92, 120, 170), "boss": (40, 40, 48), "stop": (200, 48, 48)}[k], k


def _suitcase(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour, body) -> None:
    """A suitcase for travel cards (旅行)."""
    draw.rounded_rectangle([cx - s * 0.4, cy - s * 0.95, cx + s * 0.4, cy - s * 0.45], radius=int(s * 0.15),
                           outline=colour, width=max(4, int(s * 0.14)))
    draw.rounded_rectangle([cx - s, cy - s * 0.6, cx + s, cy + s * 0.75], radius=int(s * 0.2), fill=colour)
    for dx in (-0.55, 0.55):
        draw.rectangle([cx + s * dx - s * 0.08, cy - s * 0.6, cx + s * dx + s * 0.08, cy + s * 0.75], fill=body)


def _icon(draw: ImageDraw.ImageDraw, family: str, cx: float, cy: float, ink, lang: str, k: str, body=None) -> None:
    if family == "clan":
        draw.ellipse([cx - 26, cy - 46, cx + 26, cy + 6], fill=ink)
        draw.pieslice([cx - 46, cy + 2, cx + 46, cy + 90], 180, 360, fill=ink)
    elif family == "travel":
        _suitcase(draw, cx, cy + 8, 44, ink, body)
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


def _hand_card(draw: ImageDraw.ImageDraw, x: int, y: int, k: str, count: int, lang: str) -> None:
    colour, family = _kind_look(k)
    rounded(draw, (x, y, x + CARD_W, y + CARD_H), radius=14, fill=CARD_FACE, outline=_blend(colour, BG, 0.2), width=4)
    draw.rounded_rectangle([x + 8, y + 8, x + CARD_W - 8, y + 150], radius=10, fill=colour)
    ink = DARK_INK if _light(colour) else WHITE
    _icon(draw, family, x + CARD_W / 2, y + 78, ink, lang, k, body=colour)
    label = _t(lang, f"card.{k}")
    lines = _two_lines(label, CARD_W - 16, SIZE_SMALL)
    ty = y + 170 if len(lines) > 1 else y + 184
    for line in lines:
        draw_text(draw, (x + CARD_W / 2, ty), line, SIZE_SMALL, DARK_INK, bold=True, anchor="mm", max_width=CARD_W - 12)
        ty += 28
    if count > 1:
        cx, cy, r = x + CARD_W - 10, y + 10, 24
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=GOLD, outline=BG, width=3)
        draw_text(draw, (cx, cy + 1), f"×{count}", SIZE_SMALL, DARK_INK, bold=True, anchor="mm")


def _two_lines(text: str, width: int, size: int) -> list[str]:
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


def panel_image(view: dict, names: list[str], lang: str) -> Image.Image | None:
    """The seat's hand as cards (one per kind with a count), its placards and exact money."""
    priv = view.get("private")
    me = view.get("me")
    if priv is None or me is None:
        return None
    kinds = priv.get("kinds") or {}
    order = [k for k in KINDS if kinds.get(k)]
    per_row = 6
    rows = max(1, (len(order) + per_row - 1) // per_row)
    width = MARGIN * 2 + per_row * CARD_W + (per_row - 1) * CARD_GAP
    height = 80 + rows * (CARD_H + CARD_GAP) + 70
    img, draw = canvas(width, height)
    draw.rectangle([0, 0, width, 64], fill=PANEL)
    total = sum(kinds.values())
    draw_text(draw, (24, 32), f"{_t(lang, 'render.your_hand')} · {_t(lang, 'render.hand', count=total)}",
              SIZE_LABEL, GOLD, bold=True, anchor="lm", max_width=width // 2)
    draw_text(draw, (width - 24, 32), _t(lang, "ui.money", money=priv.get("money", 0)), SIZE_LABEL, GOLD, bold=True,
              anchor="rm")
    y = 80
    if not order:
        draw_text(draw, (width / 2, y + 60), _t(lang, "render.empty_hand"), SIZE_BODY, TEXT_DIM, anchor="mm")
    for i, k in enumerate(order):
        r, c = divmod(i, per_row)
        _hand_card(draw, MARGIN + c * (CARD_W + CARD_GAP), y + r * (CARD_H + CARD_GAP), k, kinds[k], lang)
    y += rows * (CARD_H + CARD_GAP) + 8
    sv = view["seats"][me]
    label = _t(lang, "render.placards")
    draw_text(draw, (MARGIN + 8, y + 20), label, SIZE_BODY, TEXT_DIM, anchor="lm")
    x = MARGIN + 16 + text_width(label, font(SIZE_BODY))
    if not sv["placards"]:
        draw_text(draw, (x, y + 20), _t(lang, "render.no_placards"), SIZE_BODY, TEXT_DIM, anchor="lm")
    for cl in sv["placards"]:
        clan_square(draw, x, y + 2, 36, cl, lang)
        x += 42
    limit = _t(lang, "render.limit", limit=view["hand_limit"])
    draw_text(draw, (width - MARGIN - 8, y + 20), limit, SIZE_BODY, TEXT_DIM, anchor="rm")
    return _flat(img.crop((0, 0, width, y + 50)))

"""E-Wars pictures: the public table, a seat's private panel, and the final results.

Drawn from engine views only. Shapes (dice pips, the bell, the star, reach diagrams) are
drawn, never font glyphs, so they look the same everywhere. Sizes follow render.common's
phone rule: 1200 px wide at most, text at least SIZE_SMALL.

Table layouts:
  - live (dice time, dispatch, or no contract yet): the grid on the left, one card per
    player on the right (dice with pips, claims, hand size, discards, score);
  - after a contract (waiting for the bell, game over): the last contract's board (revealed
    employees with rank label and reach diagram, the reach of every ability that removed
    someone, removed employees crossed out, captured cards framed in the winner's colour)
    beside the table as it is now, and the players below.
"""

from __future__ import annotations

from typing import Any, Sequence

from PIL import Image, ImageDraw

from engine.ewars.data import HIGH_TO_LOW, REACH
from engine.ewars.grid import index_of
from locales.format import separator
from render.common import (
    BAD,
    GOLD,
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
    ellipsize,
    fit,
    font,
    rounded,
    seat_colour,
    t,
    text_width,
    wrap,
)
from render.palette import flattened

WIDTH = 1200
CARD = (244, 236, 216)        # property card face
CARD_EDGE = (196, 182, 150)
PIP = (40, 40, 48)
DIE = (252, 252, 250)
DIE_EDGE = (150, 150, 160)
GAP_EDGE = (60, 68, 84)

_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def _tk(lang: str, key: str, **params: Any) -> str:
    return t(lang, f"ewars.{key}", **params)


def _contrast(rgb: Sequence[int]) -> tuple[int, int, int]:
    r, g, b = rgb[:3]
    return (30, 30, 36) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (250, 250, 250)


def _darker(rgb: Sequence[int], f: float = 0.6) -> tuple[int, int, int]:
    return tuple(int(c * f) for c in rgb[:3])  # type: ignore[return-value]


def draw_text(draw: ImageDraw.ImageDraw, xy, text: str, size: int = SIZE_BODY, fill=TEXT, bold: bool = False,
              anchor: str = "la", max_width: int | None = None) -> None:
    """render.common.draw_text, but never shrinking below SIZE_SMALL (phones): long text
    (player names) is cut with an ellipsis instead."""
    fnt = font(size, bold)
    if max_width is not None:
        fnt = fit(text, max_width, size, bold, min_size=min(size, SIZE_SMALL))
        text = ellipsize(text, max_width, fnt)
    draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


# -- primitives --------------------------------------------------------------------------------

def die(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, face: int, body=DIE, pip=PIP, edge=DIE_EDGE) -> None:
    """A die face with pips, top-left at (x, y)."""
    draw.rounded_rectangle([x, y, x + size, y + size], radius=max(3, int(size * 0.18)), fill=body, outline=edge,
                           width=max(1, int(size / 24)))
    r = size * 0.095
    for px, py in _PIPS.get(face, []):
        cx, cy = x + px * size, y + py * size
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=pip)


def seat_die(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, face: int, seat: int) -> None:
    """A player's own die: body in the seat colour."""
    body = seat_colour(seat)
    die(draw, x, y, size, face, body=body, pip=_contrast(body), edge=_darker(body))


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill, outline=None) -> None:
    import math

    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    draw.polygon(pts, fill=fill, outline=outline)


def bell(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill=GOLD) -> None:
    """A small hotel bell (the parent's mark)."""
    draw.pieslice([cx - s, cy - s * 0.9, cx + s, cy + s * 1.1], 180, 360, fill=fill)
    draw.rectangle([cx - s * 1.15, cy + s * 0.1, cx + s * 1.15, cy + s * 0.32], fill=fill)
    draw.ellipse([cx - s * 0.18, cy - s * 1.18, cx + s * 0.18, cy - s * 0.82], fill=fill)


def reach_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, rank: str, on, off, centre) -> None:
    """A 3x3 diagram of a rank's reach (the star: a star; staff: the centre only)."""
    if rank == "star":
        star(draw, cx, cy, size * 0.5, on)
        return
    cells = set()
    kind = REACH.get(rank, "none")
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) == (0, 0):
                continue
            if (kind == "neighbours8" or (kind == "row" and dr == 0) or (kind == "column" and dc == 0)
                    or (kind == "diagonals" and dr and dc)):
                cells.add((dr, dc))
    step = size / 3
    pad = max(1, step * 0.12)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            x0 = cx + (dc - 0.5) * step + pad
            y0 = cy + (dr - 0.5) * step + pad
            fill = centre if (dr, dc) == (0, 0) else (on if (dr, dc) in cells else off)
            draw.rectangle([x0, y0, x0 + step - 2 * pad, y0 + step - 2 * pad], fill=fill)


def employee_card(draw: ImageDraw.ImageDraw, box: Sequence[float], seat: int, rank: str | None, lang: str,
                  removed: bool = False, label: bool = True) -> None:
    """An employee card: face down (rank None: the back in the owner's colour) or face up
    (owner colour, reach diagram, short rank label)."""
    x0, y0, x1, y1 = box
    colour = seat_colour(seat)
    w, h = x1 - x0, y1 - y0
    if rank is None:
        rounded(draw, box, radius=8, fill=colour, outline=_darker(colour), width=3)
        inner = (x0 + w * 0.14, y0 + h * 0.14, x1 - w * 0.14, y1 - h * 0.14)
        rounded(draw, inner, radius=6, fill=None, outline=_darker(colour, 0.75), width=3)
        # a silhouette: head and shoulders
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        s = min(w, h) * 0.17
        dark = _darker(colour, 0.7)
        draw.ellipse([cx - s * 0.6, cy - s * 1.5, cx + s * 0.6, cy - s * 0.3], fill=dark)
        draw.pieslice([cx - s * 1.1, cy - s * 0.1, cx + s * 1.1, cy + s * 2.0], 180, 360, fill=dark)
        return
    # A removed employee keeps a trace of its owner's colour under the cross.
    fill = colour if not removed else tuple(int(c * 0.35 + 105 * 0.65) for c in colour)
    ink = _contrast(fill)
    rounded(draw, box, radius=8, fill=fill, outline=_darker(fill), width=3)
    if not label:
        icon = min(w, h) * 0.7
        reach_icon(draw, (x0 + x1) / 2, (y0 + y1) / 2, icon, rank, on=ink, off=_darker(fill, 0.8), centre=GOLD)
        return
    text = _tk(lang, f"rank_short.{rank}")
    lsize = max(SIZE_SMALL, int(h * 0.22))
    icon = min(w * 0.55, h * 0.5)
    reach_icon(draw, (x0 + x1) / 2, y0 + h * 0.08 + icon / 2, icon, rank, on=ink, off=_darker(fill, 0.8),
               centre=GOLD if not removed else (160, 160, 160))
    if removed:
        draw.line([x0 + 6, y0 + 6, x1 - 6, y1 - 6], fill=BAD, width=5)
        draw.line([x0 + 6, y1 - 6, x1 - 6, y0 + 6], fill=BAD, width=5)
    fnt = font(lsize, True)
    draw.text(((x0 + x1) / 2, y1 - h * 0.06), text, font=fnt, fill=ink, anchor="md", stroke_width=2,
              stroke_fill=_darker(fill, 0.55))


def property_card(draw: ImageDraw.ImageDraw, box: Sequence[float], faces: Sequence[int], claim: int | None = None,
                  small_faces: bool = False, dim: bool = False) -> None:
    """A property card with its two die faces; a claim puts the claimer's dice on it."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    face_fill = CARD if not dim else (206, 200, 186)
    rounded(draw, box, radius=10, fill=face_fill, outline=CARD_EDGE if claim is None else seat_colour(claim),
            width=3 if claim is None else 6)
    size = min(w * 0.37, h * 0.42) if not small_faces else min(w * 0.24, h * 0.26)
    gap = size * 0.18
    total = 2 * size + gap
    dx = x0 + (w - total) / 2
    dy = y0 + (h - size) / 2 if not small_faces else y0 + h * 0.06
    for k, f in enumerate(faces):
        if claim is None:
            die(draw, dx + k * (size + gap), dy, size, f)
        else:
            seat_die(draw, dx + k * (size + gap), dy, size, f, claim)


# -- boards ------------------------------------------------------------------------------------

def _board_geometry(x: int, y: int, width: int, rows: int, cols: int, max_cell: int = 160) -> tuple[int, int, int]:
    axis = 30
    cell = min(max_cell, (width - axis) // max(cols, 1))
    return x + axis, y + axis, cell


def _axes(draw: ImageDraw.ImageDraw, bx: int, by: int, cell: int, rows: int, cols: int) -> None:
    for c in range(cols):
        draw_text(draw, (bx + c * cell + cell / 2, by - 6), str(c + 1), SIZE_SMALL, TEXT_DIM, bold=True, anchor="md")
    for r in range(rows):
        draw_text(draw, (bx - 8, by + r * cell + cell / 2), "ABCD"[r] if r < 4 else chr(65 + r), SIZE_SMALL, TEXT_DIM,
                  bold=True, anchor="rm")


def _gap(draw: ImageDraw.ImageDraw, box: Sequence[float]) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(list(box), radius=10, outline=GAP_EDGE, width=2)
    draw.line([x0 + 14, y1 - 14, x1 - 14, y0 + 14], fill=GAP_EDGE, width=2)


def live_board(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, width: int, view: dict[str, Any],
               max_cell: int = 160, mine: dict[str, str] | None = None, lang: str = "en") -> int:
    """The current grid: cards, claims (the claimer's dice), face-down employees. `mine`
    (pos -> rank) shows the viewer's own face-down ranks (panel only). Returns the bottom y."""
    rows, cols = view["rows"], view["cols"]
    bx, by, cell = _board_geometry(x, y, width, rows, cols, max_cell)
    _axes(draw, bx, by, cell, rows, cols)
    pad = max(4, cell // 24)
    for i, c in enumerate(view["grid"]):
        r, col = divmod(i, cols)
        box = (bx + col * cell + pad, by + r * cell + pad, bx + (col + 1) * cell - pad, by + (r + 1) * cell - pad)
        if c is None:
            _gap(draw, box)
            continue
        emp = c.get("emp")
        if emp is None:
            property_card(draw, box, c["faces"], c.get("claim"))
            continue
        # An employee covers the card: faces shrink to the top, the employee card below.
        property_card(draw, box, c["faces"], None, small_faces=True)
        x0, y0, x1, y1 = box
        h = y1 - y0
        inner = (x0 + (x1 - x0) * 0.16, y0 + h * 0.36, x1 - (x1 - x0) * 0.16, y1 - h * 0.05)
        rank = (mine or {}).get(c["pos"]) if emp["seat"] == view.get("me") else None
        employee_card(draw, inner, emp["seat"], rank, lang)
    return by + rows * cell


def _cell_centre(bx: int, by: int, cell: int, cols: int, i: int) -> tuple[float, float]:
    r, c = divmod(i, cols)
    return bx + c * cell + cell / 2, by + r * cell + cell / 2


def contract_board(img: Image.Image, x: int, y: int, width: int, last: dict[str, Any], lang: str,
                   max_cell: int = 160) -> int:
    """The last contract: revealed employees, each ability that removed someone (its reach in
    the actor's colour), removed employees crossed out, captured cards framed in the
    winner's colour. Returns the bottom y."""
    rows, cols = last["rows"], last["cols"]
    draw = ImageDraw.Draw(img)
    bx, by, cell = _board_geometry(x, y, width, rows, cols, max_cell)
    _axes(draw, bx, by, cell, rows, cols)
    pad = max(4, cell // 24)
    idx = index_of(rows, cols)
    for i, c in enumerate(last["cells"]):
        r, col = divmod(i, cols)
        box = (bx + col * cell + pad, by + r * cell + pad, bx + (col + 1) * cell - pad, by + (r + 1) * cell - pad)
        if c is None:
            _gap(draw, box)
            continue
        won = c.get("won_by")
        property_card(draw, box, c["faces"], None, small_faces=c.get("emp") is not None, dim=won is None)
        if won is not None:
            colour = seat_colour(won)
            draw.rounded_rectangle([box[0] - pad + 1, box[1] - pad + 1, box[2] + pad - 1, box[3] + pad - 1], radius=12,
                                   outline=colour, width=max(5, pad + 2))
    # Ability overlays, translucent, under the employee cards.
    # Drawn on a layer the size of the board only (compositing the whole picture is slow).
    ox, oy = bx, by
    overlay = Image.new("RGBA", (cols * cell, rows * cell), (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    for step in last.get("steps", []):
        if not step["removed"]:
            continue
        colour = seat_colour(step["seat"])
        src = idx[step["pos"]]
        sx, sy = _cell_centre(0, 0, cell, cols, src)
        kind = REACH.get(step["rank"], "none")
        if kind == "neighbours8":
            r, c = divmod(src, cols)
            x0 = max(0, c - 1) * cell + 4
            y0 = max(0, r - 1) * cell + 4
            x1 = min(cols, c + 2) * cell - 4
            y1 = min(rows, r + 2) * cell - 4
            od.rounded_rectangle([x0, y0, x1, y1], radius=16, fill=colour + (70,), outline=colour + (120,), width=3)
            od.ellipse([sx - cell * 0.1, sy - cell * 0.1, sx + cell * 0.1, sy + cell * 0.1], fill=colour + (200,))
        else:
            # Lines run from the actor to each end of its reach.
            ends = _line_ends(kind, src, rows, cols)
            for e in ends:
                ex, ey = _cell_centre(0, 0, cell, cols, e)
                od.line([sx, sy, ex, ey], fill=colour + (170,), width=max(10, cell // 8))
                od.ellipse([ex - cell * 0.1, ey - cell * 0.1, ex + cell * 0.1, ey + cell * 0.1], fill=colour + (200,))
    region = (ox, oy, ox + cols * cell, oy + rows * cell)
    under = img.crop(region).convert("RGBA")
    img.paste(Image.alpha_composite(under, overlay).convert(img.mode), region[:2])
    draw = ImageDraw.Draw(img)
    for i, c in enumerate(last["cells"]):
        if c is None or c.get("emp") is None:
            continue
        r, col = divmod(i, cols)
        x0, y0 = bx + col * cell + pad, by + r * cell + pad
        x1, y1 = bx + (col + 1) * cell - pad, by + (r + 1) * cell - pad
        h = y1 - y0
        inner = (x0 + (x1 - x0) * 0.16, y0 + h * 0.36, x1 - (x1 - x0) * 0.16, y1 - h * 0.05)
        emp = c["emp"]
        employee_card(draw, inner, emp["seat"], emp["rank"], lang, removed=emp["removed"])
    return by + rows * cell


def _line_ends(kind: str, src: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(src, cols)
    dirs = {"row": [(0, 1), (0, -1)], "column": [(1, 0), (-1, 0)],
            "diagonals": [(1, 1), (-1, -1), (1, -1), (-1, 1)]}.get(kind, [])
    ends = []
    for dr, dc in dirs:
        rr, cc = r, c
        while 0 <= rr + dr < rows and 0 <= cc + dc < cols:
            rr, cc = rr + dr, cc + dc
        if (rr, cc) != (r, c):
            ends.append(rr * cols + cc)
    return ends


# -- players -----------------------------------------------------------------------------------

def _pill(draw: ImageDraw.ImageDraw, x: float, cy: float, text: str, fill, ink, size: int = SIZE_SMALL) -> float:
    fnt = font(size, True)
    w = text_width(text, fnt) + 18
    draw.rounded_rectangle([x, cy - size * 0.7, x + w, cy + size * 0.7], radius=int(size * 0.7), fill=fill)
    draw.text((x + 9, cy), text, font=fnt, fill=ink, anchor="lm")
    return x + w


def _discard_line(view: dict[str, Any], seat: int, lang: str) -> str:
    s = view["seats"][seat]
    disc = s.get("discards")
    if disc is None:
        return _tk(lang, "render.discard_list", list=_tk(lang, "render.hidden_discards", count=s["discard_count"]))
    if not disc:
        return _tk(lang, "render.no_discards")
    return _tk(lang, "render.discard_list", list=_ranks_text(disc, lang))


def _ranks_text(ranks: Sequence[str], lang: str) -> str:
    """Short rank labels, strongest first, with counts: "EXEC SUB×2 STAFF×3"."""
    counts: dict[str, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    return " ".join(_tk(lang, f"rank_short.{r}") + (f"×{counts[r]}" if counts[r] > 1 else "")
                    for r in HIGH_TO_LOW if r in counts)


#: The height of each further line a seat card's discards wrap onto.
LINE_H = 28


def _footer_lines(view: dict[str, Any], seat: int, lang: str, width: int) -> tuple[str, list[str]]:
    """A seat card's bottom text: "Hand N", and beside it its discards, wrapped onto as many
    lines as they need (the card grows), so a long pile is never cut off."""
    s = view["seats"][seat]
    hand = _tk(lang, "render.hand", count=s["hand"])
    fnt = font(SIZE_SMALL)
    room = width - 48 - text_width(hand, fnt) - 16
    return hand, wrap(_discard_line(view, seat, lang), room, fnt)


def seat_card_extra(view: dict[str, Any], lang: str, width: int) -> int:
    """Extra height the tallest seat card needs for discards that wrap."""
    most = max((len(_footer_lines(view, s, lang, width)[1]) for s in range(len(view["seats"]))), default=1)
    return (most - 1) * LINE_H


def seat_card(draw: ImageDraw.ImageDraw, box: Sequence[int], view: dict[str, Any], seat: int, names: Sequence[str],
              lang: str, active: bool, show_dice: bool, won: int | None = None) -> None:
    x0, y0, x1, y1 = box
    s = view["seats"][seat]
    colour = seat_colour(seat)
    rounded(draw, box, radius=12, fill=PANEL, outline=GOLD if active else LINE, width=4 if active else 2)
    draw.rounded_rectangle([x0, y0, x0 + 10, y1], radius=4, fill=colour)
    # name, parent's bell, score
    score = _tk(lang, "render.score", count=s["score"])
    sfnt = font(SIZE_LABEL, True)
    sw = text_width(score, sfnt)
    nx = x0 + 24
    if seat == view.get("parent"):
        bell(draw, nx + 12, y0 + 30, 12)
        nx += 32
    draw_text(draw, (nx, y0 + 30), _name(names, seat), SIZE_BODY, TEXT, bold=True, anchor="lm",
              max_width=int(x1 - nx - sw - 30))
    draw.text((x1 - 14, y0 + 30), score, font=sfnt, fill=GOLD, anchor="rm")
    if won:
        draw_text(draw, (x1 - 14, y0 + 62), _tk(lang, "render.won", count=won), SIZE_BODY, colour, bold=True, anchor="rm")
    mid = y0 + 58
    if show_dice:
        dice = s.get("dice") or []
        size = min(44, int((x1 - x0 - 40) / 6.6))
        if dice:
            for k, f in enumerate(dice):
                seat_die(draw, x0 + 24 + k * (size + 8), mid, size, f, seat)
        else:
            draw_text(draw, (x0 + 24, mid + size / 2), _tk(lang, "render.no_dice"), SIZE_SMALL, TEXT_DIM, anchor="lm")
        if s["claims"]:
            draw_text(draw, (x1 - 14, mid + size / 2), " ".join(s["claims"]), SIZE_BODY, colour, bold=True,
                      anchor="rm", max_width=int(x1 - x0 - 6 * (size + 8) - 50))
    elif view.get("phase") == "dispatch" and s.get("owed"):
        _pill(draw, x0 + 24, mid + 16, _tk(lang, "render.owed", count=s["owed"]), colour, _contrast(colour))
    hand, lines = _footer_lines(view, seat, lang, int(x1 - x0))
    yb = y1 - 22 - (len(lines) - 1) * LINE_H
    draw_text(draw, (x0 + 24, yb), hand, SIZE_SMALL, TEXT, anchor="lm")
    hx = x0 + 24 + text_width(hand, font(SIZE_SMALL)) + 16
    for k, line in enumerate(lines):
        draw_text(draw, (hx, yb + k * LINE_H), line, SIZE_SMALL, TEXT_DIM, anchor="lm", max_width=int(x1 - hx - 12))


# -- the table ---------------------------------------------------------------------------------

def _banner(draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any], names: Sequence[str], lang: str) -> int:
    phase = view.get("phase")
    text = _tk(lang, f"phase.{phase}")
    fill, ink = PANEL_LIGHT, TEXT
    if phase == "dice":
        fill, ink = GOLD, (40, 32, 10)
    elif phase == "dispatch":
        fill, ink = (72, 110, 170), (250, 250, 250)
    elif phase == "await_start":
        text = _tk(lang, "render.banner_wait", name=_name(names, view["parent"]))
    elif phase == "over":
        fill, ink = (120, 80, 150), (250, 250, 250)
        winners = view.get("winners") or []
        if winners:
            sep = separator(lang)
            key = "render.winners" if len(winners) > 1 else "render.winner"
            text = f"{text} · " + _tk(lang, key, names=sep.join(_name(names, w) for w in winners))
    draw.rectangle([0, y, WIDTH, y + 56], fill=fill)
    if phase in ("await_start", "dice"):
        bell(draw, 40, y + 30, 15, fill=ink)
    draw_text(draw, (70, y + 28), text, SIZE_LABEL, ink, bold=True, anchor="lm", max_width=WIDTH - 100)
    return y + 56


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], lang: str) -> int:
    draw.rectangle([0, 0, WIDTH, 64], fill=PANEL)
    draw_text(draw, (24, 32), _tk(lang, "name"), SIZE_TITLE - 8, GOLD, bold=True, anchor="lm", max_width=720)
    sub = f"{_tk(lang, 'render.round', round=view['round'])} · {_tk(lang, 'render.deck', count=view['deck'])}"
    draw_text(draw, (WIDTH - 24, 32), sub, SIZE_BODY, TEXT, anchor="rm", max_width=420)
    return 64


@flattened
def table_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    last = view.get("last")
    if view.get("phase") in ("await_start", "over") and last:
        return _after_contract(view, names, lang, last)
    return _live(view, names, lang)


def _live(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    n = len(view["seats"])
    board_w = 650
    card_h = (150 if view.get("phase") == "dice" else 130) + seat_card_extra(view, lang, WIDTH - 14 - board_w)
    rows = view["rows"]
    height = max(64 + 56 + 20 + 30 + rows * 155 + 20, 64 + 56 + 20 + n * (card_h + 12) + 8)
    img, draw = canvas(WIDTH, height)
    _header(draw, view, lang)
    y = _banner(draw, 64, view, names, lang) + 16
    live_board(img, draw, 12, y, board_w - 20, view, max_cell=155, lang=lang)
    active = set(view.get("to_act", [])) if view.get("phase") != "dice" else set()
    show_dice = view.get("phase") == "dice"
    for s in range(n):
        top = y + s * (card_h + 12)
        seat_card(draw, (board_w, top, WIDTH - 14, top + card_h), view, s, names, lang, s in active, show_dice)
    return img


def _after_contract(view: dict[str, Any], names: list[str], lang: str, last: dict[str, Any]) -> Image.Image:
    n = len(view["seats"])
    half = (WIDTH - 36) // 2
    cell = min(130, (half - 30) // max(last["cols"], view["cols"]))
    board_h = 30 + max(last["rows"], view["rows"]) * cell
    per_row = 2 if n == 4 else n
    card_h = 120 + seat_card_extra(view, lang, (WIDTH - 24 - 12 * (per_row - 1)) // per_row)
    seat_rows = (n + per_row - 1) // per_row
    height = 64 + 56 + 14 + 40 + board_h + 20 + seat_rows * (card_h + 12) + 8
    img, draw = canvas(WIDTH, height)
    _header(draw, view, lang)
    y = _banner(draw, 64, view, names, lang) + 14
    draw_text(draw, (12 + half / 2, y + 16), _tk(lang, "render.last_contract", round=last["round"]), SIZE_BODY, GOLD,
              bold=True, anchor="mm", max_width=half - 10)
    draw_text(draw, (24 + half + half / 2, y + 16), _tk(lang, "render.next_table"), SIZE_BODY, TEXT, bold=True,
              anchor="mm", max_width=half - 10)
    y += 40
    contract_board(img, 8, y, half, last, lang, max_cell=cell)
    draw = ImageDraw.Draw(img)
    live_board(img, draw, 24 + half, y, half, view, max_cell=cell, lang=lang)
    draw.line([12 + half + 6, y, 12 + half + 6, y + board_h], fill=LINE, width=2)
    y += board_h + 20
    w = (WIDTH - 24 - 12 * (per_row - 1)) // per_row
    active = set(view.get("to_act", []))
    won = last.get("won") or [0] * n
    for s in range(n):
        r, c = divmod(s, per_row)
        x0 = 12 + c * (w + 12)
        top = y + r * (card_h + 12)
        seat_card(draw, (x0, top, x0 + w, top + card_h), view, s, names, lang, s in active, False, won=won[s])
    return img


# -- the private panel -------------------------------------------------------------------------

@flattened
def panel_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image | None:
    me = view.get("me")
    priv = view.get("private")
    if me is None or priv is None or view.get("over"):
        return None
    colour = seat_colour(me)
    width = 1000
    phase = view.get("phase")
    hand = priv.get("hand", [])
    counts: dict[str, int] = {}
    for r in hand:
        counts[r] = counts.get(r, 0) + 1
    ranks = [r for r in HIGH_TO_LOW if r in counts]
    grid = {c["pos"]: c for c in view["grid"] if c is not None}
    top_h = 0
    if phase == "dice":
        top_h = 300
    elif phase == "dispatch":
        top_h = max(290, 30 + view["rows"] * 100 + 30)
    hand_h = 70 + (len(ranks) * 72 if ranks else 60)
    height = 70 + top_h + hand_h + 20
    img, draw = canvas(width, height)
    draw.rectangle([0, 0, width, 64], fill=PANEL)
    draw.rectangle([0, 0, 12, 64], fill=colour)
    draw_text(draw, (30, 32), _name(names, me), SIZE_LABEL, TEXT, bold=True, anchor="lm", max_width=520)
    draw_text(draw, (width - 24, 32), _tk(lang, f"phase.{phase}"), SIZE_BODY, GOLD, bold=True, anchor="rm",
              max_width=420)
    y = 80
    if phase == "dice":
        dice = view["seats"][me].get("dice") or []
        draw_text(draw, (24, y + 14), _tk(lang, "render.your_dice"), SIZE_BODY, TEXT, bold=True, anchor="lm")
        y += 36
        if dice:
            for k, f in enumerate(dice):
                seat_die(draw, 24 + k * 100, y, 84, f, me)
        else:
            draw_text(draw, (24, y + 40), _tk(lang, "render.no_dice"), SIZE_BODY, TEXT_DIM, anchor="lm")
        y += 100
        claim = priv.get("claimable", [])
        draw_text(draw, (24, y + 14), _tk(lang, "render.can_claim"), SIZE_BODY, TEXT, bold=True, anchor="lm")
        y += 34
        if claim:
            x = 24
            for pos in claim[:8]:
                property_card(draw, (x, y + 26, x + 110, y + 110), grid[pos]["faces"])
                draw_text(draw, (x + 55, y + 12), pos, SIZE_BODY, GOLD, bold=True, anchor="mm")
                x += 120
        else:
            draw_text(draw, (24, y + 30), _tk(lang, "render.nothing_claimable"), SIZE_BODY, TEXT_DIM, anchor="lm")
        y = 80 + top_h
    elif phase == "dispatch":
        # Your claimed cards on the left (sent ones show your face-up rank), and the whole
        # table on the right: where your employees go decides what they hit.
        mine = {p["pos"]: p["rank"] for p in priv.get("placed", [])}
        chosen = {p["pos"]: p["rank"] for p in priv.get("picks", [])}
        owed = priv.get("owed", [])
        draw_text(draw, (24, y + 14), _tk(lang, "render.your_claims"), SIZE_BODY, TEXT, bold=True, anchor="lm")
        cy = y + 40
        for k, pos in enumerate(sorted(set(owed) | set(mine))):
            c = grid.get(pos)
            if c is None:
                continue
            x = 24 + (k % 3) * 170
            draw_text(draw, (x + 75, cy + 14), pos, SIZE_BODY, GOLD, bold=True, anchor="mm")
            box = (x, cy + 34, x + 150, cy + 184)
            if pos in mine or pos in chosen:
                # Sent (confirmed), or chosen and still changeable until the Confirm.
                property_card(draw, box, c["faces"], None, small_faces=True)
                employee_card(draw, (x + 24, cy + 34 + 150 * 0.36, x + 126, cy + 34 + 150 * 0.95), me,
                              mine.get(pos) or chosen[pos], lang)
                if pos not in mine:
                    _pill(draw, x + 16, cy + 210, _tk(lang, "render.chosen"), PANEL_LIGHT, TEXT)
            else:
                property_card(draw, box, c["faces"], me)
                _pill(draw, x + 16, cy + 210, _tk(lang, "render.to_send"), colour, _contrast(colour))
        live_board(img, draw, width - 450, y, 440, view, max_cell=100, mine=mine, lang=lang)
        y = 80 + top_h
    # the hand, with each rank's reach
    draw.line([24, y, width - 24, y], fill=LINE, width=2)
    y += 14
    draw_text(draw, (24, y + 16), _tk(lang, "render.your_hand", count=len(hand)), SIZE_BODY, TEXT, bold=True,
              anchor="lm")
    disc = priv.get("discards", [])
    if disc:
        dtext = _tk(lang, "render.discard_list", list=_ranks_text(disc, lang))
        draw_text(draw, (width - 24, y + 16), dtext, SIZE_SMALL, TEXT_DIM, anchor="rm", max_width=520)
    y += 44
    if not ranks:
        for k, line in enumerate(wrap(_tk(lang, "render.empty_hand"), width - 60, font(SIZE_BODY))[:2]):
            draw_text(draw, (24, y + 14 + k * 32), line, SIZE_BODY, TEXT_DIM, anchor="lm")
    for r in ranks:
        employee_card(draw, (24, y, 88, y + 64), me, r, lang, label=False)
        label = _tk(lang, f"rank.{r}") + (f" ×{counts[r]}" if counts[r] > 1 else "")
        draw_text(draw, (106, y + 16), label, SIZE_BODY, TEXT, bold=True, anchor="lm", max_width=width - 130)
        draw_text(draw, (106, y + 46), _tk(lang, f"reach.{r}"), SIZE_SMALL, TEXT_DIM, anchor="lm", max_width=width - 130)
        y += 72
    return img


# -- results -----------------------------------------------------------------------------------

@flattened
def results_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    n = len(view["seats"])
    scores = [s["score"] for s in view["seats"]]
    order = sorted(range(n), key=lambda s: -scores[s])
    winners = set(view.get("winners") or [s for s in range(n) if scores[s] == max(scores)])
    left = sum(1 for c in view["grid"] if c is not None)
    row_h = 84
    board_w = 520
    rows = view["rows"]
    board_h = 30 + rows * 120 + 40
    height = 64 + 20 + max(n * (row_h + 10) + 60, board_h) + 20
    img, draw = canvas(WIDTH, height)
    draw.rectangle([0, 0, WIDTH, 64], fill=PANEL)
    draw_text(draw, (24, 32), _tk(lang, "name"), SIZE_TITLE - 8, GOLD, bold=True, anchor="lm", max_width=760)
    draw_text(draw, (WIDTH - 24, 32), _tk(lang, "render.results"), SIZE_BODY, TEXT, anchor="rm", max_width=380)
    y = 84
    top = max(scores) if scores else 0
    for s in order:
        place = 1 + sum(1 for o in scores if o > scores[s])
        colour = seat_colour(s)
        box = (20, y, WIDTH - board_w - 40, y + row_h)
        rounded(draw, box, radius=14, fill=PANEL, outline=GOLD if s in winners else LINE, width=4 if s in winners else 2)
        draw.rounded_rectangle([box[0], box[1], box[0] + 12, box[3]], radius=4, fill=colour)
        medal = GOLD if place == 1 else ((192, 192, 200) if place == 2 else ((205, 127, 50) if place == 3 else LINE))
        draw.ellipse([box[0] + 28, y + 18, box[0] + 76, y + 66], fill=medal)
        draw_text(draw, (box[0] + 52, y + 42), str(place), SIZE_LABEL, (30, 30, 36), bold=True, anchor="mm")
        draw_text(draw, (box[0] + 96, y + 42), _name(names, s), SIZE_LABEL, TEXT, bold=True, anchor="lm",
                  max_width=int(box[2] - box[0] - 300))
        bar_w = int(160 * scores[s] / top) if top else 0
        draw.rounded_rectangle([box[2] - 200, y + 52, box[2] - 200 + max(bar_w, 6), y + 66], radius=6, fill=colour)
        draw_text(draw, (box[2] - 20, y + 30), _tk(lang, "result", cards=scores[s]), SIZE_LABEL, GOLD, bold=True,
                  anchor="rm")
        y += row_h + 10
    key = "render.winners" if len(winners) > 1 else "render.winner"
    sep = separator(lang)
    draw_text(draw, (24, y + 24), _tk(lang, key, names=sep.join(_name(names, s) for s in sorted(winners))), SIZE_BODY, GOLD,
              bold=True, anchor="lm", max_width=WIDTH - board_w - 70)
    bx = WIDTH - board_w - 10
    draw_text(draw, (bx + board_w / 2, 100), _tk(lang, "render.cards_left", count=left), SIZE_BODY, TEXT_DIM,
              anchor="mm", max_width=board_w - 20)
    live_board(img, draw, bx, 124, board_w, view, max_cell=120, lang=lang)
    return img

"""E-Wars picture parts: dice, the bell, the star, employee and property cards, and the two
boards (the table as it is, the last contract with its abilities). Shapes are drawn, never font
glyphs, so they look the same everywhere. The pictures themselves are in render/ewars.py.
"""

from __future__ import annotations

from typing import Any, Sequence

from PIL import Image, ImageDraw

from engine.ewars.data import REACH
from engine.ewars.grid import index_of
from render.common import (
    BAD,
    BG,
    GOLD,
    SIZE_SMALL,
    TEXT_DIM,
    rounded,
    seat_colour,
    t,
    text,
)

WIDTH = 1200
CARD = (244, 236, 216)        # property card face
CARD_EDGE = (196, 182, 150)
CARD_DIM = (206, 200, 186)    # a card of the last contract that nobody won
PIP = (40, 40, 48)
DIE = (252, 252, 250)
DIE_EDGE = (150, 150, 160)
GAP_EDGE = (60, 68, 84)
#: The opacity (of 255) of an ability drawn over the last contract in its actor's colour: the
#: area it reaches (neighbours8), that area's edge, the line of a reach, the dot at each end.
ABILITY_AREA, ABILITY_EDGE, ABILITY_LINE, ABILITY_DOT = 70, 120, 170, 200

_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def tk(lang: str, key: str, **params: Any) -> str:
    return t(lang, f"ewars.{key}", **params)


def contrast(rgb: Sequence[int]) -> tuple[int, int, int]:
    r, g, b = rgb[:3]
    return (30, 30, 36) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (250, 250, 250)


def darker(rgb: Sequence[int], f: float = 0.6) -> tuple[int, int, int]:
    return tuple(int(c * f) for c in rgb[:3])  # type: ignore[return-value]


def removed_fill(colour: Sequence[int]) -> tuple[int, int, int]:
    """A removed employee keeps a trace of its owner's colour under the cross."""
    return tuple(int(c * 0.35 + 105 * 0.65) for c in colour[:3])  # type: ignore[return-value]


def palette_colours() -> list[tuple[int, int, int]]:
    """Colours worked out while drawing, kept exactly in the palette (tools/pictures.py): each
    seat's employees (face down, face up, removed) and their edges, and its abilities over what
    covers most of the last contract (`ability_colours`)."""
    out = []
    for seat in range(4):  # E-Wars seats four at most
        colour = seat_colour(seat)
        for fill in (colour, removed_fill(colour)):
            out += [fill, contrast(fill)] + [darker(fill, f) for f in (0.55, 0.6, 0.7, 0.75, 0.8)]
    return out + ability_colours()


def ability_colours() -> list[tuple[int, int, int]]:
    """Each seat's ability area and reach line over what covers most of the last contract: a
    card, a card nobody won, the table (composited as `contract_board` does). Seeded games show
    only the seats and cards their abilities happened to reach: a palette chosen from them alone
    missed the rest by a dozen shades over whole cards (a green area over a card nobody won: 13
    per channel, issue 28)."""
    return [_over(base, [(seat_colour(seat), alpha)]) for seat in range(4)
            for alpha in (ABILITY_AREA, ABILITY_LINE) for base in _UNDER_ABILITIES]


def palette_mixes() -> list[tuple[int, int, int]]:
    """Colours that two abilities crossing make over the same (too many to keep exactly: the
    palette's free colours are chosen among them too, tools/pictures.py)."""
    kinds = [(seat_colour(seat), alpha) for seat in range(4) for alpha in (ABILITY_AREA, ABILITY_LINE)]
    return list(dict.fromkeys(_over(base, [first, second]) for first in kinds for second in kinds
                              for base in _UNDER_ABILITIES))


_UNDER_ABILITIES = (CARD, CARD_DIM, BG)


def _over(base: tuple[int, int, int], layers: list[tuple[tuple[int, int, int], int]]) -> tuple[int, int, int]:
    """`base` under translucent layers (colour, opacity), composited as Pillow does."""
    img = Image.new("RGBA", (1, 1), base + (255,))
    for colour, alpha in layers:
        img = Image.alpha_composite(img, Image.new("RGBA", (1, 1), colour + (alpha,)))
    return img.getpixel((0, 0))[:3]


draw_text = text


def name_of(names: Sequence[str], seat: int) -> str:
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
    die(draw, x, y, size, face, body=body, pip=contrast(body), edge=darker(body))


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
        rounded(draw, box, radius=8, fill=colour, outline=darker(colour), width=3)
        inner = (x0 + w * 0.14, y0 + h * 0.14, x1 - w * 0.14, y1 - h * 0.14)
        rounded(draw, inner, radius=6, fill=None, outline=darker(colour, 0.75), width=3)
        # a silhouette: head and shoulders
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        s = min(w, h) * 0.17
        dark = darker(colour, 0.7)
        draw.ellipse([cx - s * 0.6, cy - s * 1.5, cx + s * 0.6, cy - s * 0.3], fill=dark)
        draw.pieslice([cx - s * 1.1, cy - s * 0.1, cx + s * 1.1, cy + s * 2.0], 180, 360, fill=dark)
        return
    # A removed employee keeps a trace of its owner's colour under the cross.
    fill = colour if not removed else removed_fill(colour)
    ink = contrast(fill)
    rounded(draw, box, radius=8, fill=fill, outline=darker(fill), width=3)
    if not label:
        icon = min(w, h) * 0.7
        reach_icon(draw, (x0 + x1) / 2, (y0 + y1) / 2, icon, rank, on=ink, off=darker(fill, 0.8), centre=GOLD)
        return
    label_text = tk(lang, f"rank_short.{rank}")
    lsize = max(SIZE_SMALL, int(h * 0.22))
    icon = min(w * 0.55, h * 0.5)
    reach_icon(draw, (x0 + x1) / 2, y0 + h * 0.08 + icon / 2, icon, rank, on=ink, off=darker(fill, 0.8),
               centre=GOLD if not removed else (160, 160, 160))
    if removed:
        draw.line([x0 + 6, y0 + 6, x1 - 6, y1 - 6], fill=BAD, width=5)
        draw.line([x0 + 6, y1 - 6, x1 - 6, y0 + 6], fill=BAD, width=5)
    draw_text(draw, ((x0 + x1) / 2, y1 - h * 0.06), label_text, lsize, ink, True, "md", stroke_width=2,
              stroke_fill=darker(fill, 0.55))


def property_card(draw: ImageDraw.ImageDraw, box: Sequence[float], faces: Sequence[int], claim: int | None = None,
                  small_faces: bool = False, dim: bool = False) -> None:
    """A property card with its two die faces; a claim puts the claimer's dice on it."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    face_fill = CARD if not dim else CARD_DIM
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

def board_geometry(x: int, y: int, width: int, rows: int, cols: int, max_cell: int = 160) -> tuple[int, int, int]:
    axis = 30
    cell = min(max_cell, (width - axis) // max(cols, 1))
    return x + axis, y + axis, cell


def axes(draw: ImageDraw.ImageDraw, bx: int, by: int, cell: int, rows: int, cols: int) -> None:
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
    bx, by, cell = board_geometry(x, y, width, rows, cols, max_cell)
    axes(draw, bx, by, cell, rows, cols)
    pad = max(4, cell // 24)
    for i, c in enumerate(view["grid"]):
        r, col = divmod(i, cols)
        box = (bx + col * cell + pad, by + r * cell + pad, bx + (col + 1) * cell - pad, by + (r + 1) * cell - pad)
        live_cell(draw, box, c, view.get("me"), mine, lang)
    return by + rows * cell


def live_cell(draw: ImageDraw.ImageDraw, box: Sequence[float], c: dict[str, Any] | None, me: int | None,
              mine: dict[str, str] | None, lang: str) -> None:
    """One place of the grid: a gap, a card (with a claimer's dice), or a card an employee covers
    (the faces shrink to the top, the employee below; face up only for its owner's panel)."""
    if c is None:
        _gap(draw, box)
        return
    emp = c.get("emp")
    if emp is None:
        property_card(draw, box, c["faces"], c.get("claim"))
        return
    property_card(draw, box, c["faces"], None, small_faces=True)
    x0, y0, x1, y1 = box
    h = y1 - y0
    inner = (x0 + (x1 - x0) * 0.16, y0 + h * 0.36, x1 - (x1 - x0) * 0.16, y1 - h * 0.05)
    rank = (mine or {}).get(c["pos"]) if emp["seat"] == me else None
    employee_card(draw, inner, emp["seat"], rank, lang)


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
    bx, by, cell = board_geometry(x, y, width, rows, cols, max_cell)
    axes(draw, bx, by, cell, rows, cols)
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
            od.rounded_rectangle([x0, y0, x1, y1], radius=16, fill=colour + (ABILITY_AREA,),
                                 outline=colour + (ABILITY_EDGE,), width=3)
            od.ellipse([sx - cell * 0.1, sy - cell * 0.1, sx + cell * 0.1, sy + cell * 0.1],
                       fill=colour + (ABILITY_DOT,))
        else:
            # Lines run from the actor to each end of its reach.
            ends = _line_ends(kind, src, rows, cols)
            for e in ends:
                ex, ey = _cell_centre(0, 0, cell, cols, e)
                od.line([sx, sy, ex, ey], fill=colour + (ABILITY_LINE,), width=max(10, cell // 8))
                od.ellipse([ex - cell * 0.1, ey - cell * 0.1, ex + cell * 0.1, ey + cell * 0.1],
                           fill=colour + (ABILITY_DOT,))
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

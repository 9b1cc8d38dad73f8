"""Drawing machinery shared by every title: fonts, the house palette, text that fits, and
encoding. Renderers draw from engine views only (never from a full state), so a picture can
never show what its viewer may not see.

Legible on a phone: Discord shows a picture about 400 px wide on a phone, where text must stay
at least 9 px tall: in a picture W px wide no font is smaller than 9 * W / 400 px (27 px at
1200). Every text is drawn by `text` below, which notes its size for the check
(`render.legible`); the `SIZE_*` scale starts at that floor for 1200-pixel pictures.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from locales import tr
from render import legible, pngband
from render.layout import LAYOUT
from render.legible import floor, floor_px, layer, picture  # noqa: F401 (the renderers' API)
from render.typeset import (  # noqa: F401 (the renderers' API)
    FONT_BOLD,
    FONT_REGULAR,
    ellipsize,
    fit,
    fit_name,
    fit_size,
    fit_wrap,
    font,
    hyphen_points,
    lines_at_most,
    text_width,
    wrap,
)

# Text sizes for a picture 1200 px wide: the smallest is the phone floor there.
SIZE_SMALL = floor_px(1200)
SIZE_BODY = 30
SIZE_LABEL = 33
SIZE_TITLE = 40

# The house palette: a calm dark table with warm accents.
BG = (24, 28, 36)
PANEL = (36, 42, 54)
PANEL_LIGHT = (52, 60, 76)
LINE = (84, 94, 112)
TEXT = (236, 238, 242)
TEXT_DIM = (160, 168, 182)
GOLD = (236, 192, 84)
GOOD = (96, 196, 120)
BAD = (226, 88, 88)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)

# Seat colours (seat 0..5), chosen to stay distinct for colour-blind players against BG.
SEAT_COLOURS = [
    (230, 96, 82),    # red
    (72, 142, 232),   # blue
    (240, 200, 64),   # yellow
    (88, 188, 112),   # green
    (178, 110, 220),  # purple
    (240, 150, 60),   # orange
]


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether the bundled font draws `ch` (else Pillow would draw an empty box)."""
    fnt = font(SIZE_BODY, True)
    return ch.isspace() or bytes(fnt.getmask(ch)) != bytes(fnt.getmask("\ue000"))  # U+E000: no glyph


def drawable(text: str) -> str:
    """`text` without the characters the font cannot draw (emoji in display names, the 🤖 of AI
    seats), with the spaces tidied; Discord's own text shows them, pictures cannot."""
    return " ".join("".join(ch for ch in text if has_glyph(ch)).split())


def picture_names(names: Sequence[str]) -> list[str]:
    """Player names as pictures draw them: drawable, and never empty."""
    return [drawable(name) or f"P{seat + 1}" for seat, name in enumerate(names)]


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    words: str,
    size: int = SIZE_BODY,
    fill=TEXT,
    bold: bool = False,
    anchor: str = "la",
    max_width: float | None = None,
    *,
    shrink: bool = True,
    stroke_width: int = 0,
    stroke_fill=None,
) -> int:
    """The one place text is drawn: `words` at `xy` in the house font, its size noted for the
    phone floor. With `max_width` it shrinks to fit (down to the floor, unless `shrink` is
    False), and past that ends in an ellipsis. Returns the width drawn."""
    fnt = font(size, bold)
    whole = words
    if max_width is not None:
        if shrink:
            fnt = fit(words, int(max_width), size, bold)
        words = ellipsize(words, int(max_width), fnt)
    if not words.strip():
        return 0
    legible.note(fnt.size, words, None if words == whole else whole)
    draw.text(xy, words, font=fnt, fill=fill, anchor=anchor, stroke_width=stroke_width, stroke_fill=stroke_fill)
    return text_width(words, fnt)


#: The name tests/support and older callers know `text` by.
draw_text = text


def is_text_drawer(frame) -> bool:
    """Whether `frame` (a caller of Pillow's text drawing) is `text` (for the floor test)."""
    return frame.f_code is text.__code__


def rounded(draw: ImageDraw.ImageDraw, box: Sequence[float], radius: int = 12, fill=PANEL, outline=None, width: int = 2) -> None:
    draw.rounded_rectangle(list(box), radius=radius, fill=fill, outline=outline, width=width)


def chip(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, fill, outline=BG, width: int = 2) -> None:
    x, y = centre
    draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=fill, outline=outline, width=width)


def canvas(width: int, height: int, colour=BG) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), colour)
    return img, ImageDraw.Draw(img)


def header(draw: ImageDraw.ImageDraw, width: int, title: str, subtitle: str = "") -> int:
    """A title bar across the top; returns the y where content may start."""
    draw.rectangle([0, 0, width, 64], fill=PANEL)
    draw_text(draw, (24, 32), title, SIZE_TITLE - 6, GOLD, bold=True, anchor="lm", max_width=width // 2)
    if subtitle:
        draw_text(draw, (width - 24, 32), subtitle, SIZE_BODY, TEXT_DIM, anchor="rm", max_width=width // 2 - 40)
    return 80


def png(img: Image.Image) -> bytes:
    """Encode for Discord. A table (assembled by `render.compose`, in its title's palette) goes
    through `render.pngband`: rows compressed band by band, bands seen in an earlier picture
    taken from its cache. Anything else (a panel, in a palette of its own colours, drawn a
    fresh each time) at Pillow's level 3: much faster than the default 6, and only a little
    larger."""
    if img.mode == "P" and img.info.get(pngband.SHEET) is not None:
        return pngband.encode(img, tuple(img.info[pngband.SHEET]), img.info.get(LAYOUT))
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def t(lang: str, key: str, **params) -> str:
    """Catalogue lookup for renderers (the picture follows the game's language)."""
    return tr(lang, key, **params)

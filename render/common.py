"""Drawing machinery shared by every title: fonts, the house palette, text that fits, and
encoding. Renderers draw from engine views only (never from a full state), so a picture can
never show what its viewer may not see.

Layout rule of thumb for phones: Discord shows an embedded image about 400-550 px wide on a
phone, so a 1200 px wide picture is scaled by ~0.4; text smaller than ~22 px at 1200 px wide
becomes unreadable. Use `SIZE_*` below.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

import budoux
from PIL import Image, ImageDraw, ImageFont

from locales import tr
from render.textcache import CachedFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_REGULAR = FONT_DIR / "NotoSansJP-Regular.otf"
FONT_BOLD = FONT_DIR / "NotoSansJP-Bold.otf"

# Text sizes for a picture about 1200 px wide (see the module note on phones).
SIZE_SMALL = 22
SIZE_BODY = 26
SIZE_LABEL = 30
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


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled Noto Sans CJK JP at `size` px (covers Latin, kana and JIS kanji). Text drawn
    with it is cached as bitmaps (`render.textcache`): most strings recur picture after picture."""
    return CachedFont(str(FONT_BOLD if bold else FONT_REGULAR), size)


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


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    return int(fnt.getlength(text))


def fit(text: str, width: int, size: int, bold: bool = False, min_size: int = 14) -> ImageFont.FreeTypeFont:
    """The largest font from `size` down to `min_size` in which `text` fits `width`."""
    s = size
    while s > min_size and text_width(text, font(s, bold)) > width:
        s -= 1
    return font(s, bold)


def ellipsize(text: str, width: int, fnt: ImageFont.FreeTypeFont) -> str:
    """`text` cut to `width` with an ellipsis (player names can be long)."""
    if text_width(text, fnt) <= width:
        return text
    while text and text_width(text + "…", fnt) > width:
        text = text[:-1]
    return text + "…"


# Japanese and Chinese script (kana, kanji, full-width forms): where BudouX finds the phrases.
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
# A katakana word (with its long-vowel marks), or a run of anything else.
_SCRIPT_RUNS = re.compile(r"[ァ-ヺー]+・?|[^ァ-ヺー]+")
# Punctuation that may hang past the margin at a line's end (ぶら下げ), as Japanese typesetting allows.
_HANGING = "・、。，．"
# What may not start a line when a word must be cut (small kana, long-vowel mark, closing marks).
_NO_LINE_START = set("ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・、。，．）」』】：；？！)]:;,.!?%")


@lru_cache(maxsize=1)
def _japanese_phrases() -> budoux.Parser:
    return budoux.load_default_japanese_parser()


def _japanese_pieces(word: str) -> list[str]:
    """BudouX's phrases, with a middle dot kept at the end of the word before it (BudouX may put
    it first in the next phrase) and a line break allowed after it ("アワアワ・" "コイン…")."""
    out: list[str] = []
    for phrase in _japanese_phrases().parse(word):
        while phrase.startswith("・") and out:
            out[-1] += "・"
            phrase = phrase[1:]
        out += [part for part in re.split(r"(?<=・)", phrase) if part]
    return out


def _pieces(para: str) -> list[tuple[str, str]]:
    """(separator, piece) pairs a line may break before: words, the parts of hyphenated words
    ("Diamond-" "Studded"), and Japanese phrases. BudouX splits Japanese into phrases the way a
    typesetter would, so a katakana name never breaks mid-word and no line starts with 。 or a
    small kana, without hand-written kinsoku rules."""
    out: list[tuple[str, str]] = []
    for i, word in enumerate(para.split(" ")):
        parts = _japanese_pieces(word) if _CJK.search(word) else re.findall(r"[^-]+-(?=.)|.+", word)
        for j, part in enumerate(parts or [""]):
            out.append((" " if i and not j else "", part))
    return out


def _fits(text: str, width: int, fnt: ImageFont.FreeTypeFont) -> bool:
    return text_width(text.rstrip(_HANGING), fnt) <= width


def _cut(line: str, width: int, fnt: ImageFont.FreeTypeFont) -> int:
    """Where to cut a word wider than the line: as much as fits, but never before a character
    that may not start a line."""
    cut = max((k for k in range(1, len(line)) if text_width(line[:k], fnt) <= width), default=1)
    while cut > 1 and line[cut] in _NO_LINE_START:
        cut -= 1
    return cut


def wrap(text: str, width: int, fnt: ImageFont.FreeTypeFont) -> list[str]:
    """Greedy line wrap in any of our languages (see `_pieces` for where lines may break). A
    phrase wider than the line breaks where its script changes ("ナンバークランチャー" "税務相談所"),
    and only a single word wider than the line is cut between characters."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for sep, piece in _pieces(para):
            parts = [piece] if _fits(piece, width, fnt) else _SCRIPT_RUNS.findall(piece)
            for k, part in enumerate(parts):
                trial = line + (sep if k == 0 else "") + part if line else part
                if line and not _fits(trial, width, fnt):
                    lines.append(line)
                    line = part
                else:
                    line = trial
                while len(line) > 1 and not _fits(line, width, fnt):
                    cut = _cut(line, width, fnt)
                    lines.append(line[:cut])
                    line = line[cut:]
        lines.append(line)
    return lines


def fit_wrap(text: str, width: int, size: int, most: int, *, bold: bool = False,
             min_size: int = SIZE_SMALL - 2) -> tuple[int, list[str]]:
    """A name wrapped in at most `most` lines at the largest size from `size` down to `min_size`
    at which no word has to be cut ("コインランドリー" whole rather than "コインランド" "リー");
    at `min_size`, what does not fit ends in an ellipsis."""
    words = [run for _sep, piece in _pieces(text.replace("\n", " ")) for run in _SCRIPT_RUNS.findall(piece) or [piece]]
    for s in range(size, min_size - 1, -1):
        fnt = font(s, bold)
        lines = wrap(text, width, fnt)
        if len(lines) <= most and all(_fits(w, width, fnt) for w in words):
            return s, lines
    fnt = font(min_size, bold)
    lines = wrap(text, width, fnt)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = ellipsize(lines[-1] + "…", width, fnt)
    return min_size, lines


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int = SIZE_BODY,
    fill=TEXT,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
) -> None:
    """Text at `xy`; with `max_width`, shrunk (then cut) to fit."""
    fnt = font(size, bold)
    if max_width is not None:
        fnt = fit(text, max_width, size, bold)
        text = ellipsize(text, max_width, fnt)
    draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)


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


def player_strip(
    draw: ImageDraw.ImageDraw,
    box: Sequence[int],
    names: Sequence[str],
    lines: Sequence[Iterable[str]],
    active: Iterable[int] = (),
    colours: Sequence[tuple[int, int, int]] | None = None,
) -> None:
    """One card per seat across `box`: colour chip, name, then a few short lines each."""
    x0, y0, x1, y1 = box
    n = max(1, len(names))
    gap = 12
    w = (x1 - x0 - gap * (n - 1)) / n
    active = set(active)
    for i, name in enumerate(names):
        left = x0 + i * (w + gap)
        colour = (colours or SEAT_COLOURS)[i % len(colours or SEAT_COLOURS)]
        rounded(draw, (left, y0, left + w, y1), fill=PANEL, outline=GOLD if i in active else LINE, width=4 if i in active else 2)
        chip(draw, (left + 24, y0 + 28), 12, colour)
        draw_text(draw, (left + 44, y0 + 28), name, SIZE_BODY, TEXT, bold=True, anchor="lm", max_width=int(w - 56))
        y = y0 + 58
        for line in lines[i] if i < len(lines) else ():
            draw_text(draw, (left + 16, y), line, SIZE_SMALL, TEXT_DIM, max_width=int(w - 28))
            y += SIZE_SMALL + 8


def png(img: Image.Image) -> bytes:
    """Encode for Discord. Level 3 is much faster than the default 6 and only a little
    larger on these flat-colour pictures; palette quantising would band the gradients."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def t(lang: str, key: str, **params) -> str:
    """Catalogue lookup for renderers (the picture follows the game's language)."""
    return tr(lang, key, **params)

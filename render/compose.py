"""Table pictures assembled from parts, in palette mode.

A table picture is drawn move after move, and most of it is what it was the move before: the
board's spaces, the price table, the seats that did not act. So a table is cut into parts (a
header, a tile, a seat's card), each drawn by a function of plain data only (the slice of the
view it shows, names, the language) that returns an RGB image. A part is drawn once per
distinct data, turned into palette indices once, and kept (`part`); the picture is a `Sheet`
the parts are pasted onto, still in palette indices. Turning RGB into indices cost as much as
drawing the whole picture; now only new parts pay it, and `render.pngband` encodes unchanged
rows from its own cache.

A part is kept under the repr of its arguments and drawn from a JSON copy of them: a part
function can only depend on plain data its key holds, so a kept part can never be stale. Parts are kept most recently used
first, PART_BYTES of them for all titles (a process draws many games' tables in turn); a part
is 1 byte a pixel. The texts a kept part drew count again in every picture it goes on (the
phone floor's check, `render.legible`).

Every part of a title is mapped onto one fixed palette (render/palettes/<title>.pal, 256
colours chosen from the title's pictures by `python tools/pictures.py --palettes`), so parts
drawn at different times fit together. tests/render/test_palettes.py checks that the palette
still covers what the title draws (a new colour makes it fail: run the tool again).
"""

from __future__ import annotations

import functools
import itertools
import json
import threading
from collections import Counter, OrderedDict
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from PIL import Image, ImageDraw

from render import legible, pngband
from render.layout import LAYOUT, Layout

PALETTE_DIR = Path(__file__).resolve().parent / "palettes"
#: Draw parts and sheets in RGB, unquantised (set through `raw()`, to choose palettes).
RAW = False
#: Colours a palette keeps exactly (the rest approximate the edges of text).
EXACT = 128
#: Pixels of parts drawn (not taken from the cache), by part (the benchmarks read it).
DRAWN: Counter[str] = Counter()


@functools.lru_cache(maxsize=8)
def palette(title: str) -> Image.Image:
    """A 1x1 palette image holding the title's 256 colours (for `Image.quantize`)."""
    img = Image.new("P", (1, 1))
    img.putpalette((PALETTE_DIR / f"{title}.pal").read_bytes())
    return img


@functools.lru_cache(maxsize=256)
def index_of(title: str, colour: tuple[int, int, int]) -> int:
    """The palette index `colour` is drawn with in the title's pictures."""
    return quantize(Image.new("RGB", (1, 1), colour), title).getpixel((0, 0))


def quantize(img: Image.Image, title: str) -> Image.Image:
    """`img` in the title's palette (nearest colour, no dithering: flat areas stay flat)."""
    if RAW:
        return img.convert("RGB")
    return img.convert("RGB").quantize(palette=palette(title), dither=Image.Dither.NONE)


def _key(args: tuple) -> str:
    """The arguments' repr: for plain data (dicts, lists, strings, numbers, None) equal reprs
    mean equal data, and it is three times quicker to make than JSON."""
    return repr(args)


#: Parts kept, in bytes of palette indices (a part's pixels), all titles together.
PART_BYTES = 48 << 20
#: Where a kept part holds its token (in `Image.info`): one number per drawing of a part, never
#: given again in the process, by which `render.pngband` knows the rows it covers.
TOKEN = "boardroom-part"
_tokens = itertools.count(1)
_kept: OrderedDict[tuple, tuple[Image.Image, tuple, tuple]] = OrderedDict()
_kept_bytes = 0
_lock = threading.Lock()


def part(title: str) -> Callable:
    """Decorate a function of JSON data returning an RGB image: it is drawn once per distinct
    arguments (and phone floor) while it is kept, and handed out in the title's palette. The
    parts kept are the most recently used, PART_BYTES of them."""

    def wrap(fn: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
        name = f"{fn.__module__}.{fn.__qualname__}"

        @functools.wraps(fn)
        def get(*args: Any) -> Image.Image:
            global _kept_bytes
            floor_, key = legible.floor(), _key(args)
            with _lock:  # pictures may be drawn in several threads of one process
                hit = _kept.get((name, floor_, key))
                if hit is not None:
                    _kept.move_to_end((name, floor_, key))
            if hit is not None:
                legible.replay(hit[1], hit[2])
                return hit[0]
            fresh = json.loads(json.dumps(args))  # a copy of plain data: nothing else reaches the part
            img, texts, cut = legible.recorded(floor_, lambda: quantize(fn(*fresh), title))
            img.info[TOKEN] = next(_tokens)
            with _lock:
                DRAWN[fn.__qualname__] += img.width * img.height
                if (name, floor_, key) not in _kept:
                    _kept[(name, floor_, key)] = (img, texts, cut)
                    _kept_bytes += img.width * img.height
                while _kept_bytes > PART_BYTES and len(_kept) > 1:
                    old, _texts, _cut = _kept.popitem(last=False)[1]
                    _kept_bytes -= old.width * old.height
            legible.replay(texts, cut)
            return img

        return get

    return wrap


def forget() -> None:
    """Drop every part kept."""
    global _kept_bytes
    with _lock:
        _kept.clear()
        _kept_bytes = 0


class Sheet:
    """A picture in the title's palette, made of pasted parts."""

    def __init__(self, title: str, width: int, height: int, colour: tuple[int, int, int],
                 band: int = pngband.BAND) -> None:
        self.title = title
        # rows where parts meet: the PNG's bands start there (`render.pngband`), so a part drawn
        # again costs the rows it covers, not its neighbours' too
        self.edges: set[int] = set()
        if RAW:
            self.img = Image.new("RGB", (width, height), colour)
            self.layout = None
        else:
            background = index_of(title, colour)
            self.img = Image.new("P", (width, height), background)
            self.img.putpalette(palette(title).getpalette())
            self.img.info[pngband.SHEET] = self.edges
            # how the picture is made, for its PNG's band keys: it changes only through the
            # methods below, which note what they do there
            self.layout = Layout(self.img, background, band)
            self.img.info[LAYOUT] = self.layout

    def paste(self, piece: Image.Image, xy: tuple[float, float]) -> None:
        x, y = int(xy[0]), int(xy[1])
        self.img.paste(piece, (x, y))
        self.edges.update((y, y + piece.height))
        if self.layout is not None:
            self.layout.paste(piece.info.get(TOKEN), x, y, piece.height)

    def frame(self, box: tuple[float, float, float, float], colour: tuple[int, int, int], width: int,
              radius: int) -> None:
        """A rounded outline around pasted parts (Pillow draws shapes without anti-aliasing, so a
        palette index draws the same pixels as the colour would)."""
        ink = colour if RAW else index_of(self.title, colour)
        ImageDraw.Draw(self.img).rounded_rectangle(box, radius=radius, outline=ink, width=width)
        if self.layout is not None:
            self.layout.shape(box[1], box[3], ("frame", tuple(box), ink, width, radius))

    def line(self, xy: tuple[float, float, float, float], colour: tuple[int, int, int], width: int) -> None:
        ink = colour if RAW else index_of(self.title, colour)
        ImageDraw.Draw(self.img).line(xy, fill=ink, width=width)
        if self.layout is not None:  # a wide line's ends reach past its points
            self.layout.shape(min(xy[1], xy[3]) - width, max(xy[1], xy[3]) + width, ("line", tuple(xy), ink, width))

    def rgb(self) -> Image.Image:
        return self.img.convert("RGB")


def module_colours(*modules: Any) -> list[tuple[int, int, int]]:
    """The RGB colours named in these modules' globals (constants, lists and dicts of them)."""
    found: list[tuple[int, int, int]] = []

    def add(value: Any) -> None:
        if isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, int) and 0 <= v < 256 for v in value):
            if value not in found:
                found.append(value)
        elif isinstance(value, (list, tuple)):
            for v in value:
                add(v)
        elif isinstance(value, dict):
            for v in value.values():
                add(v)

    for module in modules:
        for name, value in vars(module).items():
            if not name.startswith("__"):
                add(value)
    return found


def _title_modules(title: str) -> list[Any]:
    """render.common, render.<title>*, engine.<title>.data."""
    import importlib
    import sys

    importlib.import_module(f"render.{title}")
    return [sys.modules[name] for name in sorted(sys.modules) if name == "render.common"
            or name == f"render.{title}" or name.startswith(f"render.{title}_") or name == f"engine.{title}.data"]


def named_colours(title: str) -> list[tuple[int, int, int]]:
    """The colours a title's renderers name: constants in render.common, render.<title>*,
    engine.<title>.data, and those its modules work out (their `palette_colours()`)."""
    modules = _title_modules(title)
    worked_out = [c for m in modules if hasattr(m, "palette_colours") for c in m.palette_colours()]
    return list(dict.fromkeys(module_colours(*modules) + worked_out))


def mixed_colours(title: str) -> list[tuple[int, int, int]]:
    """Colours a title's renderers may mix (translucent layers crossing) that seeded games show
    too seldom to choose a palette from them alone: their modules' `palette_mixes()`."""
    return list(dict.fromkeys(c for m in _title_modules(title) if hasattr(m, "palette_mixes") for c in m.palette_mixes()))


def swatch(colours: list[tuple[int, int, int]], each: int = 64) -> Image.Image:
    """A picture of `colours`, each covering `each` pixels (choose_palette's weight cap: as much
    as any colour of the real pictures that is not kept exactly)."""
    img = Image.new("RGB", (max(1, len(colours) * each), 1))
    img.putdata([c for c in colours for _ in range(each)])
    return img


def choose_palette(pictures: list[Image.Image], must: list[tuple[int, int, int]] = (),
                   exact: int = EXACT) -> bytes:
    """256 colours for a title's pictures (RGB): the colours it names (`must`) and those that
    cover the most of the pictures, `exact` in all, as they are (flat areas stay exactly their
    colour), and the rest chosen by median cut among the other colours (mostly the edges of
    text), each weighed by how much of the pictures it covers (capped, so no edge colour crowds
    out the others)."""
    counts: Counter[tuple[int, int, int]] = Counter()
    for img in pictures:
        for n, colour in img.convert("RGB").getcolors(1 << 24) or []:
            counts[colour] += n
    top = list(dict.fromkeys(list(must)[:exact]))
    top += [colour for colour, _n in counts.most_common(exact) if colour not in top][:exact - len(top)]
    chosen = set(top)
    rest = [(colour, min(n, 64)) for colour, n in counts.items() if colour not in chosen]
    if rest:
        pixels = [colour for colour, n in rest for _ in range(n)]
        swatch = Image.new("RGB", (len(pixels), 1))
        swatch.putdata(pixels)
        cut = swatch.quantize(256 - len(top), method=Image.Quantize.MEDIANCUT).getpalette()[:3 * (256 - len(top))]
        top += [tuple(cut[i:i + 3]) for i in range(0, len(cut), 3)]
    top += [(0, 0, 0)] * (256 - len(top))
    return bytes(v for colour in top[:256] for v in colour)


@contextmanager
def raw() -> Iterator[None]:
    """Parts and sheets in RGB inside the block (fresh caches on the way in and out)."""
    global RAW
    forget()
    RAW = True
    try:
        yield
    finally:
        RAW = False
        forget()
        index_of.cache_clear()

"""How a table picture was put together, so that its PNG's bands can be known without reading them.

`render.compose.Sheet` notes here everything it does to its picture, in order: the background
index, each kept part pasted (by the token it was kept under, `render.compose.TOKEN`) and each
shape drawn. A band of rows is then known by what covers it: the background, each part crossing
it with where it sits relative to the band's top, and each shape crossing it with the band's
own place (shapes are drawn from coordinates that may be fractions, and rounding may differ
from one place to another, so a shape is only ever the same at the same place). Equal keys are
equal pixels: a kept part never changes after it is drawn, a token names one drawing of one
part and is never given again in the process, and pasting copies whole pixels. A band crossed
by anything that is not a kept part has no key (`render.pngband` reads it and keys it by its
content).

A layout describes one picture object: a copy of it (`Image.copy`, `resize`, a picture sent to
another process) shares `Image.info` but not the layout, and is keyed by its content.
"""

from __future__ import annotations

import weakref
from bisect import bisect_right
from typing import Hashable

from PIL import Image

#: Where a sheet's picture holds its layout (in `Image.info`).
LAYOUT = "boardroom-layout"


def _nothing() -> None:
    return None


class Layout:
    """What was put on a picture in palette indices, in order, with the rows each thing covers."""

    def __init__(self, img: Image.Image, background: int, band: int) -> None:
        self.picture = weakref.ref(img)
        self.background = background
        self.band = band  # the PNG's band height (render.pngband)
        self.items: list[tuple[int, int, Hashable | None, int, bool]] = []  # (top, bottom, what, x, is a part)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "picture": None}

    def __setstate__(self, state: dict) -> None:  # unpickled: a copy, describing no picture here
        self.__dict__.update(state)
        self.picture = _nothing

    def describes(self, img: Image.Image) -> bool:
        return self.picture() is img

    def paste(self, token: Hashable | None, x: int, y: int, height: int) -> None:
        """A kept part (`token`; None: anything else) pasted with its top left corner at (x, y)."""
        self.items.append((y, y + height, token, x, True))

    def shape(self, top: float, bottom: float, what: Hashable) -> None:
        """A shape drawn over rows `top` to `bottom` (inclusive); `what`: all that decides its pixels."""
        self.items.append((int(top) - 1, int(bottom) + 2, what, 0, False))

    def keys(self, width: int, starts: list[int], height: int) -> list[Hashable | None]:
        """The key of each band (the bands start at `starts`), None where a band has none."""
        covers: list[list | None] = [[] for _ in starts]
        for top, bottom, what, x, is_part in self.items:
            first = max(0, bisect_right(starts, top) - 1)
            for i in range(first, bisect_right(starts, bottom - 1)):
                cover = covers[i]
                if what is None:
                    covers[i] = None
                elif cover is not None:
                    cover.append((what, x, top - starts[i]) if is_part else (what, starts[i]))
        ends = starts[1:] + [height]
        return [None if cover is None else ("layout", width, end - start, self.background, tuple(cover))
                for start, end, cover in zip(starts, ends, covers)]


def weight(key: Hashable) -> int:
    """About the bytes a band's key holds (a tuple, and a small tuple of numbers per thing on it)."""
    return 120 + 160 * len(key[-1]) if isinstance(key, tuple) and key and key[0] == "layout" else 120

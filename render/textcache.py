"""Fonts that remember the text they drew. FreeType rasterises every glyph of every string on
every draw (about 30 µs a glyph with the bundled CFF font), and a table picture draws a hundred
strings or more, most of them the same as in the previous picture (names, labels, card names,
amounts): drawing text was about half of a table picture's time.

`CachedFont` keeps the rendered mask of a string (and its measured length) in a shared LRU, so a
string drawn again is a bitmap blit. The mask depends only on the font, the text, the layout
arguments and the fractional start position, all of which are in the key; masks are never
written to after rendering (colour fonts, whose masks Pillow edits, are not cached). Typical
masks are ~3 KB: the cache stays around 10 MB at most.

The text's colour (`ink`) is not in the key: FreeType uses it only for colour fonts (mode
RGBA, not cached); any other mask is the glyphs' coverage, which `ImageDraw` then fills with
the colour. A table draws the same numbers and names in each seat's colours."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import ImageFont

MASKS = 4096
LENGTHS = 16384


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(value)
    return value


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeTypeFont whose `getmask2` and `getlength` answers are cached."""

    def getmask2(self, text, mode="", direction=None, features=None, language=None, stroke_width=0, anchor=None,
                 ink=0, start=None, *args, **kwargs):
        if mode == "RGBA" or args or not isinstance(text, str):
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                    *args, **kwargs)
        key = (text, mode, direction, _hashable(features), language, stroke_width, anchor, 0, start,
               tuple(sorted((k, _hashable(v)) for k, v in kwargs.items())))
        return _mask(self, key)

    def _render(self, key: tuple):
        text, mode, direction, features, language, stroke_width, anchor, ink, start, kwargs = key
        return super().getmask2(text, mode, direction, list(features) if features else features, language,
                                stroke_width, anchor, ink, start, **dict(kwargs))

    def getlength(self, text, mode="", direction=None, features=None, language=None) -> float:
        return _length(self, text, mode, direction, _hashable(features), language)


@lru_cache(maxsize=MASKS)
def _mask(font: CachedFont, key: tuple):
    return font._render(key)


@lru_cache(maxsize=LENGTHS)
def _length(font: CachedFont, text, mode, direction, features, language) -> float:
    return ImageFont.FreeTypeFont.getlength(font, text, mode, direction, list(features) if features else features,
                                            language)

"""Text drawn again in another colour comes from the text cache (render/textcache.py): a mask is
the glyphs' coverage whatever the colour (FreeType uses the colour only for colour fonts), so a
table that draws the same number in each seat's colour renders it once, and draws the same
pixels as FreeType does in every colour."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw, ImageFont

from render.common import FONT_BOLD, font
from render.textcache import _mask

COLOURS = [(230, 96, 82), (72, 142, 232), (240, 200, 64), (88, 188, 112), (178, 110, 220), (240, 150, 60)]


def _draw(fnt, text: str, fill) -> Image.Image:
    img = Image.new("RGB", (300, 60), (24, 28, 36))
    ImageDraw.Draw(img).text((10.5, 30), text, font=fnt, fill=fill, anchor="lm")
    return img


def test_a_text_in_six_colours_is_rendered_once_and_drawn_as_freetype_draws_it():
    fnt = font(31, True)
    plain = ImageFont.truetype(str(FONT_BOLD), 31)
    text = "Slot 7 · $12"
    _draw(fnt, text, COLOURS[0])
    misses = _mask.cache_info().misses
    for colour in COLOURS:
        got = _draw(fnt, text, colour)
        assert ImageChops.difference(got, _draw(plain, text, colour)).getbbox() is None, colour
    assert _mask.cache_info().misses == misses

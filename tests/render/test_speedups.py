"""The drawing speed-ups change no picture: cached text draws the same pixels as FreeType does,
and the sampled palette keeps a picture as close to its colours as a full quantise does."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageStat

from engine.filthyrich import GAME as FILTHY
from engine.imtheboss import GAME as BOSS
from render import compose, filthyrich, imtheboss
from render.common import FONT_BOLD, FONT_REGULAR, font
from render.palette import flat
from render.textcache import CachedFont, _mask

TEXTS = ["Player 3", "$42 · Luxury 2", "今日は社長です", "ゲーム終了、おめでとう！", "Ünïcödé (x2)", ""]


def _draw(fnt, text: str, xy, anchor: str | None, fill) -> Image.Image:
    img = Image.new("RGB", (420, 80), (24, 28, 36))
    ImageDraw.Draw(img).text(xy, text, font=fnt, fill=fill, anchor=anchor)
    return img


def test_cached_font_draws_the_same_pixels_and_lengths():
    for path, size in ((FONT_REGULAR, 22), (FONT_BOLD, 30)):
        plain = ImageFont.truetype(str(path), size)
        cached = CachedFont(str(path), size)
        for text in TEXTS:
            assert cached.getlength(text) == plain.getlength(text)
            assert cached.getbbox(text, anchor="lm") == plain.getbbox(text, anchor="lm")
            for xy, anchor in (((10, 10), None), ((200.5, 40.25), "mm"), ((410, 40), "rm"), ((12.75, 70), "ls")):
                for fill in ((236, 238, 242), (236, 192, 84)):
                    want = _draw(plain, text, xy, anchor, fill)
                    for _ in range(2):  # the first draw fills the cache, the second comes from it
                        got = _draw(cached, text, xy, anchor, fill)
                        assert ImageChops.difference(want, got).getbbox() is None, (text, xy, anchor)


def test_text_drawn_again_comes_from_the_cache():
    fnt = font(26)
    _draw(fnt, "cache me", (10, 10), None, (255, 255, 255))
    before = _mask.cache_info().hits
    _draw(fnt, "cache me", (10, 10), None, (255, 255, 255))
    assert _mask.cache_info().hits == before + 1


def test_sampled_palette_is_as_faithful_as_a_full_quantise():
    for renderer, game, n in ((filthyrich, FILTHY, 5), (imtheboss, BOSS, 6)):
        state = game.setup(n, 3, {})
        names = [f"Player {i + 1}" for i in range(n)]
        with compose.raw():  # the table as drawn, before its palette
            rgb = renderer.table_image(game.view(state, None), names, "ja")
        full = rgb.quantize(256, method=Image.Quantize.FASTOCTREE)
        fast = flat(rgb)
        assert fast.mode == "P" and fast.size == rgb.size
        assert len(fast.getcolors(256) or []) <= 256

        def error(img, rgb=rgb):
            return sum(ImageStat.Stat(ImageChops.difference(rgb, img.convert("RGB"))).mean) / 3

        # Mean error per channel out of 255 (a full quantise: 0.1 to 1.2 on these tables).
        assert error(fast) <= error(full) * 1.25 + 0.15, renderer.__name__


def test_flat_handles_tiny_and_non_rgb_pictures():
    tiny = Image.new("RGBA", (5, 3), (200, 10, 10, 255))
    out = flat(tiny)
    assert out.mode == "P" and out.size == (5, 3)
    assert out.convert("RGB").getpixel((2, 1)) == (200, 10, 10)

"""I'm the Boss! pictures at phone width (issues 15 and 28): Discord shows the 1200-pixel table
about 400 pixels wide on a phone, so what a player must read there (the clans on each space,
the deal's lines) is drawn at the phone floor or larger (tests/render/test_legible.py checks
every text); here, that the clans' marks also fit inside their squares, in every language."""

from __future__ import annotations

from engine.imtheboss.data import CLANS, SPACES
from render import imtheboss as R
from render.common import SIZE_SMALL, font, text_width
from render.imtheboss_parts import SQ, _mark_font, initial, row_heights, tile_base, tile_box

PHONE = 400


def test_every_clan_mark_fits_its_square_at_the_floor():
    for lang in ("en", "ja", "es"):
        for clan in CLANS:
            mark = initial(lang, clan)
            size, bold = _mark_font(mark, SQ)
            assert size >= SIZE_SMALL
            assert text_width(mark, font(size, bold)) <= SQ - 4, (lang, clan, mark)


def test_every_space_shows_all_its_clans_as_full_squares_inside_its_tile():
    heights = row_heights()
    for space, sp in enumerate(SPACES):
        x0, y0, x1, y1 = tile_box(space, 0)
        _img, squares = tile_base(space, None, "es", y1 - y0)
        wanted = list(sp["req"]) + [c for pool, _k in sp["pools"] for c in pool]
        assert sorted(c for c, *_ in squares) == sorted(wanted)
        for _c, x, y, size in squares:
            assert size == SQ and size * PHONE / R.W >= 15  # 15 px squares on a phone
            assert 0 <= x and x + size <= x1 - x0 and y + size <= y1 - y0, (space, x, y)
    assert max(heights) < 1.5 * min(heights)


def test_the_deal_is_written_large_enough_for_a_phone():
    assert R.DEAL_SMALL * PHONE / R.W >= 10
    assert R.DEAL_BODY > R.DEAL_SMALL and R.DEAL_TITLE >= R.DEAL_BODY

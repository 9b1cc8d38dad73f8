"""I'm the Boss! pictures at phone width (issue 15): Discord shows the 1200-pixel table about 400
pixels wide on a phone, so what a player must read there (the clans on each space, the deal's
lines) is drawn large enough to stay at least ~10 pixels high at a third of its size."""

from __future__ import annotations

from render import imtheboss as R
from render.imtheboss_parts import W, tile_base

PHONE = 400


def test_clan_squares_on_every_space_stay_readable_on_a_phone():
    smallest = {sp: min(sq[3] for sq in tile_base(sp, None, "ja")[1]) for sp in range(16)}
    assert all(size * PHONE / W >= 9 for size in smallest.values()), smallest
    # most spaces keep their pool squares at 36 pixels or more (12 on a phone)
    assert sum(1 for size in smallest.values() if size >= 36) >= 12, smallest


def test_the_deal_is_written_large_enough_for_a_phone():
    assert R.DEAL_SMALL * PHONE / W >= 10
    assert R.DEAL_BODY > R.DEAL_SMALL and R.DEAL_TITLE >= R.DEAL_BODY

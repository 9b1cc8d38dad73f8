"""A rating's history as a small line chart (`/game stats`): the rating after each rated game,
oldest left. Drawn from numbers only; the text goes through `render.common.text`, so it keeps
the phone-legibility floor like every picture, and `@picture` checks it there."""

from __future__ import annotations

from PIL import Image

from render.common import BG, GOLD, LINE, PANEL, SIZE_SMALL, TEXT, TEXT_DIM, canvas, picture, text

WIDTH, HEIGHT = 900, 360
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 140, 40, 70, 40


@picture(WIDTH)
def rating_chart(points: list[int], title: str) -> Image.Image:
    """`points`: the rating before the first rated game, then after each one."""
    img, draw = canvas(WIDTH, HEIGHT, BG)
    draw.rectangle([0, 0, WIDTH, 56], fill=PANEL)
    text(draw, (24, 28), title, SIZE_SMALL + 4, GOLD, bold=True, anchor="lm", max_width=WIDTH - 48)
    lo, hi = min(points), max(points)
    if hi - lo < 20:  # a flat line still reads as one, in the middle
        lo, hi = lo - 10, hi + 10
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM

    def y(value: int) -> float:
        return bottom - (value - lo) * (bottom - top) / (hi - lo)

    for value in (lo, (lo + hi) // 2, hi):
        draw.line([left, y(value), right, y(value)], fill=LINE, width=1)
        text(draw, (left - 12, y(value)), f"{value:,}", SIZE_SMALL, TEXT_DIM, anchor="rm")
    step = (right - left) / max(1, len(points) - 1)
    line = [(left + i * step, y(p)) for i, p in enumerate(points)]
    if len(line) > 1:
        draw.line(line, fill=GOLD, width=5, joint="curve")
    for x, yy in line[-1:]:
        draw.ellipse([x - 8, yy - 8, x + 8, yy + 8], fill=TEXT)
    return img

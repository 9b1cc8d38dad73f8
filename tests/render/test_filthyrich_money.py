"""A Filthy Rich row's money is a part of its own (render/filthyrich_side.py), so money changing
draws a small part again, not the row's whole first line; the line it makes with the rest of the
first line is the line drawn whole (the frame, the money, then the name, pips and tags), pixel
for pixel, whatever the row's height: rich and poor, out of the game, at the table and in the
results (places), every luxury tag on the line, in English and Japanese."""

from __future__ import annotations

from PIL import ImageChops

from render import compose
from render.common import GOLD, SIZE_TITLE, TEXT_DIM, canvas, draw_text
from render.filthyrich_side import (
    MONEY_AT,
    ROW_CUT,
    W,
    _money,
    _money_box,
    MONEY_ROW_H,
    _money_part,
    _name_line,
    _row_frame,
    _row_top_part,
    _tags_x,
)

LUXURIES = [[], ["racehorse"], ["personal_trainer", "space_shuttle"], ["entourage", "mega_yacht", "private_island"]]
NAMES = ["Ann", "Bob the Builder with a very long name", "千代子"]


def _whole(seat: dict, name: str, place: int | None, frame: list, lang: str):
    """The first line as one drawing, in the order it was drawn before the money was a part."""
    img, draw = canvas(W, ROW_CUT)
    _row_frame(draw, frame, 0)
    draw_text(draw, MONEY_AT, _money(seat), SIZE_TITLE, GOLD if seat["alive"] else TEXT_DIM, bold=True, anchor="ra")
    _name_line(draw, seat, name, place, _tags_x(seat, name, place, lang) is not None, lang)
    return img


def test_the_money_part_over_the_rest_of_the_line_is_the_line_drawn_whole():
    checked = 0
    with compose.raw():  # parts in RGB: compared with the line drawn whole, before any palette
        for money in (0, 7, 42, 137, 1234):
            for luxuries in LUXURIES:
                for alive, active, place in ((True, False, None), (True, True, None), (False, False, None),
                                             (True, False, 1), (False, False, 3)):
                    for s, name in enumerate(NAMES):
                        lang = ("en", "ja")[(money + s) % 2]
                        seat = {"alive": alive, "money": money, "luxuries": luxuries}
                        frame = [s, alive, active, (102, 180, 282)[(money + s) % 3]]
                        tags_fit = _tags_x(seat, name, place, lang) is not None
                        line = _row_top_part({"alive": alive, "luxuries": luxuries}, name, place, tags_fit, frame,
                                             lang).copy()
                        money_part = _money_part(_money(seat), alive, frame[:3] + [MONEY_ROW_H])
                        line.paste(money_part, _money_box(_money(seat))[:2])
                        assert ImageChops.difference(line, _whole(seat, name, place, frame, lang)).getbbox() is None, \
                            (money, luxuries, alive, active, place, name, lang)
                        checked += 1
    assert checked == 5 * 4 * 5 * 3

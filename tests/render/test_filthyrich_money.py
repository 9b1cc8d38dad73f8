"""A Filthy Rich row's money and its hand / $-marks / tax line are parts of their own
(render/filthyrich_side.py), so what changes most moves draws a small part again, not the row's
whole first line or rest; pasted over the rest of the row they give the row drawn whole, pixel
for pixel, whatever the row's height: rich and poor, out of the game, at the table and in the
results (places), every luxury tag on the line, every business and asset in the lists, in
English, Japanese and Spanish."""

from __future__ import annotations

from PIL import ImageChops

from render import compose
from render.common import GOLD, SIZE_SMALL, SIZE_TITLE, TEXT_DIM, canvas, draw_text
from render.filthyrich_side import (
    MONEY_AT,
    ROW_CUT,
    W,
    _draw_info,
    _info,
    _info_part,
    _lists,
    _money,
    _money_box,
    INFO_BOX,
    LINE_H,
    ROW_MIN_H,
    ROW_TOP,
    _money_part,
    _name_line,
    _row_frame,
    _row_rest_part,
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
                        money_part = _money_part(_money(seat), alive, frame[:3] + [ROW_MIN_H])
                        line.paste(money_part, _money_box(_money(seat))[:2])
                        assert ImageChops.difference(line, _whole(seat, name, place, frame, lang)).getbbox() is None, \
                            (money, luxuries, alive, active, place, name, lang)
                        checked += 1
    assert checked == 5 * 4 * 5 * 3


def _rest_whole(seat: dict, s: int, tags_fit: bool, frame: list, lang: str):
    """The rest of a row as one drawing, in the order it was drawn before its first line was a part."""
    img, draw = canvas(W, frame[3] + 1 - ROW_CUT)
    _row_frame(draw, frame, ROW_CUT)
    _draw_info(draw, _info(seat, lang), seat["alive"])
    for k, (line, ink) in enumerate(_lists(seat, s, tags_fit, lang)):
        draw_text(draw, (52, ROW_TOP - 4 - ROW_CUT + k * LINE_H), line, SIZE_SMALL, ink)
    return img


def test_the_info_part_over_the_rest_is_the_rest_drawn_whole():
    from engine.filthyrich.data import ASSETS, BUSINESSES

    businesses, assets = sorted(BUSINESSES), sorted(ASSETS)
    checked = 0
    with compose.raw():
        for k in range(0, len(businesses), 2):
            for lang in ("en", "ja", "es"):
                for alive, active in ((True, False), (True, True), (False, False)):
                    s = k % 5
                    seat = {"alive": alive, "hand": k % 7, "marks": k % 4, "tax_per_zero": k % 6,
                            "interest": k % 3, "businesses": [f"{b}#1" for b in businesses[k:k + 1 + k % 3]],
                            "assets": [{"kind": assets[k % len(assets)], "row": k % 3}], "luxuries": LUXURIES[k % 4]}
                    tags_fit = k % 2 == 0
                    rest = {key: seat[key] for key in ("alive", "businesses", "assets", "luxuries")}
                    frame = [s, alive, active, ROW_TOP + LINE_H * len(_lists(rest, s, tags_fit, lang)) + 8]
                    got = _row_rest_part(rest, tags_fit, frame, lang).copy()
                    got.paste(_info_part(_info(seat, lang), alive, frame[:3] + [ROW_MIN_H]), INFO_BOX[:2])
                    assert ImageChops.difference(got, _rest_whole(seat, s, tags_fit, frame, lang)).getbbox() is None, \
                        (businesses[k], lang, alive, active)
                    checked += 1
    assert checked == 3 * 3 * len(range(0, len(businesses), 2))

"""An E-Wars seat card's dice row is a part of its own in dice time (render/ewars_seats.py `_dice_part`):
a die placed draws those rows again, not the whole card. Pasted over the card drawn without
them, it gives the card drawn whole, pixel for pixel: no dice, one to six, every face, claims
short and long, the parent's bell, active or not, long names and scores, cards grown for
wrapped discards, in English, Japanese and Spanish."""

from __future__ import annotations

import copy

from PIL import ImageChops

from render import compose
from render import ewars, ewars_seats as R
from render.common import canvas
from tests.render.test_ewars import snapshots

NAMES = ["Ann", "Bob the Builder with a very long name", "千代子", "Dmitri"]
DISCARDS = [[], ["staff"], ["star", "executive", "manager", "section_chief", "subsection_chief", "subsection_chief",
                            "staff", "staff", "staff"]]
CLAIMS = [[], ["A1"], ["B2", "C3"], ["A1", "B4", "C2", "D3"]]


def _whole(s: dict, seat: int, name: str, parent: bool, lang: str, size: list[int], active: bool):
    """The card as one drawing, dice row and all (as it was drawn before the row was a part)."""
    img, draw = canvas(size[0] + 1, size[1] + 1)
    R.seat_card(draw, (0, 0, size[0], size[1]), s, seat, name, parent, "dice", lang, active, True, None)
    return img


def test_the_dice_part_over_the_card_is_the_card_drawn_whole():
    checked = 0
    with compose.raw():  # parts in RGB: compared with the card drawn whole, before any palette
        for k in range(36):
            seat, lang = k % 4, ("en", "ja", "es")[k % 3]
            dice = [1 + (k + j) % 6 for j in range(k % 7)]
            discards = DISCARDS[k % 3]
            s = {"score": (0, 3, 18, 120)[k % 4], "hand": k % 7, "dice": dice, "claims": CLAIMS[k % 4],
                 "discards": discards, "discard_count": len(discards)}
            width = 1200 - 14 - 650  # dice time is drawn only in the live layout, the cards beside the board
            # as tall as its discards need, or taller (another seat's wrap onto more lines)
            size = [width, 150 + R.LINE_H * (len(R._footer_lines(s, lang, width)[1]) - 1 + k % 2)]
            active, parent = k % 5 == 0, k % 4 == 1
            card = {key: v for key, v in s.items() if key not in ("dice", "claims")}
            got = R._seat_part(card, seat, NAMES[seat], parent, "dice", lang, size, active, True, None).copy()
            got.paste(R._dice_part(dice, s["claims"], seat, lang, size, active), (0, R.dice_rows(width)[0]))
            want = _whole(s, seat, NAMES[seat], parent, lang, size, active)
            assert ImageChops.difference(got, want).getbbox() is None, (k, s, size, lang)
            checked += 1
    assert checked == 36


def test_a_die_placed_draws_the_dice_row_not_the_card():
    """Nor does what the card does not show draw it again (the seat's "acted", "rolls")."""
    _mine, public = snapshots(4)["dice"]
    ewars.table_image(public, NAMES, "en")
    after = copy.deepcopy(public)
    seat = next(s for s in after["seats"] if s["dice"])
    seat["dice"] = seat["dice"][1:]  # the seat placed a die: its pool is one die smaller
    seat["claims"] = [*seat["claims"], "Z9"]
    seat["acted"], seat["rolls"] = True, seat["rolls"] + 1  # its first claim of the round: no picture shows these
    drawn_before = compose.DRAWN.copy()
    ewars.table_image(after, NAMES, "en")
    drawn = compose.DRAWN - drawn_before
    assert set(drawn) == {"_dice_part"}, drawn
    # its rows only: the card beside the board is 536 px wide, the dice row 50 px high
    assert drawn["_dice_part"] == 537 * (R.dice_rows(536)[1] - R.dice_rows(536)[0])

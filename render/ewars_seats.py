"""E-Wars seat cards: each player's name (the parent's bell), score, dice and claims or what
they owe, hand and discards, as the table shows them (`render.ewars`). In dice time a card's dice
row is a part of its own (`_dice_part`), pasted over the card drawn without it: a die placed
changes those rows and nothing else on the card."""

from __future__ import annotations

import functools
from typing import Any, Sequence

from PIL import Image, ImageDraw

from engine.ewars.data import HIGH_TO_LOW
from render.common import (
    GOLD,
    LINE,
    PANEL,
    SIZE_BODY,
    SIZE_LABEL,
    SIZE_SMALL,
    TEXT,
    TEXT_DIM,
    canvas,
    font,
    rounded,
    seat_colour,
    text_width,
    wrap,
)
from render.compose import Sheet, part
from render.ewars_parts import bell, contrast, draw_text, name_of, seat_die, tk

T = "ewars"


def pill(draw: ImageDraw.ImageDraw, x: float, cy: float, text: str, fill, ink, size: int = SIZE_SMALL) -> float:
    w = text_width(text, font(size, True)) + 18
    draw.rounded_rectangle([x, cy - size * 0.7, x + w, cy + size * 0.7], radius=int(size * 0.7), fill=fill)
    draw_text(draw, (x + 9, cy), text, size, ink, True, "lm")
    return x + w


def _discard_line(discards: tuple[str, ...] | None, count: int, lang: str) -> str:
    if discards is None:
        return tk(lang, "render.discard_list", list=tk(lang, "render.hidden_discards", count=count))
    if not discards:
        return tk(lang, "render.no_discards")
    return tk(lang, "render.discard_list", list=ranks_text(discards, lang))


def ranks_text(ranks: Sequence[str], lang: str) -> str:
    """Short rank labels, strongest first, with counts: "EXEC SUB×2 STAFF×3"."""
    counts: dict[str, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    return " ".join(tk(lang, f"rank_short.{r}") + (f"×{counts[r]}" if counts[r] > 1 else "")
                    for r in HIGH_TO_LOW if r in counts)


#: The height of each further line a seat card's discards wrap onto.
LINE_H = SIZE_SMALL + 6


def _footer_lines(s: dict[str, Any], lang: str, width: int) -> tuple[str, tuple[str, ...]]:
    """A seat card's bottom text: "Hand N", and beside it its discards, wrapped onto as many
    lines as they need (the card grows), so a long pile is never cut off."""
    discards = s.get("discards")
    return _footer(s["hand"], None if discards is None else tuple(discards), s.get("discard_count", 0), lang, width)


@functools.lru_cache(maxsize=1024)
def _footer(hand_count: int, discards: tuple[str, ...] | None, count: int, lang: str,
            width: int) -> tuple[str, tuple[str, ...]]:
    """`_footer_lines`, kept: every table asks it of every seat (`seat_card_extra`), and the
    seats' hands and discards change seldom."""
    hand = tk(lang, "render.hand", count=hand_count)
    fnt = font(SIZE_SMALL)
    room = width - 48 - text_width(hand, fnt) - 16
    return hand, tuple(wrap(_discard_line(discards, count, lang), room, fnt))


def seat_card_extra(view: dict[str, Any], lang: str, width: int) -> int:
    """Extra height the tallest seat card needs for discards that wrap."""
    most = max((len(_footer_lines(s, lang, width)[1]) for s in view["seats"]), default=1)
    return (most - 1) * LINE_H


@part(T)
def _seat_part(s: dict[str, Any], seat: int, name: str, parent: bool, phase: str, lang: str, size: list[int],
               active: bool, show_dice: bool, won: int | None) -> Image.Image:
    """A player's card: name (the parent's bell), score, what they owe, hand and discards; its
    dice and claims are `_dice_part`'s (pasted over it) in the table's dice time."""
    img, draw = canvas(size[0] + 1, size[1] + 1)
    seat_card(draw, (0, 0, size[0], size[1]), s, seat, name, parent, phase, lang, active, show_dice, won,
              dice_row=False)
    return img


#: The rows of a seat card its dice and claims lie in, from its top (`dice_rows`): the dice are
#: DICE_TOP px down, and the name and score above end, and the hand and discards below begin,
#: more than DICE_SPARE px away from them.
DICE_TOP = 58
DICE_SPARE = 3


def _dice_size(width: float) -> int:
    return min(44, int((width - 40) / 6.6))


def dice_rows(width: int) -> tuple[int, int]:
    """Where a seat card `width` px wide is cut for `_dice_part`: the rows its dice row covers."""
    return DICE_TOP - DICE_SPARE, DICE_TOP + _dice_size(width) + DICE_SPARE


@part(T)
def _dice_part(dice: list[int], claims: list[str], seat: int, lang: str, size: list[int], active: bool) -> Image.Image:
    """A seat card's dice row in dice time (a die placed changes this and nothing else on the
    card): the card's box and the dice and claims drawn as the card draws them, cut to
    `dice_rows`, to paste over the card drawn without them. A part of its own so that a move
    draws, quantises and PNG-encodes these 50 rows of the card, not its 150-200."""
    top, bottom = dice_rows(size[0])
    # drawn on the rows cut only: the card shifted up by `top` (whole pixels: the same pixels)
    img, draw = canvas(size[0] + 1, bottom - top)
    box = (0, -top, size[0], size[1] - top)
    _card_box(draw, box, seat, active)
    _dice_row(draw, box, {"dice": dice, "claims": claims}, seat, lang)
    return img


def _card_box(draw: ImageDraw.ImageDraw, box: Sequence[int], seat: int, active: bool) -> None:
    x0, y0, x1, y1 = box
    rounded(draw, box, radius=12, fill=PANEL, outline=GOLD if active else LINE, width=4 if active else 2)
    draw.rounded_rectangle([x0, y0, x0 + 10, y1], radius=4, fill=seat_colour(seat))


def _dice_row(draw: ImageDraw.ImageDraw, box: Sequence[int], s: dict[str, Any], seat: int, lang: str) -> None:
    """A seat's dice (or that it has none) and the places it claimed, DICE_TOP px down its card."""
    x0, y0, x1, _y1 = box
    mid = y0 + DICE_TOP
    dice = s.get("dice") or []
    size = _dice_size(x1 - x0)
    if dice:
        for k, f in enumerate(dice):
            seat_die(draw, x0 + 24 + k * (size + 8), mid, size, f, seat)
    else:
        draw_text(draw, (x0 + 24, mid + size / 2), tk(lang, "render.no_dice"), SIZE_SMALL, TEXT_DIM, anchor="lm")
    if s["claims"]:
        draw_text(draw, (x1 - 14, mid + size / 2), " ".join(s["claims"]), SIZE_BODY, seat_colour(seat), bold=True,
                  anchor="rm", max_width=int(x1 - x0 - 6 * (size + 8) - 50))


def seat_card(draw: ImageDraw.ImageDraw, box: Sequence[int], s: dict[str, Any], seat: int, name: str, parent: bool,
              phase: str, lang: str, active: bool, show_dice: bool, won: int | None = None,
              dice_row: bool = True) -> None:
    """A seat's card in `box`; with `show_dice`, its dice row too unless not `dice_row` (the table
    pastes `_dice_part` there)."""
    x0, y0, x1, y1 = box
    colour = seat_colour(seat)
    _card_box(draw, box, seat, active)
    # name, parent's bell, score
    score = tk(lang, "render.score", count=s["score"])
    sfnt = font(SIZE_LABEL, True)
    sw = text_width(score, sfnt)
    nx = x0 + 24
    if parent:
        bell(draw, nx + 12, y0 + 30, 12)
        nx += 32
    draw_text(draw, (nx, y0 + 30), name, SIZE_BODY, TEXT, bold=True, anchor="lm",
              max_width=int(x1 - nx - sw - 30))
    draw_text(draw, (x1 - 14, y0 + 30), score, SIZE_LABEL, GOLD, True, "rm")
    if won:
        draw_text(draw, (x1 - 14, y0 + 62), tk(lang, "render.won", count=won), SIZE_BODY, colour, bold=True, anchor="rm")
    mid = y0 + DICE_TOP
    if show_dice and dice_row:
        _dice_row(draw, box, s, seat, lang)
    elif not show_dice and phase == "dispatch" and s.get("owed"):
        pill(draw, x0 + 24, mid + 16, tk(lang, "render.owed", count=s["owed"]), colour, contrast(colour))
    hand, lines = _footer_lines(s, lang, int(x1 - x0))
    yb = y1 - 22 - (len(lines) - 1) * LINE_H
    draw_text(draw, (x0 + 24, yb), hand, SIZE_SMALL, TEXT, anchor="lm")
    hx = x0 + 24 + text_width(hand, font(SIZE_SMALL)) + 16
    for k, line in enumerate(lines):
        draw_text(draw, (hx, yb + k * LINE_H), line, SIZE_SMALL, TEXT_DIM, anchor="lm", max_width=int(x1 - hx - 12))


#: What a seat card part draws of its seat's view (`seat_card` without its dice row): its part is
#: kept under these only, so a seat's dice rolled, re-rolls counted or first claim of the round
#: ("acted", which no picture shows) do not draw the card again.
CARD_KEYS = ("hand", "discards", "discard_count", "score", "owed")


def paste_seat(sheet: Sheet, xy: tuple[int, int], view: dict[str, Any], names: Sequence[str], lang: str, seat: int,
               size: list[int], active: bool, show_dice: bool, won: int | None = None) -> None:
    """A seat's card pasted at `xy`, and in dice time its dice row, a part of its own, over it."""
    s = view["seats"][seat]
    card = {k: s[k] for k in CARD_KEYS if k in s}
    sheet.paste(_seat_part(card, seat, name_of(names, seat), seat == view.get("parent"), view.get("phase"), lang, size,
                           active, show_dice, won), xy)
    if show_dice:
        sheet.paste(_dice_part(s.get("dice") or [], s["claims"], seat, lang, size, active),
                    (xy[0], xy[1] + dice_rows(size[0])[0]))

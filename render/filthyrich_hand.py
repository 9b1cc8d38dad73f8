"""Filthy Rich's private picture: the seat's hand as cards with cost, $ marks and an effect
summary (the panel beside "My hand")."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.filthyrich.data import (
    ASSETS,
    BUSINESSES,
    SHAPES,
)
from render.common import (
    picture,
    GOLD,
    PANEL,
    SIZE_BODY,
    SIZE_LABEL,
    SIZE_SMALL,
    TEXT,
    TEXT_DIM,
    WHITE,
    canvas,
    draw_text,
    fit_wrap,
    font,
    rounded,
    text_width,
    wrap,
)
from render.filthyrich_words import (
    KIND_COLOURS,
    card_name,
    effect_text,
    say,
    seat_name,
)
from render.palette import flat

W = 1200

CARD_W = 216
CARD_H = 372
CARD_GAP = 12


def _shape_icon(draw: ImageDraw.ImageDraw, shape: str, x: int, y: int, cell: int, colour) -> None:
    offs = set(SHAPES[shape])
    for r in range(3):
        for c in range(3):
            box = [x + c * (cell + 3), y + r * (cell + 3), x + c * (cell + 3) + cell, y + r * (cell + 3) + cell]
            if (r, c) in offs:
                draw.rectangle(box, fill=colour)
            else:
                draw.rectangle(box, outline=(90, 98, 114), width=1)


def _card_kind(k: str) -> str:
    return "business" if k in BUSINESSES else "asset" if k in ASSETS else "action"


INK = (30, 32, 40)
BODY_INK = (54, 58, 70)
LINE_H = SIZE_SMALL + 6
#: The business shape's 3x3 diagram at a business card's foot.
SHAPE_CELL = 20
SHAPE_H = 3 * SHAPE_CELL + 6 + 12


def _marks(k: str) -> int:
    cat = _card_kind(k)
    return BUSINESSES[k]["marks"] if cat == "business" else ASSETS[k]["marks"] if cat == "asset" else 0


def card_name_lines(k: str, lang: str) -> tuple[int, list[str]]:
    """A hand card's name on at most three lines, shrunk (to the floor) rather than cut mid-word."""
    return fit_wrap(card_name(lang, k), CARD_W - 24, SIZE_BODY - 2, 3, bold=True)


def _layout(k: str, lang: str) -> tuple[int, list[str], list[str], int]:
    """(name size, name lines, effect lines, the height the card needs): the effect is never cut,
    the card grows instead (every card of a hand as tall as its tallest)."""
    size, names = card_name_lines(k, lang)
    effect = wrap(effect_text(lang, k), CARD_W - 24, font(SIZE_SMALL))
    height = 60 + len(names) * (size + 6) + (44 if _marks(k) else 4) + len(effect) * LINE_H
    height += SHAPE_H if _card_kind(k) == "business" else 16
    return size, names, effect, height


def _draw_card(draw: ImageDraw.ImageDraw, x: int, y: int, card: dict, lang: str, card_h: int) -> None:
    k = card["kind"]
    cat = _card_kind(k)
    accent = KIND_COLOURS[cat]
    rounded(draw, (x, y, x + CARD_W, y + card_h), radius=14, fill=(244, 240, 228), outline=accent, width=4)
    draw.rounded_rectangle([x + 4, y + 4, x + CARD_W - 4, y + 50], radius=10, fill=accent)
    if cat == "action":
        cost_text = say(lang, "render.free")
    else:
        cost = BUSINESSES[k]["cost"] if cat == "business" else ASSETS[k]["cost"]
        cost_text = say(lang, "render.cost", cost=cost)
    cw = draw_text(draw, (x + 14, y + 27), cost_text, SIZE_LABEL, WHITE, bold=True, anchor="lm", max_width=CARD_W - 28)
    kind_word = say(lang, f"kind.{cat}")
    if text_width(kind_word, font(SIZE_SMALL)) <= CARD_W - 38 - cw:  # else the header's colour says it
        draw_text(draw, (x + CARD_W - 14, y + 27), kind_word, SIZE_SMALL, WHITE, anchor="rm")
    size, names, effect, _height = _layout(k, lang)
    ty = y + 60
    for line in names:
        draw_text(draw, (x + 12, ty), line, size, INK, bold=True, max_width=CARD_W - 24)
        ty += size + 6
    if _marks(k):
        draw_text(draw, (x + 12, ty + 2), "$" * _marks(k), SIZE_LABEL, (190, 140, 20), bold=True)
        ty += 40
    ty += 4
    for line in effect:
        draw_text(draw, (x + 12, ty), line, SIZE_SMALL, BODY_INK)
        ty += LINE_H
    if cat == "business":
        _shape_icon(draw, BUSINESSES[k]["shape"], x + CARD_W - 12 - 3 * SHAPE_CELL - 6,
                    y + card_h - SHAPE_H + 6, SHAPE_CELL, accent)


@picture(W)
def panel_image(view: dict, names: list[str], lang: str) -> Image.Image | None:
    me = view.get("me")
    priv = view.get("private")
    if me is None or priv is None:
        return None
    cards = priv["hand"]
    per_row = 5
    rows = max(1, (len(cards) + per_row - 1) // per_row)
    card_h = max([CARD_H] + [_layout(c["kind"], lang)[3] for c in cards])
    height = 96 + rows * (card_h + CARD_GAP) + 12
    img, draw = canvas(W, height)
    draw.rectangle([0, 0, W, 80], fill=PANEL)
    seat = view["seats"][me]
    bits = [f"${seat['money']}", say(lang, "render.marks", count=seat["marks"])]
    if view["phase"] == "turn" and view["active"] == me:
        bits.append(say(lang, "render.actions", count=view["turn"]["actions"]))
    bw = draw_text(draw, (W - 24, 40), " · ".join(bits), SIZE_BODY, TEXT, anchor="rm", max_width=560)
    draw_text(draw, (24, 40), f"{say(lang, 'render.your_hand')} · {seat_name(names, me)}", SIZE_LABEL, GOLD, bold=True,
              anchor="lm", max_width=W - 72 - bw)
    if not cards:
        draw_text(draw, (W // 2, 96 + CARD_H // 2), say(lang, "render.no_cards"), SIZE_LABEL, TEXT_DIM, anchor="mm")
        return img
    total_w = min(len(cards), per_row) * (CARD_W + CARD_GAP) - CARD_GAP
    x0 = (W - total_w) // 2
    for i, card in enumerate(cards):
        r, c = divmod(i, per_row)
        _draw_card(draw, x0 + c * (CARD_W + CARD_GAP), 96 + r * (card_h + CARD_GAP), card, lang, card_h)
    return flat(img)

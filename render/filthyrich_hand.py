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
    fit,
    fit_wrap,
    font,
    rounded,
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


def _draw_card(draw: ImageDraw.ImageDraw, x: int, y: int, card: dict, lang: str) -> None:
    k = card["kind"]
    cat = _card_kind(k)
    accent = KIND_COLOURS[cat]
    rounded(draw, (x, y, x + CARD_W, y + CARD_H), radius=14, fill=(244, 240, 228), outline=accent, width=4)
    draw.rounded_rectangle([x + 4, y + 4, x + CARD_W - 4, y + 50], radius=10, fill=accent)
    if cat == "action":
        cost_text = say(lang, "render.free")
    else:
        cost = BUSINESSES[k]["cost"] if cat == "business" else ASSETS[k]["cost"]
        cost_text = say(lang, "render.cost", cost=cost)
    draw_text(draw, (x + 14, y + 27), cost_text, SIZE_LABEL, WHITE, bold=True, anchor="lm", max_width=110)
    draw_text(draw, (x + CARD_W - 14, y + 27), say(lang, f"kind.{cat}"), SIZE_SMALL, WHITE, anchor="rm", max_width=90)
    ink = (30, 32, 40)
    size, lines = fit_wrap(card_name(lang, k), CARD_W - 24, SIZE_BODY - 2, 3, bold=True)
    ty = y + 60
    for line in lines:
        draw_text(draw, (x + 12, ty), line, size, ink, bold=True, max_width=CARD_W - 24)
        ty += size + 6
    marks = BUSINESSES[k]["marks"] if cat == "business" else ASSETS[k]["marks"] if cat == "asset" else 0
    if marks:
        draw_text(draw, (x + 12, ty + 2), "$" * marks, SIZE_LABEL, (190, 140, 20), bold=True)
    ty += 40
    if cat == "business":
        b = BUSINESSES[k]
        _shape_icon(draw, b["shape"], x + CARD_W - 12 - 3 * 20 - 6, y + CARD_H - 12 - 3 * 20 - 6, 20, accent)
    body = effect_text(lang, k)
    fnt = fit(body, 10_000, SIZE_SMALL)
    width = CARD_W - 24
    bottom = y + CARD_H - (90 if cat == "business" else 16)
    for line in wrap(body, width, font(SIZE_SMALL)):
        if ty + SIZE_SMALL > bottom:
            break
        draw_text(draw, (x + 12, ty), line, SIZE_SMALL, (54, 58, 70), max_width=width)
        ty += SIZE_SMALL + 6
    del fnt


@picture(W)
def panel_image(view: dict, names: list[str], lang: str) -> Image.Image | None:
    me = view.get("me")
    priv = view.get("private")
    if me is None or priv is None:
        return None
    cards = priv["hand"]
    per_row = 5
    rows = max(1, (len(cards) + per_row - 1) // per_row)
    height = 96 + rows * (CARD_H + CARD_GAP) + 12
    img, draw = canvas(W, height)
    draw.rectangle([0, 0, W, 80], fill=PANEL)
    seat = view["seats"][me]
    draw_text(draw, (24, 40), f"{say(lang, 'render.your_hand')} · {seat_name(names, me)}", SIZE_LABEL, GOLD, bold=True,
              anchor="lm", max_width=560)
    bits = [f"${seat['money']}", say(lang, "render.marks", count=seat["marks"])]
    if view["phase"] == "turn" and view["active"] == me:
        bits.append(say(lang, "render.actions", count=view["turn"]["actions"]))
    draw_text(draw, (W - 24, 40), " · ".join(bits), SIZE_BODY, TEXT, anchor="rm", max_width=560)
    if not cards:
        draw_text(draw, (W // 2, 96 + CARD_H // 2), say(lang, "render.no_cards"), SIZE_LABEL, TEXT_DIM, anchor="mm")
        return img
    total_w = min(len(cards), per_row) * (CARD_W + CARD_GAP) - CARD_GAP
    x0 = (W - total_w) // 2
    for i, card in enumerate(cards):
        r, c = divmod(i, per_row)
        _draw_card(draw, x0 + c * (CARD_W + CARD_GAP), 96 + r * (CARD_H + CARD_GAP), card, lang)
    return flat(img)

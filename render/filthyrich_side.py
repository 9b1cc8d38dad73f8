"""Filthy Rich's table beside and below the binder: the side column (whose turn or which window,
the last roll, the luxury market, the piles) and one row per player (money, luxuries, hand,
$-marks, tax, businesses, assets). Drawn at the phone floor or larger: a list that does not fit
wraps, and rows grow to hold it."""

from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from engine.filthyrich.data import BUSINESSES, LUXURIES, LUXURY_ORDER, kind
from locales.format import join_list, separator
from render.common import (
    BAD,
    BG,
    GOLD,
    LINE,
    PANEL,
    PANEL_LIGHT,
    SIZE_BODY,
    SIZE_LABEL,
    SIZE_SMALL,
    SIZE_TITLE,
    TEXT,
    TEXT_DIM,
    WHITE,
    canvas,
    draw_text,
    fit_name,
    font,
    lines_at_most,
    rounded,
    seat_colour,
    text_width,
)
from render.compose import part
from render.filthyrich_words import T, blend, card_name, say, seat_name

W = 1200
BUSINESSES_BY_SIGN = {b["sign"]: k for k, b in BUSINESSES.items()}
LINE_H = SIZE_SMALL + 7


def _die(draw, x, y, face: int, size: int, fill, ink, outline=None) -> None:
    draw.rounded_rectangle([x, y, x + size, y + size], radius=10, fill=fill, outline=outline, width=3)
    draw_text(draw, (x + size / 2, y + size / 2), str(face), SIZE_LABEL, ink, bold=True, anchor="mm")


def _status(view: dict, names: Sequence[str], lang: str) -> tuple[str, str]:
    ph = view["phase"]
    if ph == "over":
        winners = join_list((seat_name(names, s) for s in view.get("winners") or []), lang)
        return f"{say(lang, 'render.winner')}: {winners}", say(lang, f"reason.{view['end']}")
    if ph in ("tax", "audit"):
        tx = view["tax"]
        waiting = join_list((seat_name(names, s) for s in tx["pending"]), lang)
        head = say(lang, "render.tax_window", zeros=tx["zeros"]) if ph == "tax" else say(lang, "phase.audit")
        return head, say(lang, "render.waiting", names=waiting)
    if ph == "auction":
        a = view["auction"]
        head = say(lang, "render.auction", luxury=a["luxury"])
        if a["high"] is None:
            sub = say(lang, "render.no_bid", amount=a["min"])
        else:
            sub = say(lang, "render.high_bid", amount=a["high"], seat=seat_name(names, a["high_seat"]))
        return head, sub + " · " + say(lang, "render.waiting", names=seat_name(names, a["seat"]))
    turn = view["turn"]
    head = f"{seat_name(names, view['active'])}: {say(lang, 'render.active')}"
    sub = say(lang, "render.actions", count=turn["actions"]) + " · " + say(lang, "render.dice", count=turn["dice"])
    return head, sub


def side_parts(view: dict, names: Sequence[str], lang: str, w: int) -> tuple[list[tuple[Image.Image, int]], int]:
    """The side column as parts with their tops, and its height: the status (it changes with
    every action), the last roll, the market, the piles."""
    head, sub = _status(view, names, lang)
    roll = view.get("roll")
    if roll:
        roll = {**roll, "lines": [[_hit_line(h, names, lang, w - 32), seat_colour(h["seat"])]
                                  for h in roll["hits"] if h["sign"]], "who": seat_name(names, roll["seat"])}
    market = [lid for lid in LUXURY_ORDER if lid in view["market"]]
    status, rolled = _status_part(head, sub, w), _roll_part(roll, lang, w)
    market = _market_part(market, lang, w)
    piles = _piles_part(view["removed"], view["deck_count"], len(view["discard"]), lang, w)
    roll_y = status.height - 1 + 16  # boxes are a pixel taller than their tops' distance
    market_y = roll_y + rolled.height - 1 + 22
    piles_y = market_y + market.height
    return [(status, 0), (rolled, roll_y), (market, market_y), (piles, piles_y)], piles_y + piles.height


@part(T)
def _status_part(head: str, sub: str, w: int) -> Image.Image:
    subs = lines_at_most(sub, w - 32, font(SIZE_SMALL), 2)
    h = 64 + LINE_H * len(subs)
    img, draw = canvas(w + 1, h + 1)
    rounded(draw, (0, 0, w, h), fill=PANEL, outline=GOLD, width=3)
    draw_text(draw, (16, 10), head, SIZE_LABEL, GOLD, bold=True, max_width=w - 32)
    for k, line in enumerate(subs):
        draw_text(draw, (16, 54 + k * LINE_H), line, SIZE_SMALL, TEXT)
    return img


@part(T)
def _piles_part(removed: list[str], deck: int, discard: int, lang: str, w: int) -> Image.Image:
    """The luxuries out of the game, the draw pile and the discards."""
    img, draw = canvas(w, 46 + 2 * LINE_H)
    y = 0
    if removed:
        text = say(lang, "render.removed") + ": " + separator(lang).join(card_name(lang, r) for r in removed)
        for line in lines_at_most(text, w - 8, font(SIZE_SMALL), 2):
            draw_text(draw, (4, y + 4), line, SIZE_SMALL, TEXT_DIM)
            y += LINE_H
    draw_text(draw, (4, y + 6), say(lang, "render.deck", count=deck) + " · " + say(lang, "render.discard", count=discard),
              SIZE_SMALL, TEXT_DIM, max_width=w - 8)
    return img.crop((0, 0, w, y + 46))


def _hit_line(h: dict, names: Sequence[str], lang: str, width: int) -> str:
    """"7 → Curl Up & Dye Salon: +$3 Ann", or without the business when that is too long (the
    binder marks the slots the dice hit)."""
    fnt = font(SIZE_SMALL, True)
    business = card_name(lang, BUSINESSES_BY_SIGN.get(h["sign"], h["sign"]))
    owner = seat_name(names, h["seat"])
    full = f"{h['slot']} → {business}: +${h['amount']} {owner}"
    if text_width(full, fnt) <= width:
        return full
    return fit_name(lambda who: f"{h['slot']} → +${h['amount']} {who}", owner, width, fnt)


@part(T)
def _roll_part(roll: dict | None, lang: str, w: int) -> Image.Image:
    """The last roll: each die (a hit in its owner's colour, zeros red), who was paid, the page die."""
    img, draw = canvas(w + 1, 600)  # more than six hit lines and two rows of dice take
    draw_text(draw, (16, 10), say(lang, "render.last_roll"), SIZE_BODY, TEXT, bold=True)
    y = 52
    if not roll:
        draw_text(draw, (16, y), say(lang, "render.no_roll"), SIZE_SMALL, TEXT_DIM, max_width=w - 32)
        y += 40
    else:
        draw_text(draw, (w - 16, 14), f"{roll['who']} · {say(lang, 'render.page', page=roll['page'])}", SIZE_SMALL,
                  TEXT_DIM, anchor="ra", max_width=w // 2)
        dice = roll["dice"]
        size = 52 if len(dice) <= 7 else 44
        dx = 16
        for i, d in enumerate(dice):
            hit = next((h for h in roll["hits"] if h["die"] == i), None)
            if d == 0:
                _die(draw, dx, y, 0, size, BAD, WHITE)
            elif hit and hit["sign"]:
                _die(draw, dx, y, d, size, WHITE, BG, outline=seat_colour(hit["seat"]))
            else:
                _die(draw, dx, y, d, size, (90, 98, 114), TEXT)
            dx += size + 8
            if dx + size > w:
                dx = 16
                y += size + 8
        if not dice:
            draw_text(draw, (16, y + 12), "—", SIZE_BODY, TEXT_DIM)
        y += size + 12
        lines = [(text, tuple(colour)) for text, colour in roll["lines"]]
        zeros = dice.count(0)
        if zeros:
            lines.append((f"0 ×{zeros} → {say(lang, 'render.tax_mark')}", BAD))
        for text, colour in lines[:6]:
            draw_text(draw, (16, y), text, SIZE_SMALL, colour, bold=True, max_width=w - 32)
            y += LINE_H
        if roll.get("page_die") is not None:
            text = (f"{say(lang, 'render.page_die', die=roll['page_die'])} → "
                    f"{say(lang, 'render.page_turn', page=roll['next_page'])}")
            for line in lines_at_most(text, w - 32, font(SIZE_SMALL), 2):
                draw_text(draw, (16, y), line, SIZE_SMALL, TEXT_DIM)
                y += LINE_H
    draw.rounded_rectangle([0, 0, w, y + 8], radius=12, outline=LINE, width=2)
    return img.crop((0, 0, w + 1, y + 9))


@part(T)
def _market_part(market: list[str], lang: str, w: int) -> Image.Image:
    """The luxuries for sale in price order, one a line: name, price."""
    row = SIZE_SMALL + 11
    img, draw = canvas(w + 1, 44 + row * len(market) + 20)
    draw_text(draw, (4, 0), say(lang, "render.market"), SIZE_BODY, GOLD, bold=True, max_width=w - 8)
    y = 44
    if market:
        rounded(draw, (0, y, w, y + row * len(market) + 8), radius=10, fill=PANEL)
    for i, lid in enumerate(market):
        ry = y + 4 + i * row
        if i % 2:
            draw.rectangle([4, ry, w - 4, ry + row], fill=PANEL_LIGHT)
        price = f"${LUXURIES[lid]['price']}"
        pw = draw_text(draw, (w - 14, ry + row / 2), price, SIZE_SMALL, GOLD, bold=True, anchor="rm")
        draw_text(draw, (14, ry + row / 2), card_name(lang, lid), SIZE_SMALL, TEXT, anchor="lm", max_width=w - 40 - pw)
    return img.crop((0, 0, w + 1, y + (row * len(market) + 20 if market else 0)))


# -- players -----------------------------------------------------------------------------------

ROW_TOP = 94  # a row's name line and its hand / marks / tax line


def _tags_start(name: str, place: int | None, lang: str) -> int:
    """Where the luxuries' tags start on a row's first line (after the place, name and pips)."""
    bold = font(SIZE_LABEL, True)
    x = 52 + (text_width(say(lang, "render.place", place=place), bold) + 16 if place is not None else 0)
    return x + min(340, text_width(name, bold)) + 18 + text_width("◇◇◇", font(SIZE_BODY, True)) + 12


def _tags_x(seat: dict, name: str, place: int | None, lang: str) -> int | None:
    """Where the luxuries' tags start on a row's first line, or None when they do not all fit
    there, left of the money (they go on a line of their own)."""
    x = _tags_start(name, place, lang)
    room = W - 70 - text_width(_money(seat), font(SIZE_TITLE, True))
    tags = sum(text_width(card_name(lang, lid), font(SIZE_SMALL)) + 28 for lid in seat["luxuries"])
    return x if x + tags <= room else None


def _lists(seat: dict, s: int, tags_fit: bool, lang: str) -> list[tuple[str, object]]:
    """A row's wrapped lines below its first two, with their colours: the luxuries when their
    tags do not fit the first line, businesses (in the seat's colour), then assets (Muscle with
    its row); a list a player has none of is left out."""
    sep = separator(lang)
    small = font(SIZE_SMALL)
    alive = seat["alive"]
    out: list[tuple[str, object]] = []

    def add(key: str, items: list[str], colour) -> None:
        nonlocal out
        if items:
            text = f"{say(lang, key)}: {sep.join(items)}"
            out += [(line, colour if alive else TEXT_DIM) for line in lines_at_most(text, W - 110, small, 2)]

    if not tags_fit:
        add("render.luxuries", [card_name(lang, lid) for lid in seat["luxuries"]], GOLD)
    add("render.businesses", [card_name(lang, kind(c)) for c in seat["businesses"]],
        blend(seat_colour(s), WHITE, 0.35))
    assets = []
    for a in seat["assets"]:
        label = card_name(lang, a["kind"])
        if a.get("row"):
            label += f" ({say(lang, 'render.muscle_row', row=a['row'])})"
        assets.append(label)
    add("render.assets", assets, TEXT_DIM)
    return out


#: Where a row is cut in two parts: its first line and the rest.
ROW_CUT = 60


def row_parts(view: dict, names: Sequence[str], lang: str,
              places: list | None) -> list[tuple[Image.Image, Image.Image, list[tuple[Image.Image, tuple[int, int]]]]]:
    """One row per player, each in two parts (its first line, the rest) given only what they
    show, and two small parts pasted over them (with where they go in the row): its money and
    its hand / $-marks / tax line, which change most moves; a card bought changes the rest."""
    active = set(view.get("to_act") or []) | ({view["active"]} if view["phase"] == "turn" else set())
    out = []
    for s, seat in enumerate(view["seats"]):
        name, place = seat_name(names, s), None if places is None else places[s]
        tags_fit = _tags_x(seat, name, place, lang) is not None
        rest = {k: seat[k] for k in ("alive", "businesses", "assets", "luxuries")}
        frame = [s, seat["alive"], s in active, ROW_TOP + LINE_H * len(_lists(rest, s, tags_fit, lang)) + 8]
        top = {k: seat[k] for k in ("alive", "luxuries")}
        # the row's height does not reach the small parts' boxes: a row growing keeps them
        small = frame[:3] + [ROW_MIN_H]
        money = (_money_part(_money(seat), seat["alive"], small), _money_box(_money(seat))[:2])
        info = (_info_part(_info(seat, lang), seat["alive"], small), (INFO_BOX[0], ROW_CUT + INFO_BOX[1]))
        out.append((_row_top_part(top, name, place, tags_fit, frame, lang), _row_rest_part(rest, tags_fit, frame, lang),
                    [money, info]))
    return out


def _money(seat: dict) -> str:
    return f"${seat['money']}"


#: Where a row's money is drawn on its first line (its right end, at the top of the text).
MONEY_AT = (W - 44, 4)
#: The row height its small parts are drawn in (a row is at least ROW_TOP + 8 high; its frame's
#: pixels in their boxes are the same whatever the height past that).
ROW_MIN_H = ROW_TOP + 8
#: The box of a row's rest that its hand / $-marks / tax line's glyphs lie in: from its left
#: margin to its widest (`max_width`), down to the font's descender line (27 px text drawn 6 px
#: above the rest's top: its ink ends by row 34); the first list line's ink starts at row 35 or
#: lower (30 px down, its tallest glyphs, accented capitals, 5 px below that).
INFO_BOX = (50, 0, W - 56, 35)


def _money_box(money: str) -> tuple[int, int, int, int]:
    """The box of a row's first line the money's glyphs lie in, with a pixel to spare. Nothing
    else on the line comes near it: the luxuries' tags end 26 px left of it (`_tags_x`), the
    row's frame is 16 px right of it."""
    left, top, right, bottom = font(SIZE_TITLE, True).getbbox(money, anchor="ra")
    x, y = MONEY_AT
    return x + int(left) - 2, max(0, y + int(top) - 2), x + int(right) + 2, min(ROW_CUT, y + int(bottom) + 2)


@part(T)
def _money_part(money: str, alive: bool, frame: list) -> Image.Image:
    """A row's money as its first line shows it: the line's frame and the money, drawn as the
    line draws them, cut to the money's box (pasted over the line, whose pixels there are the
    frame's)."""
    img, draw = canvas(W, ROW_CUT)
    _row_frame(draw, frame, 0)
    draw_text(draw, MONEY_AT, money, SIZE_TITLE, GOLD if alive else TEXT_DIM, bold=True, anchor="ra")
    return img.crop(_money_box(money))


def _row_frame(draw: ImageDraw.ImageDraw, frame: list, top: int) -> None:
    """A row's box and its seat-colour stripe, seen from `top` px down the row."""
    s, alive, active, h = frame
    colour = seat_colour(s)
    rounded(draw, (24, -top, W - 24, h - top), radius=12, fill=PANEL if alive else (30, 32, 38),
            outline=GOLD if active else LINE, width=4 if active else 2)
    draw.rounded_rectangle([24, -top, 36, h - top], radius=6, fill=colour if alive else blend(colour, BG, 0.6))


@part(T)
def _row_top_part(seat: dict, name: str, place: int | None, tags_fit: bool, frame: list, lang: str) -> Image.Image:
    """A player's row's first line but its money (`_money_part`): (place,) name, luxuries."""
    img, draw = canvas(W, ROW_CUT)
    _row_frame(draw, frame, 0)
    _name_line(draw, seat, name, place, tags_fit, lang)
    return img


def _info(seat: dict, lang: str) -> str:
    """A row's hand / $-marks / tax (and interest) line, or that the player is out."""
    if not seat["alive"]:
        return say(lang, "render.out")
    info = [say(lang, "render.hand", count=seat["hand"]), say(lang, "render.marks", count=seat["marks"]),
            say(lang, "render.tax_per_zero", amount=seat["tax_per_zero"])]
    if seat["interest"]:
        info.append(say(lang, "render.interest", amount=seat["interest"]))
    return " · ".join(info)


def _draw_info(draw: ImageDraw.ImageDraw, info: str, alive: bool) -> None:
    draw_text(draw, (52, 54 - ROW_CUT), info, SIZE_SMALL, TEXT_DIM if alive else BAD, bold=not alive,
              max_width=W - 110)


@part(T)
def _info_part(info: str, alive: bool, frame: list) -> Image.Image:
    """A row's hand / $-marks / tax line as the rest of the row shows it: the row's frame and the
    line, cut to `INFO_BOX` (pasted over the rest, whose pixels there are the frame's)."""
    img, draw = canvas(W, frame[3] + 1 - ROW_CUT)
    _row_frame(draw, frame, ROW_CUT)
    _draw_info(draw, info, alive)
    return img.crop(INFO_BOX)


@part(T)
def _row_rest_part(seat: dict, tags_fit: bool, frame: list, lang: str) -> Image.Image:
    """The rest of a player's row but its hand / $-marks / tax line (`_info_part`): luxuries
    (when their tags do not fit the first line), businesses, assets."""
    s, alive, _active, h = frame
    img, draw = canvas(W, h + 1 - ROW_CUT)
    _row_frame(draw, frame, ROW_CUT)
    for k, (line, ink) in enumerate(_lists(seat, s, tags_fit, lang)):
        draw_text(draw, (52, ROW_TOP - 4 - ROW_CUT + k * LINE_H), line, SIZE_SMALL, ink)
    return img


def _name_line(draw: ImageDraw.ImageDraw, seat: dict, name: str, place: int | None, tags_fit: bool,
               lang: str) -> None:
    """(Place,) name, luxury pips and the luxuries' names (on this line when `tags_fit`)."""
    alive = seat["alive"]
    x = 52
    if place is not None:
        x += draw_text(draw, (x, 8), say(lang, "render.place", place=place), SIZE_LABEL,
                       GOLD if place == 1 else TEXT_DIM, bold=True) + 16
    x += draw_text(draw, (x, 8), name, SIZE_LABEL, TEXT if alive else TEXT_DIM, True, max_width=340, shrink=False) + 18
    pips = "♦" * len(seat["luxuries"]) + "◇" * max(0, 3 - len(seat["luxuries"]))
    draw_text(draw, (x, 10), pips, SIZE_BODY, GOLD, bold=True)
    x = _tags_start(name, place, lang)
    for lid in seat["luxuries"] if tags_fit else ():
        label = card_name(lang, lid)
        tw = text_width(label, font(SIZE_SMALL)) + 20
        rounded(draw, (x, 8, x + tw, 46), radius=8, fill=blend(GOLD, BG, 0.7), outline=GOLD, width=1)
        draw_text(draw, (x + 10, 27), label, SIZE_SMALL, TEXT, anchor="lm")
        x += tw + 8

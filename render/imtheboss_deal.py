"""I'm the Boss!'s deal panel, below the board while a deal is open: the boss, the space and the
proceeds; each requirement and who fills it; the offers and their prices, the clan cards on
the table and the travellers, one per line; and the open window (a card played, the last
call). Its type is larger than the rest of the picture: it is what a player reads on a phone."""

from __future__ import annotations

from typing import Sequence

from PIL import Image

from engine.imtheboss.data import CLANS
from locales.format import join_list
from render.common import (
    GOLD,
    GOOD,
    TEXT,
    TEXT_DIM,
    WHITE,
    canvas,
    fit_name,
    font,
    lines_at_most,
    text_width,
)
from render.compose import part
from render.imtheboss_parts import (
    BG,
    LINE,
    MARGIN,
    SQ,
    T,
    W,
    blend,
    clan_square,
    draw_text,
    seat_name,
    tk,
)

DEAL_TITLE = 38
DEAL_BODY = 34
DEAL_SMALL = 30
#: The widest a list of names beside a requirement may be.
WHO_W = 560
#: Offers listed one per line; any more are counted.
OFFER_ROWS = 10
X0, X1 = MARGIN, W - MARGIN


def _price(lang: str, offer: dict) -> str:
    ask = offer["ask"]
    if "div" in ask:
        return f"{tk(lang, 'render.dividends', count=ask['div'])} (${offer['usd']}M)"
    return f"${offer['usd']}M"


def deal_parts(view: dict, names: Sequence[str], lang: str) -> list[Image.Image]:
    """The panel as parts from top to bottom, each full width (the table frames them): a new
    offer or a tick draws one line again, not the panel."""
    deal = view["deal"]

    def title(boss: str) -> str:
        return (f"{tk(lang, 'render.boss')}: {boss}  ·  {tk(lang, 'space.' + str(deal['space']))}  ·  "
                f"{tk(lang, 'render.proceeds', proceeds=deal['proceeds'])} ({deal['div']} × ${deal['value']}M)")

    sub = []
    if deal["starter"] != deal["boss"]:
        sub.append(tk(lang, "render.starter", seat=seat_name(names, deal["starter"])))
    if view["shared"]:
        sub.append(tk(lang, "render.share", share=deal["share"]))
    else:
        sub.append(tk(lang, "render.room", total=deal["accepted_total"], room=deal["room"]))
    sub.append(tk(lang, "render.met") if deal["met"] else tk(lang, "render.not_met"))
    head = fit_name(title, seat_name(names, deal["boss"]), X1 - X0 - 36, font(DEAL_TITLE, True))
    out = [_head_part(head, "  ·  ".join(sub), deal["met"])]
    owner_of = {s["src"]: seat_name(names, s["owner"]) for s in deal["sources"]}
    slots = [{"kind": slot["kind"], "clans": slot["clans"], "k": slot.get("k"), "filled": slot.get("filled", []),
              "who": join_list(sorted({owner_of[s] for s in slot["by"] if s in owner_of}), lang)}
             for slot in deal["slots"]]
    out.append(_requirements_part(slots, lang))
    out += [_row_part(*item, lang) if row else _line_part(*item) for row, item in _lists(view, names, lang)]
    if view.get("window") is not None:
        out.append(_window_part(_window_text(view["window"], names, lang)))
    return out


@part(T)
def _head_part(title: str, sub: str, met: bool) -> Image.Image:
    img, draw = canvas(W, 108)
    room = X1 - X0 - 36
    draw_text(draw, (X0 + 18, 14), title, DEAL_TITLE, GOLD, bold=True, max_width=room)
    draw_text(draw, (X0 + 18, 64), sub, DEAL_SMALL, GOOD if met else TEXT_DIM, max_width=room)
    return img


@part(T)
def _requirements_part(slots: list[dict], lang: str) -> Image.Image:
    """Each requirement with who fills it, flowing left to right and wrapping."""
    row_h = SQ + 14
    img, draw = canvas(W, (2 * len(slots) + 1) * row_h + 8)
    x, y = X0 + 18, 4

    def place(w: int) -> bool:
        """Room for an item `w` wide on this row, or the next (True)."""
        nonlocal x, y
        if x + w > X1 - 10:
            x = X0 + 18
            y += row_h
            return True
        return False

    for slot in slots:
        who = slot["who"]
        if slot["kind"] == "req":
            place(SQ + 12 + min(WHO_W, text_width(who or "—", font(DEAL_SMALL))) + 24)
            clan_square(draw, x, y, SQ, slot["clans"][0], lang, tick=bool(who))
            x += SQ + 10 + draw_text(draw, (x + SQ + 10, y + SQ / 2), who or "—", DEAL_SMALL,
                                     TEXT if who else TEXT_DIM, anchor="lm", max_width=WHO_W) + 24
            continue
        label = tk(lang, "render.any_of", k=slot["k"])
        lw = text_width(label, font(DEAL_SMALL, True)) + 10
        w = lw + len(slot["clans"]) * (SQ + 4) + 24
        who_w = min(WHO_W, text_width(who, font(DEAL_SMALL))) + 20 if who else 0
        place(min(w + who_w, X1 - X0 - 30))  # the box with its names on one row when they fit one
        draw.rounded_rectangle([x, y - 4, x + w - 16, y + SQ + 4], radius=8, outline=blend(LINE, WHITE, 0.2), width=2)
        draw_text(draw, (x + 6, y + SQ / 2), label, DEAL_SMALL, TEXT, bold=True, anchor="lm")
        for k, c in enumerate(slot["clans"]):
            clan_square(draw, x + lw + k * (SQ + 4), y, SQ, c, lang, tick=c in slot["filled"])
        x += w
        if who:  # close after its box, or at the start of the next row
            wx = x if place(who_w) else x - 6
            x = wx + draw_text(draw, (wx, y + SQ / 2), who, DEAL_SMALL, TEXT, anchor="lm", max_width=WHO_W) + 26
    return img.crop((0, 0, W, y + row_h + 6))


@part(T)
def _line_part(text: str, size: int, colour: list[int], bold: bool) -> Image.Image:
    img, draw = canvas(W, 42 if bold else 38)
    draw_text(draw, (X0 + 18, 0), text, size, tuple(colour), bold=bold)
    return img


@part(T)
def _row_part(clan: str, text: str, colour: list[int], cross: bool, lang: str) -> Image.Image:
    img, draw = canvas(W, SQ + 8)
    lx = X0 + 18
    clan_square(draw, lx, 0, SQ, clan, lang, cross=cross)
    draw_text(draw, (lx + SQ + 12, SQ / 2), text, DEAL_SMALL, tuple(colour), anchor="lm",
              max_width=X1 - lx - 18 - SQ - 12)
    return img


def _lists(view: dict, names: Sequence[str], lang: str) -> list[tuple]:
    """One column, full width, one thing per line (read at phone width): the offers (or, in a
    shared deal, the placards), then the clan cards on the table, then the travellers. Each is
    (False, (text, size, colour, bold)) for a line, or (True, (clan, text, colour, cross)) for a
    row beside a clan's square."""
    deal = view["deal"]
    out: list[tuple] = []

    def line(*item) -> tuple:
        return False, item

    def row(*item) -> tuple:
        return True, item

    if not view["shared"]:
        out.append(line(tk(lang, "render.offers"), DEAL_BODY, GOLD, True))
        if not deal["offers"]:
            out.append(line(tk(lang, "render.no_offers"), DEAL_SMALL, TEXT_DIM, False))
        for o in deal["offers"][:OFFER_ROWS]:
            state = o["state"]
            colour = GOOD if state == "accepted" else (GOLD if state == "inherited" else TEXT)
            out.append(row(o["clan"], f"{seat_name(names, o['seat'])} ({tk(lang, 'src.' + o['kind'])}) · "
                           f"{_price(lang, o)} · {tk(lang, 'render.' + state)}", colour, False))
        if len(deal["offers"]) > OFFER_ROWS:
            out.append(line(tk(lang, "render.more_offers", count=len(deal["offers"]) - OFFER_ROWS), DEAL_SMALL,
                            TEXT_DIM, False))
    else:
        out.append(line(tk(lang, "render.placards"), DEAL_BODY, GOLD, True))
        out += [row(s["clan"], seat_name(names, s["owner"]), TEXT, False)
                for s in deal["sources"] if s["kind"] == "placard"][:8]
    if deal["table"]:
        out.append(line(tk(lang, "render.table"), DEAL_BODY, GOLD, True))
        # clan cards grouped by clan so six players' cards fit
        by_clan: dict[str, list[int]] = {}
        for tc in deal["table"]:
            by_clan.setdefault(tc["clan"], []).append(tc["owner"])
        out += [row(c, join_list((seat_name(names, s) for s in by_clan[c]), lang), TEXT, False) for c in CLANS
                if c in by_clan]
    if deal["away"]:
        out.append(line(tk(lang, "render.away"), DEAL_BODY, GOLD, True))
        out += [row(a["clan"], f"{seat_name(names, a['owner'])} · {tk(lang, 'card.' + a['card'])}", TEXT_DIM, True)
                for a in deal["away"]]
    return out


def _window_text(win: dict, names: Sequence[str], lang: str) -> str:
    who = join_list((seat_name(names, s) for s in win["owing"]), lang) or "—"
    if win["kind"] != "reaction":
        return tk(lang, "render.window_last_call", seats=who)
    target = _window_target(win, names, lang)
    if target:
        return tk(lang, "render.window_target", seat=seat_name(names, win["by"]), card=win["card"], target=target,
                  seats=who)
    return tk(lang, "render.window_reaction", seat=seat_name(names, win["by"]), card=win["card"], seats=who)


@part(T)
def _window_part(text: str) -> Image.Image:
    """The open window (a card played, waiting for answers; the last call) on up to two lines."""
    lines = lines_at_most(text, X1 - X0 - 52, font(DEAL_SMALL, True), 2)
    line_h = DEAL_SMALL + 10
    h = 14 + line_h * len(lines)
    img, draw = canvas(W, 6 + h + 10)
    draw.rounded_rectangle([X0 + 10, 6, X1 - 10, 6 + h], radius=10, fill=blend(GOLD, BG, 0.75), outline=GOLD,
                           width=2)
    for k, line in enumerate(lines):
        draw_text(draw, (X0 + 26, 13 + line_h * k + line_h / 2), line, DEAL_SMALL, WHITE, bold=True, anchor="lm")
    return img


def _window_target(win: dict, names: Sequence[str], lang: str) -> str:
    """"Bob: Orange placard" for a travel or a recruit (a boss card has no target)."""
    target = win.get("target")
    if not target:
        return ""
    if win["card"] == "recruit":
        owner = win.get("target_owner")
        who = seat_name(names, owner) if owner is not None else tk(lang, "render.spares")
        return f"{who}: {tk(lang, 'clan.' + target)} {tk(lang, 'src.placard')}"
    parts = target.split(":")
    kind_ = parts[0]
    return f"{seat_name(names, win.get('target_owner'))}: {tk(lang, 'clan.' + parts[1])} {tk(lang, 'src.' + kind_)}"

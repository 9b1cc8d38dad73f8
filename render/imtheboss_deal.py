"""I'm the Boss!'s deal panel, below the board while a deal is open: the boss, the space and the
proceeds; each requirement and who fills it; the offers and their prices, the clan cards on
the table and the travellers, one per line; and the open window (a card played, the last
call). Its type is larger than the rest of the picture: it is what a player reads on a phone."""

from __future__ import annotations

from typing import Sequence

from PIL import ImageDraw

from engine.imtheboss.data import CLANS
from locales.format import join_list
from render.common import (
    GOLD,
    GOOD,
    TEXT,
    TEXT_DIM,
    WHITE,
    fit_name,
    font,
    lines_at_most,
    text_width,
)
from render.imtheboss_parts import (
    BG,
    LINE,
    MARGIN,
    SQ,
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


def deal_panel(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int) -> int:
    """The panel from `y0` down; returns its bottom."""
    y = _head(draw, view, names, lang, y0 + 14)
    y = _requirements(draw, view["deal"], names, lang, y)
    y = _lists(draw, view, names, lang, y) + 6
    if view.get("window") is not None:
        y = _window_banner(draw, view["window"], names, lang, y)
    return y + 6


def _head(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y: int) -> int:
    deal = view["deal"]

    def title(boss: str) -> str:
        return (f"{tk(lang, 'render.boss')}: {boss}  ·  {tk(lang, 'space.' + str(deal['space']))}  ·  "
                f"{tk(lang, 'render.proceeds', proceeds=deal['proceeds'])} ({deal['div']} × ${deal['value']}M)")

    room = X1 - X0 - 36
    draw_text(draw, (X0 + 18, y), fit_name(title, seat_name(names, deal["boss"]), room, font(DEAL_TITLE, True)),
              DEAL_TITLE, GOLD, bold=True, max_width=room)
    y += 50
    sub = []
    if deal["starter"] != deal["boss"]:
        sub.append(tk(lang, "render.starter", seat=seat_name(names, deal["starter"])))
    if view["shared"]:
        sub.append(tk(lang, "render.share", share=deal["share"]))
    else:
        sub.append(tk(lang, "render.room", total=deal["accepted_total"], room=deal["room"]))
    sub.append(tk(lang, "render.met") if deal["met"] else tk(lang, "render.not_met"))
    draw_text(draw, (X0 + 18, y), "  ·  ".join(sub), DEAL_SMALL, GOOD if deal["met"] else TEXT_DIM, max_width=room)
    return y + 44


def _requirements(draw: ImageDraw.ImageDraw, deal: dict, names: Sequence[str], lang: str, y: int) -> int:
    """Each requirement with who fills it, flowing left to right and wrapping."""
    owner_of = {s["src"]: s for s in deal["sources"]}
    x = X0 + 18
    row_h = SQ + 14

    def place(w: int) -> None:
        nonlocal x, y
        if x + w > X1 - 10:
            x = X0 + 18
            y += row_h

    for slot in deal["slots"]:
        filler = [owner_of[s] for s in slot["by"] if s in owner_of]
        who = join_list(sorted({seat_name(names, f["owner"]) for f in filler}), lang)
        if slot["kind"] == "req":
            who = who or "—"
            place(SQ + 12 + min(WHO_W, text_width(who, font(DEAL_SMALL))) + 24)
            clan_square(draw, x, y, SQ, slot["clans"][0], lang, tick=bool(filler))
            x += SQ + 10 + draw_text(draw, (x + SQ + 10, y + SQ / 2), who, DEAL_SMALL, TEXT if filler else TEXT_DIM,
                                     anchor="lm", max_width=WHO_W) + 24
            continue
        label = tk(lang, "render.any_of", k=slot["k"])
        lw = text_width(label, font(DEAL_SMALL, True)) + 10
        w = lw + len(slot["clans"]) * (SQ + 4) + 24
        place(w)
        draw.rounded_rectangle([x, y - 4, x + w - 16, y + SQ + 4], radius=8, outline=blend(LINE, WHITE, 0.2), width=2)
        draw_text(draw, (x + 6, y + SQ / 2), label, DEAL_SMALL, TEXT, bold=True, anchor="lm")
        for k, c in enumerate(slot["clans"]):
            clan_square(draw, x + lw + k * (SQ + 4), y, SQ, c, lang, tick=c in slot["filled"])
        x += w
        if who:
            place(min(WHO_W, text_width(who, font(DEAL_SMALL))) + 20)
            x += draw_text(draw, (x - 6, y + SQ / 2), who, DEAL_SMALL, TEXT, anchor="lm", max_width=WHO_W) + 20
    return y + row_h + 6


def _lists(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y: int) -> int:
    """One column, full width, one thing per line (read at phone width): the offers (or, in a
    shared deal, the placards), then the clan cards on the table, then the travellers."""
    deal = view["deal"]
    lx = X0 + 18
    width = X1 - lx - 18

    def row(clan: str, text: str, colour, cross: bool = False) -> None:
        nonlocal y
        clan_square(draw, lx, y, SQ, clan, lang, cross=cross)
        draw_text(draw, (lx + SQ + 12, y + SQ / 2), text, DEAL_SMALL, colour, anchor="lm", max_width=width - SQ - 12)
        y += SQ + 8

    def line(text: str, size: int, colour, bold: bool = False) -> None:
        nonlocal y
        draw_text(draw, (lx, y), text, size, colour, bold=bold)
        y += 42 if bold else 38

    if not view["shared"]:
        line(tk(lang, "render.offers"), DEAL_BODY, GOLD, True)
        if not deal["offers"]:
            line(tk(lang, "render.no_offers"), DEAL_SMALL, TEXT_DIM)
        for o in deal["offers"][:OFFER_ROWS]:
            state = o["state"]
            colour = GOOD if state == "accepted" else (GOLD if state == "inherited" else TEXT)
            row(o["clan"], f"{seat_name(names, o['seat'])} ({tk(lang, 'src.' + o['kind'])}) · {_price(lang, o)}"
                           f" · {tk(lang, 'render.' + state)}", colour)
        if len(deal["offers"]) > OFFER_ROWS:
            line(tk(lang, "render.more_offers", count=len(deal["offers"]) - OFFER_ROWS), DEAL_SMALL, TEXT_DIM)
    else:
        line(tk(lang, "render.placards"), DEAL_BODY, GOLD, True)
        for s in [s for s in deal["sources"] if s["kind"] == "placard"][:8]:
            row(s["clan"], seat_name(names, s["owner"]), TEXT)
    if deal["table"]:
        line(tk(lang, "render.table"), DEAL_BODY, GOLD, True)
        # clan cards grouped by clan so six players' cards fit
        by_clan: dict[str, list[int]] = {}
        for tc in deal["table"]:
            by_clan.setdefault(tc["clan"], []).append(tc["owner"])
        for c in CLANS:
            if c in by_clan:
                row(c, join_list((seat_name(names, s) for s in by_clan[c]), lang), TEXT)
    if deal["away"]:
        line(tk(lang, "render.away"), DEAL_BODY, GOLD, True)
        for a in deal["away"]:
            row(a["clan"], f"{seat_name(names, a['owner'])} · {tk(lang, 'card.' + a['card'])}", TEXT_DIM, cross=True)
    return y


def _window_banner(draw: ImageDraw.ImageDraw, win: dict, names: Sequence[str], lang: str, y: int) -> int:
    """The open window (a card played, waiting for answers; the last call) on up to two lines."""
    who = join_list((seat_name(names, s) for s in win["owing"]), lang) or "—"
    if win["kind"] == "reaction":
        target = _window_target(win, names, lang)
        if target:
            text = tk(lang, "render.window_target", seat=seat_name(names, win["by"]), card=win["card"],
                      target=target, seats=who)
        else:
            text = tk(lang, "render.window_reaction", seat=seat_name(names, win["by"]), card=win["card"], seats=who)
    else:
        text = tk(lang, "render.window_last_call", seats=who)
    lines = lines_at_most(text, X1 - X0 - 52, font(DEAL_SMALL, True), 2)
    line_h = DEAL_SMALL + 10
    h = 14 + line_h * len(lines)
    draw.rounded_rectangle([X0 + 10, y, X1 - 10, y + h], radius=10, fill=blend(GOLD, BG, 0.75), outline=GOLD, width=2)
    for k, line in enumerate(lines):
        draw_text(draw, (X0 + 26, y + 7 + line_h * k + line_h / 2), line, DEAL_SMALL, WHITE, bold=True, anchor="lm")
    return y + h + 10


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

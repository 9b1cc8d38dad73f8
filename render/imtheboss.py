"""I'm the Boss! pictures, drawn from engine views only.

The table is the board seen from above: the 16 deal spaces as a clockwise ring (A top left to
P), each with its required clans as big squares and its pools as "k x" boxes of small squares,
in the clans' colours with their initials (for colour-blind players), its dividends, and once
covered its deal card; the dollar marker is a gold frame with a coin. The middle of the ring holds
the top deal card (value per dividend, the die faces that end the game), the piles, the spare
placards and the deals made. During a deal a panel lists each requirement and who fills it, the
offers and their prices, the clan cards on the table, the travellers, the boss, the proceeds
and the open window. One card per player: placards, hand size, money (a bracket until the end).
The panel picture shows the seat's hand as cards.

Seats are told apart by name, never by colour: the six clan colours already fill the board.
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from engine.imtheboss.data import KINDS, SPACES
from render.common import (
    picture,
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
    fit_name,
    font,
    rounded,
    text_width,
)
from render.imtheboss_parts import (
    CARD_GAP,
    CARD_H,
    CARD_W,
    DARK_INK,
    GAP,
    MARGIN,
    SQ,
    W,
    blend,
    board_height,
    centre_box,
    clan_square,
    deal_card,
    draw_text,
    draw_tile,
    hand_card,
    money_text,
    seat_name,
    tile_box,
    tk,
)
from render.imtheboss_deal import DEAL_BODY, DEAL_SMALL, DEAL_TITLE, deal_panel  # noqa: F401 (DEAL_*: tests)
from render.palette import flat

# -- the ring ------------------------------------------------------------------------------------------


#: Where the centre's figures start (right of the deal card), and its list of deals.
CENTRE_TEXT_X = 216
HISTORY_Y = 262


def _centre(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, box) -> None:
    x0, y0, x1, y1 = box
    rounded(draw, box, radius=16, fill=blend(BG, PANEL, 0.5), outline=blend(LINE, BG, 0.4), width=2)
    deal_card(draw, x0 + 20, y0 + 20, view, lang)
    tx = x0 + CENTRE_TEXT_X
    room = x1 - tx - 14
    y = y0 + 18
    top = view.get("top")
    if top is not None:
        draw_text(draw, (tx, y), tk(lang, "render.deal_card", no=top["no"]), SIZE_LABEL, GOLD, bold=True, max_width=room)
        y += 44
        draw_text(draw, (tx, y), tk(lang, "render.per_div", value=top["value"]), SIZE_BODY, TEXT, max_width=room)
        y += 40
    draw_text(draw, (tx, y), tk(lang, "render.deals_done", count=view["deals"]), SIZE_BODY, TEXT, max_width=room)
    y += 40
    draw_text(draw, (tx, y), tk(lang, "render.draw_pile", count=view["draw_pile"]) + "  ·  "
              + tk(lang, "render.discard_pile", count=view["discard_pile"]), SIZE_SMALL, TEXT_DIM, max_width=room)
    y += 36
    draw_text(draw, (tx, y), tk(lang, "render.limit", limit=view["hand_limit"]), SIZE_SMALL, TEXT_DIM, max_width=room)
    y += 38
    if view["spares"]:
        label = tk(lang, "render.spares")
        x = tx + draw_text(draw, (tx, y + SQ / 2), label, SIZE_SMALL, TEXT_DIM, anchor="lm") + 10
        for c in view["spares"]:
            clan_square(draw, x, y, SQ, c, lang)
            x += SQ + 6
        y += SQ
    # the deals made, most recent first, in two columns
    hy = max(y0 + HISTORY_Y, y + 24)
    draw.line([x0 + 20, hy - 10, x1 - 20, hy - 10], fill=blend(LINE, BG, 0.3), width=2)
    draw_text(draw, (x0 + 20, hy), tk(lang, "render.history"), SIZE_SMALL, GOLD, bold=True)
    hist = view.get("history") or []
    line_h = SIZE_SMALL + 8
    rows = (y1 - hy - 50) // line_h
    cols = 1 if len(hist) <= rows else 2
    col_w = (x1 - x0 - 40) // cols
    items = list(reversed(hist))[: rows * cols]
    small = font(SIZE_SMALL)
    if not items:
        draw_text(draw, (x0 + 20, hy + 40), tk(lang, "render.none"), SIZE_SMALL, TEXT_DIM)
    for i, h in enumerate(items):
        cx = x0 + 20 + (i // rows) * col_w
        cy = hy + 40 + (i % rows) * line_h
        line = fit_name(lambda who, h=h: tk(lang, "render.deal_line", card=h["card"], space=h["space"], seat=who,
                                            proceeds=h["proceeds"]), seat_name(names, h["boss"]), col_w - 14, small)
        draw_text(draw, (cx, cy), line, SIZE_SMALL, TEXT, max_width=col_w - 12)


def _board(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int) -> int:
    for space in range(len(SPACES)):
        draw_tile(draw, view, space, tile_box(space, y0), lang)
    _centre(draw, view, names, lang, centre_box(y0))
    return y0 + board_height()


# -- the players -----------------------------------------------------------------------------------------

def _players(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int, places=None) -> int:
    n = len(view["seats"])
    cols = 2 if n > 1 else 1
    cw = (W - 2 * MARGIN - GAP * (cols - 1)) // cols
    ch = SQ + 66
    deal = view.get("deal")
    boss = deal["boss"] if deal else None
    active = set(view.get("to_act") or [])
    turn = view.get("active") if view["phase"] in ("turn_start", "moved", "discard") else None
    for i, sv in enumerate(view["seats"]):
        r, c = divmod(i, cols)
        x = MARGIN + c * (cw + GAP)
        y = y0 + r * (ch + GAP)
        hot = i in active and not view["over"]
        rounded(draw, (x, y, x + cw, y + ch), radius=12, fill=PANEL, outline=GOLD if hot else LINE, width=4 if hot else 2)
        tag = ""
        if places is not None and places[i] is not None:
            tag = tk(lang, "render.place", place=places[i])
        elif i == boss:
            tag = tk(lang, "render.boss")
        name = seat_name(names, i)
        nx = x + 16
        if tag:
            tw = text_width(tag, font(SIZE_SMALL, True)) + 18
            draw.rounded_rectangle([nx, y + 9, nx + tw, y + 45], radius=8,
                                   fill=GOLD if (i == boss or (places and places[i] == 1)) else PANEL_LIGHT)
            draw_text(draw, (nx + tw / 2, y + 27), tag, SIZE_SMALL, DARK_INK, bold=True, anchor="mm")
            nx += tw + 10
        colour = TEXT_DIM if sv["resigned"] else (GOLD if i == turn else TEXT)
        draw_text(draw, (nx, y + 27), name, SIZE_BODY, colour, bold=True, anchor="lm", max_width=cw - (nx - x) - 170)
        money = money_text(lang, sv)
        draw_text(draw, (x + cw - 16, y + 27), money, SIZE_BODY, GOLD, bold=True, anchor="rm")
        # placards and hand
        py = y + 54
        px = x + 16
        if sv["placards"]:
            for cl in sv["placards"]:
                clan_square(draw, px, py, SQ, cl, lang)
                px += SQ + 6
        else:
            draw_text(draw, (px, py + SQ / 2), tk(lang, "render.no_placards"), SIZE_SMALL, TEXT_DIM, anchor="lm")
        hand = tk(lang, "render.hand", count=sv["hand"])
        draw_text(draw, (x + cw - 16, py + SQ / 2), hand, SIZE_SMALL, TEXT_DIM, anchor="rm")
    rows = (n + cols - 1) // cols
    return y0 + rows * (ch + GAP)


# -- the pictures ------------------------------------------------------------------------------------------

def _status(view: dict, names: Sequence[str], lang: str) -> str:
    if view["over"]:
        return tk(lang, "render.results")
    phase = tk(lang, f"phase.{view['phase']}")
    who = view.get("to_act") or []
    if view["phase"] in ("turn_start", "moved", "discard", "marker") and who:
        return f"{phase} · {seat_name(names, who[0])}"
    return phase


def _flat(img: Image.Image) -> Image.Image:
    """Flat colours and text: a 256-colour palette looks the same and halves the encoding."""
    return flat(img)


def _table(view: dict, names: Sequence[str], lang: str, results: bool) -> Image.Image:
    img, draw = canvas(W, 2200)
    draw.rectangle([0, 0, W, 64], fill=PANEL)
    draw_text(draw, (24, 32), tk(lang, "name"), SIZE_TITLE - 6, GOLD, bold=True, anchor="lm", max_width=W // 2 - 40)
    draw_text(draw, (W - 24, 32), _status(view, names, lang), SIZE_BODY, TEXT_DIM, anchor="rm", max_width=W // 2)
    y = 80
    y = _board(draw, view, names, lang, y) + 12
    if view.get("deal") is not None and not results:
        top = y
        y = deal_panel(draw, view, names, lang, y)
        # frame the panel drawn above it
        draw.rounded_rectangle([MARGIN, top, W - MARGIN, y], radius=14, outline=GOLD, width=3)
        y += 12
    if not results:  # the results picture ranks the players below instead
        y = _players(draw, view, names, lang, y) + 8
    return img.crop((0, 0, W, y))


@picture(W)
def table_image(view: dict, names: list[str], lang: str) -> Image.Image:
    return _flat(_table(view, names, lang, results=False))


@picture(W)
def results_image(view: dict, names: list[str], lang: str) -> Image.Image:
    """The final board and every player's money, ranked."""
    board = _table(view, names, lang, results=True)
    res = view.get("results") or {}
    places = res.get("places") or [None] * len(view["seats"])
    money = res.get("money") or [s.get("money", 0) for s in view["seats"]]
    order = sorted(range(len(view["seats"])), key=lambda s: (places[s] is None, places[s] or 99, -money[s]))
    row = SQ + 20
    head = 80
    h = head + row * len(order) + 20
    img, draw = canvas(W, board.height + h)
    img.paste(board, (0, 0))
    y = board.height
    draw.rectangle([0, y, W, y + 64], fill=PANEL)
    draw_text(draw, (24, y + 32), tk(lang, "render.results"), SIZE_TITLE - 6, GOLD, bold=True, anchor="lm")
    y += head
    bosses: dict[int, int] = {}
    for hst in view.get("history") or []:
        bosses[hst["boss"]] = bosses.get(hst["boss"], 0) + 1
    for s in order:
        _result_row(draw, y, row - 8, s, places[s], money[s], bosses.get(s, 0), view, names, lang)
        y += row
    return _flat(img.crop((0, 0, W, y + 12)))


def _result_row(draw: ImageDraw.ImageDraw, y: int, h: int, s: int, place, money: int, bossed: int, view: dict,
                names: Sequence[str], lang: str) -> None:
    """One player's result, right to left: money, deals made as boss, placards; then the place
    and the name in the room left."""
    win = place == 1
    mid = y + h / 2
    rounded(draw, (MARGIN, y, W - MARGIN, y + h), radius=10, fill=blend(GOLD, BG, 0.7) if win else PANEL,
            outline=GOLD if win else LINE)
    x = W - MARGIN - 20
    x -= draw_text(draw, (x, mid), tk(lang, "render.money_exact", money=money), SIZE_LABEL, GOLD, bold=True,
                   anchor="rm") + 28
    if bossed:
        x -= draw_text(draw, (x, mid), tk(lang, "render.boss_deals", count=bossed), SIZE_SMALL, TEXT_DIM,
                       anchor="rm") + 20
    placards = view["seats"][s]["placards"]
    x -= len(placards) * (SQ + 6)
    for k, cl in enumerate(placards):
        clan_square(draw, x + k * (SQ + 6), mid - SQ / 2, SQ, cl, lang)
    draw_text(draw, (MARGIN + 20, mid), tk(lang, "render.place", place=place) if place else "—", SIZE_LABEL,
              GOLD if win else TEXT, bold=True, anchor="lm")
    draw_text(draw, (MARGIN + 110, mid), seat_name(names, s), SIZE_LABEL, WHITE if win else TEXT, bold=True,
              anchor="lm", max_width=x - MARGIN - 130)


# -- the hand ---------------------------------------------------------------------------------------------


#: The hand panel: six cards a row.
PER_ROW = 6
PANEL_W = MARGIN * 2 + PER_ROW * CARD_W + (PER_ROW - 1) * CARD_GAP


@picture(PANEL_W)
def panel_image(view: dict, names: list[str], lang: str) -> Image.Image | None:
    """The seat's hand as cards (one per kind with a count), its placards and exact money."""
    priv = view.get("private")
    me = view.get("me")
    if priv is None or me is None:
        return None
    kinds = priv.get("kinds") or {}
    order = [k for k in KINDS if kinds.get(k)]
    per_row = PER_ROW
    rows = max(1, (len(order) + per_row - 1) // per_row)
    width = PANEL_W
    height = 80 + rows * (CARD_H + CARD_GAP) + 70
    img, draw = canvas(width, height)
    draw.rectangle([0, 0, width, 64], fill=PANEL)
    total = sum(kinds.values())
    draw_text(draw, (24, 32), f"{tk(lang, 'render.your_hand')} · {tk(lang, 'render.hand', count=total)}",
              SIZE_LABEL, GOLD, bold=True, anchor="lm", max_width=width // 2)
    draw_text(draw, (width - 24, 32), tk(lang, "ui.money", money=priv.get("money", 0)), SIZE_LABEL, GOLD, bold=True,
              anchor="rm")
    y = 80
    if not order:
        draw_text(draw, (width / 2, y + 60), tk(lang, "render.empty_hand"), SIZE_BODY, TEXT_DIM, anchor="mm")
    for i, k in enumerate(order):
        r, c = divmod(i, per_row)
        hand_card(draw, MARGIN + c * (CARD_W + CARD_GAP), y + r * (CARD_H + CARD_GAP), k, kinds[k], lang)
    y += rows * (CARD_H + CARD_GAP) + 8
    sv = view["seats"][me]
    mid = y + SQ / 2
    x = MARGIN + 16 + draw_text(draw, (MARGIN + 8, mid), tk(lang, "render.placards"), SIZE_BODY, TEXT_DIM, anchor="lm")
    if not sv["placards"]:
        draw_text(draw, (x, mid), tk(lang, "render.no_placards"), SIZE_BODY, TEXT_DIM, anchor="lm")
    for cl in sv["placards"]:
        clan_square(draw, x, y, SQ, cl, lang)
        x += SQ + 6
    limit = tk(lang, "render.limit", limit=view["hand_limit"])
    draw_text(draw, (width - MARGIN - 8, mid), limit, SIZE_BODY, TEXT_DIM, anchor="rm")
    return _flat(img.crop((0, 0, width, y + SQ + 12)))

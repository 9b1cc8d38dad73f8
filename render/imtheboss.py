"""I'm the Boss! pictures, drawn from engine views only.

The table is the board seen from above: the 16 deal spaces as a clockwise ring (A top left to
P), each with its required clans as squares and its pools as "k x" boxes of squares, in the
clans' colours with their initials (for colour-blind players; at the phone floor, so every
square is 46 px and a ring row as tall as its tallest space needs), its dividends, and once
covered its deal card; the dollar marker is a gold frame, the space's letter on a gold coin.
The table is assembled from parts (render/compose.py): a space, the middle's two halves, each
line of the deal panel, each player's card. The middle of the ring holds
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
    T,
    W,
    blend,
    board_height,
    centre_box,
    clan_square,
    deal_card,
    draw_text,
    tile_picture,
    hand_card,
    money_text,
    seat_name,
    tile_box,
    tk,
)
from render.imtheboss_deal import DEAL_BODY, DEAL_SMALL, DEAL_TITLE, deal_parts  # noqa: F401 (DEAL_*: tests)
from render.compose import Sheet, part
from render.palette import flat

# -- the ring ------------------------------------------------------------------------------------------


#: Where the centre's figures start (right of the deal card), and its list of deals.
CENTRE_TEXT_X = 216
HISTORY_Y = 262


def _history_top(view: dict) -> int:
    """Where the list of deals made starts in the middle (below the figures and the spares)."""
    y = 18 + (84 if view.get("top") is not None else 0) + 114 + (SQ if view["spares"] else 0)
    return max(HISTORY_Y, y + 24)


def _middle_box(draw: ImageDraw.ImageDraw, w: int, h: int, top: int) -> None:
    """The middle's rounded panel, `w` x `h`, seen through a part that starts `top` px into it."""
    rounded(draw, (0, -top, w, h - top), radius=16, fill=blend(BG, PANEL, 0.5), outline=blend(LINE, BG, 0.4), width=2)


@part(T)
def _figures_part(view: dict, lang: str, size: list[int], cut: int) -> Image.Image:
    """The middle down to `cut`: the top deal card (its stack behind it), what it pays, the deals
    made so far, the piles, the hand limit, the spare placards."""
    w, h = size
    img, draw = canvas(w + 1, cut)
    _middle_box(draw, w, h, 0)
    deal_card(draw, 20, 20, view, lang)
    tx = CENTRE_TEXT_X
    room = w - tx - 14
    y = 18
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
    return img


@part(T)
def _history_part(history: list[dict], names: list[str], lang: str, size: list[int], cut: int) -> Image.Image:
    """The middle from `cut` down: the deals made, most recent first, in two columns when they
    do not fit one."""
    w, h = size
    img, draw = canvas(w + 1, h + 1 - cut)
    _middle_box(draw, w, h, cut)
    hy = 20
    draw.line([20, hy - 10, w - 20, hy - 10], fill=blend(LINE, BG, 0.3), width=2)
    draw_text(draw, (20, hy), tk(lang, "render.history"), SIZE_SMALL, GOLD, bold=True)
    line_h = SIZE_SMALL + 8
    rows = (h - cut - hy - 50) // line_h
    cols = 1 if len(history) <= rows else 2
    col_w = (w - 40) // cols
    items = list(reversed(history))[: rows * cols]
    small = font(SIZE_SMALL)
    if not items:
        draw_text(draw, (20, hy + 40), tk(lang, "render.none"), SIZE_SMALL, TEXT_DIM)
    for i, d in enumerate(items):
        line = fit_name(lambda who, d=d: tk(lang, "render.deal_line", card=d["card"], space=d["space"], seat=who,
                                            proceeds=d["proceeds"]), seat_name(names, d["boss"]), col_w - 14, small)
        draw_text(draw, (20 + (i // rows) * col_w, hy + 40 + (i % rows) * line_h), line, SIZE_SMALL, TEXT,
                  max_width=col_w - 12)
    return img


@part(T)
def _tile_part(space: int, card: int | None, lang: str, height: int, ticked: list[str], marker: bool) -> Image.Image:
    return tile_picture(space, card, lang, height, ticked, marker)


def _board(sheet: Sheet, view: dict, names: Sequence[str], lang: str, y0: int) -> int:
    """The ring's sixteen spaces and the middle, each a part of its own."""
    deal = view.get("deal")
    for space in range(len(SPACES)):
        x0, y, x1, y1 = tile_box(space, y0)
        ticked = sorted(deal["covered"]) if deal is not None and deal["space"] == space else []
        marker = view.get("marker") == space and not view["over"]
        sheet.paste(_tile_part(space, view["covered"][space], lang, y1 - y, ticked, marker), (x0, y))
    x0, y, x1, y1 = centre_box(y0)
    # the middle in two parts, each given only what it draws (the deal card's stack is drawn at
    # most three deep): the piles change every turn, the deals made only after a deal
    figures = {k: view[k] for k in ("top", "deals", "draw_pile", "discard_pile", "hand_limit", "spares")}
    figures["stack"] = view["stack"][:4]
    cut = _history_top(view) - 20
    size = [x1 - x0, y1 - y]
    sheet.paste(_figures_part(figures, lang, size, cut), (x0, y))
    sheet.paste(_history_part(view.get("history") or [], list(names), lang, size, cut), (x0, y + cut))
    return y0 + board_height()


# -- the players -----------------------------------------------------------------------------------------

#: A player's card: name, tag, money; placards and hand size.
CARD_ROW_H = SQ + 66


@part(T)
def _player_part(sv: dict, name: str, tag: str, gold_tag: bool, hot: bool, turn: bool, lang: str,
                 cw: int) -> Image.Image:
    ch = CARD_ROW_H
    img, draw = canvas(cw + 1, ch + 1)
    rounded(draw, (0, 0, cw, ch), radius=12, fill=PANEL, outline=GOLD if hot else LINE, width=4 if hot else 2)
    nx = 16
    if tag:
        tw = text_width(tag, font(SIZE_SMALL, True)) + 18
        draw.rounded_rectangle([nx, 9, nx + tw, 45], radius=8, fill=GOLD if gold_tag else PANEL_LIGHT)
        draw_text(draw, (nx + tw / 2, 27), tag, SIZE_SMALL, DARK_INK, bold=True, anchor="mm")
        nx += tw + 10
    colour = TEXT_DIM if sv["resigned"] else (GOLD if turn else TEXT)
    draw_text(draw, (nx, 27), name, SIZE_BODY, colour, bold=True, anchor="lm", max_width=cw - nx - 170)
    draw_text(draw, (cw - 16, 27), money_text(lang, sv), SIZE_BODY, GOLD, bold=True, anchor="rm")
    # placards and hand
    py = 54
    if sv["placards"]:
        for k, cl in enumerate(sv["placards"]):
            clan_square(draw, 16 + k * (SQ + 6), py, SQ, cl, lang)
    else:
        draw_text(draw, (16, py + SQ / 2), tk(lang, "render.no_placards"), SIZE_SMALL, TEXT_DIM, anchor="lm")
    draw_text(draw, (cw - 16, py + SQ / 2), tk(lang, "render.hand", count=sv["hand"]), SIZE_SMALL, TEXT_DIM,
              anchor="rm")
    return img


def _players(view: dict, names: Sequence[str], lang: str) -> list[tuple[Image.Image, tuple[int, int]]]:
    """Each player's card, with its place (two a row) relative to the section's top."""
    n = len(view["seats"])
    cols = 2 if n > 1 else 1
    cw = (W - 2 * MARGIN - GAP * (cols - 1)) // cols
    deal = view.get("deal")
    boss = deal["boss"] if deal else None
    active = set(view.get("to_act") or [])
    turn = view.get("active") if view["phase"] in ("turn_start", "moved", "discard") else None
    out = []
    for i, sv in enumerate(view["seats"]):
        r, c = divmod(i, cols)
        tag = tk(lang, "render.boss") if i == boss else ""
        card = _player_part(sv, seat_name(names, i), tag, i == boss, i in active and not view["over"], i == turn,
                            lang, cw)
        out.append((card, (MARGIN + c * (cw + GAP), r * (CARD_ROW_H + GAP))))
    return out


@part(T)
def _header_part(title: str, status: str) -> Image.Image:
    img, draw = canvas(W, 80)
    draw.rectangle([0, 0, W, 64], fill=PANEL)
    draw_text(draw, (24, 32), title, SIZE_TITLE - 6, GOLD, bold=True, anchor="lm", max_width=W // 2 - 40)
    draw_text(draw, (W - 24, 32), status, SIZE_BODY, TEXT_DIM, anchor="rm", max_width=W // 2)
    return img


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


def _table(view: dict, names: Sequence[str], lang: str, results: bool) -> Sheet:
    """The table as a sheet of parts: header, board, the deal (if one is open), the players
    (the results picture ranks them below instead)."""
    head = _header_part(tk(lang, "name"), _status(view, names, lang))
    deal = deal_parts(view, names, lang) if view.get("deal") is not None and not results else []
    # the panel's foot: 12 below its last line, 6 below the window's banner
    deal_h = sum(p.height for p in deal) + (6 if view.get("window") is not None else 12) if deal else 0
    players = [] if results else _players(view, names, lang)
    board_y = head.height
    deal_y = board_y + board_height() + 12
    players_y = deal_y + (deal_h + 12 if deal else 0)
    rows = -(-len(players) // 2) if len(players) > 1 else len(players)
    height = players_y + rows * (CARD_ROW_H + GAP) + (8 if players else 0)
    sheet = Sheet(T, W, height, BG)
    sheet.paste(head, (0, 0))
    _board(sheet, view, names, lang, board_y)
    y = deal_y
    for piece in deal:
        sheet.paste(piece, (0, y))
        y += piece.height
    if deal:
        sheet.frame((MARGIN, deal_y, W - MARGIN, deal_y + deal_h), GOLD, 3, 14)
    for card, (x, y) in players:
        sheet.paste(card, (x, players_y + y))
    return sheet


@picture(W)
def table_image(view: dict, names: list[str], lang: str) -> Image.Image:
    return _table(view, names, lang, results=False).img


@picture(W)
def results_image(view: dict, names: list[str], lang: str) -> Image.Image:
    """The final board and every player's money, ranked."""
    board = _table(view, names, lang, results=True).rgb()
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

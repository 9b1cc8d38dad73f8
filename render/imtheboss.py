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

from engine.imtheboss.data import CLANS, KINDS, SPACES
from locales.format import join_list
from render.common import (
    picture,
    BG,
    GOLD,
    GOOD,
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
    TILE_H,
    TILE_W,
    W,
    blend,
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
from render.palette import flat

# -- the ring ------------------------------------------------------------------------------------------















def _centre(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, box) -> None:
    x0, y0, x1, y1 = box
    rounded(draw, box, radius=16, fill=blend(BG, PANEL, 0.5), outline=blend(LINE, BG, 0.4), width=2)
    deal_card(draw, x0 + 20, y0 + 20, view, lang)
    tx = x0 + 200
    y = y0 + 22
    top = view.get("top")
    if top is not None:
        draw_text(draw, (tx, y), tk(lang, "render.deal_card", no=top["no"]), SIZE_LABEL, GOLD, bold=True)
        y += 40
        draw_text(draw, (tx, y), tk(lang, "render.per_div", value=top["value"]), SIZE_BODY, TEXT)
        y += 36
    draw_text(draw, (tx, y), tk(lang, "render.deals_done", count=view["deals"]), SIZE_BODY, TEXT)
    y += 36
    draw_text(draw, (tx, y), tk(lang, "render.draw_pile", count=view["draw_pile"]) + "   "
              + tk(lang, "render.discard_pile", count=view["discard_pile"]), SIZE_SMALL, TEXT_DIM, max_width=x1 - tx - 12)
    y += 32
    draw_text(draw, (tx, y), tk(lang, "render.limit", limit=view["hand_limit"]), SIZE_SMALL, TEXT_DIM)
    y += 34
    if view["spares"]:
        label = tk(lang, "render.spares")
        draw_text(draw, (tx, y + 15), label, SIZE_SMALL, TEXT_DIM, anchor="lm")
        x = tx + text_width(label, font(SIZE_SMALL)) + 10
        for c in view["spares"]:
            clan_square(draw, x, y, 30, c, lang)
            x += 36
    # the deals made, most recent first
    hy = y0 + 240
    draw.line([x0 + 20, hy - 8, x1 - 20, hy - 8], fill=blend(LINE, BG, 0.3), width=2)
    draw_text(draw, (x0 + 20, hy), tk(lang, "render.history"), SIZE_SMALL, GOLD, bold=True)
    hist = view.get("history") or []
    rows = (y1 - hy - 40) // 30
    col_w = (x1 - x0 - 40) // 2
    items = list(reversed(hist))[: rows * 2]
    if not items:
        draw_text(draw, (x0 + 20, hy + 34), tk(lang, "render.none"), SIZE_SMALL, TEXT_DIM)
    for i, h in enumerate(items):
        cx = x0 + 20 + (i // rows) * col_w
        cy = hy + 34 + (i % rows) * 30
        line = tk(lang, "render.deal_line", card=h["card"], space=h["space"], seat=seat_name(names, h["boss"]),
                  proceeds=h["proceeds"])
        draw_text(draw, (cx, cy), line, SIZE_SMALL, TEXT, max_width=col_w - 12)


def _board(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int) -> int:
    for space in range(len(SPACES)):
        draw_tile(draw, view, space, tile_box(space, y0), lang)
    cx0 = MARGIN + TILE_W + GAP
    cy0 = y0 + TILE_H + GAP
    box = (cx0, cy0, W - MARGIN - TILE_W - GAP, cy0 + 3 * TILE_H + 2 * GAP)
    _centre(draw, view, names, lang, box)
    return y0 + 5 * TILE_H + 4 * GAP


# -- the deal panel ------------------------------------------------------------------------------------

def _src_label(lang: str, names: Sequence[str], src: dict) -> str:
    return tk(lang, "render.src_label", seat=seat_name(names, src["owner"]), clan=tk(lang, "clan." + src["clan"]),
              kind=tk(lang, "src." + src["kind"]))


def _price(lang: str, offer: dict) -> str:
    ask = offer["ask"]
    if "div" in ask:
        return f"{tk(lang, 'render.dividends', count=ask['div'])} (${offer['usd']}M)"
    return f"${offer['usd']}M"


#: The deal's type, larger than the rest of the picture: it is what a player reads on a phone,
#: where the 1200-pixel picture is shown about 400 pixels wide.
DEAL_TITLE = 38
DEAL_BODY = 34
DEAL_SMALL = 30
#: Offers listed one per line; any more are counted.
OFFER_ROWS = 10


def _deal_panel(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int) -> int:
    deal = view["deal"]
    x0, x1 = MARGIN, W - MARGIN
    y = y0 + 14
    title = (f"{tk(lang, 'render.boss')}: {seat_name(names, deal['boss'])}  ·  "
             f"{tk(lang, 'space.' + str(deal['space']))}  ·  {tk(lang, 'render.proceeds', proceeds=deal['proceeds'])}"
             f" ({deal['div']} × ${deal['value']}M)")
    draw_text(draw, (x0 + 18, y), title, DEAL_TITLE, GOLD, bold=True, max_width=x1 - x0 - 36)
    y += 50
    sub = []
    if deal["starter"] != deal["boss"]:
        sub.append(tk(lang, "render.starter", seat=seat_name(names, deal["starter"])))
    if view["shared"]:
        sub.append(tk(lang, "render.share", share=deal["share"]))
    else:
        sub.append(tk(lang, "render.room", total=deal["accepted_total"], room=deal["room"]))
    sub.append(tk(lang, "render.met") if deal["met"] else tk(lang, "render.not_met"))
    draw_text(draw, (x0 + 18, y), "  ·  ".join(sub), DEAL_SMALL, GOOD if deal["met"] else TEXT_DIM,
              max_width=x1 - x0 - 36)
    y += 44
    # the requirements, each with who fills it
    owner_of = {s["src"]: s for s in deal["sources"]}
    x = x0 + 18
    row_h = 56
    for slot in deal["slots"]:
        if slot["kind"] == "req":
            c = slot["clans"][0]
            filler = [owner_of[s] for s in slot["by"] if s in owner_of]
            who = join_list(sorted({seat_name(names, f["owner"]) for f in filler}), lang) or "—"
            w = 46 + 12 + min(220, text_width(who, font(DEAL_SMALL))) + 24
            if x + w > x1 - 10:
                x = x0 + 18
                y += row_h
            clan_square(draw, x, y, 46, c, lang, tick=bool(filler))
            draw_text(draw, (x + 56, y + 23), who, DEAL_SMALL, TEXT if filler else TEXT_DIM, anchor="lm", max_width=220)
            x += w
        else:
            label = tk(lang, "render.any_of", k=slot["k"])
            lw = text_width(label, font(DEAL_SMALL, True)) + 10
            w = lw + len(slot["clans"]) * 44 + 24
            if x + w > x1 - 10:
                x = x0 + 18
                y += row_h
            draw.rounded_rectangle([x, y - 2, x + w - 16, y + 48], radius=8, outline=blend(LINE, WHITE, 0.2), width=2)
            draw_text(draw, (x + 6, y + 23), label, DEAL_SMALL, TEXT, bold=True, anchor="lm")
            cx = x + lw
            for c in slot["clans"]:
                clan_square(draw, cx, y + 3, 40, c, lang, tick=c in slot["filled"])
                cx += 44
            x += w
            filler = [owner_of[s] for s in slot["by"] if s in owner_of]
            who = join_list(sorted({seat_name(names, f["owner"]) for f in filler}), lang)
            if who:
                ww = min(220, text_width(who, font(DEAL_SMALL))) + 20
                if x + ww > x1 - 10:
                    x = x0 + 18
                    y += row_h
                draw_text(draw, (x - 6, y + 23), who, DEAL_SMALL, TEXT, anchor="lm", max_width=220)
                x += ww
    y += row_h + 6
    # one column, full width, one thing per line (read at phone width): offers, then the clan
    # cards on the table, then the travellers
    lx = x0 + 18
    width = x1 - lx - 18
    ly = y

    def row(clan: str, text: str, colour, cross: bool = False) -> None:
        nonlocal ly
        clan_square(draw, lx, ly, 34, clan, lang, cross=cross)
        draw_text(draw, (lx + 44, ly + 17), text, DEAL_SMALL, colour, anchor="lm", max_width=width - 44)
        ly += 42

    def head(key: str) -> None:
        nonlocal ly
        draw_text(draw, (lx, ly), tk(lang, key), DEAL_BODY, GOLD, bold=True)
        ly += 42

    if not view["shared"]:
        head("render.offers")
        if not deal["offers"]:
            draw_text(draw, (lx, ly), tk(lang, "render.no_offers"), DEAL_SMALL, TEXT_DIM)
            ly += 38
        for o in deal["offers"][:OFFER_ROWS]:
            state = o["state"]
            colour = GOOD if state == "accepted" else (GOLD if state == "inherited" else TEXT)
            row(o["clan"], f"{seat_name(names, o['seat'])} ({tk(lang, 'src.' + o['kind'])}) · {_price(lang, o)}"
                           f" · {tk(lang, 'render.' + state)}", colour)
        if len(deal["offers"]) > OFFER_ROWS:
            draw_text(draw, (lx, ly), tk(lang, "render.more_offers", count=len(deal["offers"]) - OFFER_ROWS),
                      DEAL_SMALL, TEXT_DIM)
            ly += 38
    else:
        head("render.placards")
        for s in [s for s in deal["sources"] if s["kind"] == "placard"][:8]:
            row(s["clan"], seat_name(names, s["owner"]), TEXT)
    if deal["table"]:
        head("render.table")
        # clan cards grouped by clan so six players' cards fit
        by_clan: dict[str, list[int]] = {}
        for tc in deal["table"]:
            by_clan.setdefault(tc["clan"], []).append(tc["owner"])
        for c in CLANS:
            if c in by_clan:
                row(c, join_list((seat_name(names, s) for s in by_clan[c]), lang), TEXT)
    if deal["away"]:
        head("render.away")
        for a in deal["away"]:
            row(a["clan"], f"{seat_name(names, a['owner'])} · {tk(lang, 'card.' + a['card'])}", TEXT_DIM, cross=True)
    y = ly + 6
    win = view.get("window")
    if win is not None:
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
        draw.rounded_rectangle([x0 + 10, y, x1 - 10, y + 52], radius=10, fill=blend(GOLD, BG, 0.75), outline=GOLD,
                               width=2)
        draw_text(draw, (x0 + 26, y + 26), text, DEAL_SMALL, WHITE, bold=True, anchor="lm", max_width=x1 - x0 - 52)
        y += 62
    return y + 6


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


# -- the players -----------------------------------------------------------------------------------------

def _players(draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str, y0: int, places=None) -> int:
    n = len(view["seats"])
    cols = 2 if n > 1 else 1
    cw = (W - 2 * MARGIN - GAP * (cols - 1)) // cols
    ch = 96
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
            draw.rounded_rectangle([nx, y + 12, nx + tw, y + 42], radius=8,
                                   fill=GOLD if (i == boss or (places and places[i] == 1)) else PANEL_LIGHT)
            draw_text(draw, (nx + tw / 2, y + 27), tag, SIZE_SMALL, DARK_INK, bold=True, anchor="mm")
            nx += tw + 10
        colour = TEXT_DIM if sv["resigned"] else (GOLD if i == turn else TEXT)
        draw_text(draw, (nx, y + 27), name, SIZE_BODY, colour, bold=True, anchor="lm", max_width=cw - (nx - x) - 170)
        money = money_text(lang, sv)
        draw_text(draw, (x + cw - 16, y + 27), money, SIZE_BODY, GOLD, bold=True, anchor="rm")
        # placards and hand
        py = y + 52
        px = x + 16
        if sv["placards"]:
            for cl in sv["placards"]:
                clan_square(draw, px, py, 32, cl, lang)
                px += 38
        else:
            draw_text(draw, (px, py + 16), tk(lang, "render.no_placards"), SIZE_SMALL, TEXT_DIM, anchor="lm")
            px += text_width(tk(lang, "render.no_placards"), font(SIZE_SMALL)) + 8
        hand = tk(lang, "render.hand", count=sv["hand"])
        draw_text(draw, (x + cw - 16, py + 16), hand, SIZE_SMALL, TEXT_DIM, anchor="rm")
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
        y = _deal_panel(draw, view, names, lang, y)
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
    row = 60
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
        p = places[s]
        win = p == 1
        rounded(draw, (MARGIN, y, W - MARGIN, y + row - 8), radius=10, fill=blend(GOLD, BG, 0.7) if win else PANEL,
                outline=GOLD if win else LINE)
        draw_text(draw, (MARGIN + 20, y + (row - 8) / 2), tk(lang, "render.place", place=p) if p else "—", SIZE_LABEL,
                  GOLD if win else TEXT, bold=True, anchor="lm")
        draw_text(draw, (MARGIN + 110, y + (row - 8) / 2), seat_name(names, s), SIZE_LABEL, WHITE if win else TEXT, bold=True,
                  anchor="lm", max_width=W - 2 * MARGIN - 540 - 38 * len(view["seats"][s]["placards"]))
        draw_text(draw, (W - MARGIN - 20, y + (row - 8) / 2), tk(lang, "render.money_exact", money=money[s]),
                  SIZE_LABEL, GOLD, bold=True, anchor="rm")
        if bosses.get(s):
            draw_text(draw, (W - MARGIN - 200, y + (row - 8) / 2), tk(lang, "render.boss_deals", count=bosses[s]),
                      SIZE_SMALL, TEXT_DIM, anchor="rm")
        x = W - MARGIN - 400 - 38 * len(view["seats"][s]["placards"])
        for cl in view["seats"][s]["placards"]:
            clan_square(draw, x, y + (row - 8) / 2 - 16, 32, cl, lang)
            x += 38
        y += row
    return _flat(img.crop((0, 0, W, y + 12)))


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
    label = tk(lang, "render.placards")
    draw_text(draw, (MARGIN + 8, y + 20), label, SIZE_BODY, TEXT_DIM, anchor="lm")
    x = MARGIN + 16 + text_width(label, font(SIZE_BODY))
    if not sv["placards"]:
        draw_text(draw, (x, y + 20), tk(lang, "render.no_placards"), SIZE_BODY, TEXT_DIM, anchor="lm")
    for cl in sv["placards"]:
        clan_square(draw, x, y + 2, 36, cl, lang)
        x += 42
    limit = tk(lang, "render.limit", limit=view["hand_limit"])
    draw_text(draw, (width - MARGIN - 8, y + 20), limit, SIZE_BODY, TEXT_DIM, anchor="rm")
    return _flat(img.crop((0, 0, width, y + 50)))

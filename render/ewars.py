"""E-Wars pictures: the public table, a seat's private panel, and the final results.

Drawn from engine views only. Shapes (dice pips, the bell, the star, reach diagrams) are
drawn, never font glyphs, so they look the same everywhere. Sizes follow render.common's
phone rule: 1200 px wide at most, text at least SIZE_SMALL.

Table layouts:
  - live (dice time, dispatch, or no contract yet): the grid on the left, one card per
    player on the right (dice with pips, claims, hand size, discards, score);
  - after a contract (waiting for the bell, game over): the last contract's board (revealed
    employees with rank label and reach diagram, the reach of every ability that removed
    someone, removed employees crossed out, captured cards framed in the winner's colour)
    beside the table as it is now, and the players below.
"""

from __future__ import annotations

from typing import Any, Sequence

from PIL import Image, ImageDraw

from engine.ewars.data import HIGH_TO_LOW
from locales.format import separator
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
    canvas,
    font,
    rounded,
    seat_colour,
    lines_at_most,
)
from render.ewars_parts import (
    WIDTH,
    tk,
    contrast,
    draw_text,
    name_of,
    seat_die,
    bell,
    employee_card,
    property_card,
    axes,
    board_geometry,
    live_board,
    live_cell,
    contract_board,
)
from render.compose import Sheet, part
from render.ewars_seats import paste_seat, pill, ranks_text, seat_card_extra
from render.palette import flattened

T = "ewars"


# -- the table ---------------------------------------------------------------------------------

def _banner_text(view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    phase = view.get("phase")
    text = tk(lang, f"phase.{phase}")
    if phase == "await_start":
        text = tk(lang, "render.banner_wait", name=name_of(names, view["parent"]))
    elif phase == "over":
        winners = view.get("winners") or []
        if winners:
            sep = separator(lang)
            key = "render.winners" if len(winners) > 1 else "render.winner"
            text = f"{text} · " + tk(lang, key, names=sep.join(name_of(names, w) for w in winners))
    return text


@part(T)
def _top_part(phase: str, banner: str, round_: int, deck: int, lang: str) -> Image.Image:
    """The header (the title, the round, the deck) and the banner saying what happens now."""
    img, draw = canvas(WIDTH, 121)
    draw.rectangle([0, 0, WIDTH, 64], fill=PANEL)
    draw_text(draw, (24, 32), tk(lang, "name"), SIZE_TITLE - 8, GOLD, bold=True, anchor="lm", max_width=720)
    sub = f"{tk(lang, 'render.round', round=round_)} · {tk(lang, 'render.deck', count=deck)}"
    draw_text(draw, (WIDTH - 24, 32), sub, SIZE_BODY, TEXT, anchor="rm", max_width=420)
    fill, ink = {"dice": (GOLD, (40, 32, 10)), "dispatch": ((72, 110, 170), (250, 250, 250)),
                 "over": ((120, 80, 150), (250, 250, 250))}.get(phase, (PANEL_LIGHT, TEXT))
    draw.rectangle([0, 64, WIDTH, 120], fill=fill)
    if phase in ("await_start", "dice"):
        bell(draw, 40, 94, 15, fill=ink)
    draw_text(draw, (70, 92), banner, SIZE_LABEL, ink, bold=True, anchor="lm", max_width=WIDTH - 100)
    return img


def _top(view: dict[str, Any], names: Sequence[str], lang: str) -> Image.Image:
    return _top_part(view.get("phase"), _banner_text(view, names, lang), view["round"], view["deck"], lang)


#: Room above a board's cells for its column numbers (their tops reach 34 px up).
AXES_TOP = 36


@part(T)
def _axes_part(rows: int, cols: int, cell: int) -> Image.Image:
    img, draw = canvas(30 + cols * cell, AXES_TOP + rows * cell)
    axes(draw, 30, AXES_TOP, cell, rows, cols)
    return img


@part(T)
def _cell_part(c: dict[str, Any] | None, cell: int, lang: str) -> Image.Image:
    img, draw = canvas(cell + 1, cell + 1)
    pad = max(4, cell // 24)
    live_cell(draw, (pad, pad, cell - pad, cell - pad), c, None, None, lang)
    return img


def _board(sheet: Sheet, x: int, y: int, width: int, view: dict[str, Any], max_cell: int, lang: str) -> None:
    """The table as it is (`render.ewars_parts.live_board`), its axes and each card a part: a
    claim or an employee draws one card again."""
    rows, cols = view["rows"], view["cols"]
    bx, by, cell = board_geometry(x, y, width, rows, cols, max_cell)
    sheet.paste(_axes_part(rows, cols, cell), (bx - 30, by - AXES_TOP))
    for i, c in enumerate(view["grid"]):
        r, col = divmod(i, cols)
        sheet.paste(_cell_part(c, cell, lang), (bx + col * cell, by + r * cell))


@part(T)
def _contract_part(last: dict[str, Any], lang: str, half: int, cell: int) -> Image.Image:
    """The last contract's board (its abilities, who was removed, who won what) with its title."""
    board_h = 30 + last["rows"] * cell
    img, draw = canvas(half + 8, 40 + board_h + 1)
    draw_text(draw, (4 + half / 2, 16), tk(lang, "render.last_contract", round=last["round"]), SIZE_BODY, GOLD,
              bold=True, anchor="mm", max_width=half - 10)
    contract_board(img, 0, 40, half, last, lang, max_cell=cell)
    return img


@part(T)
def _next_title_part(lang: str, half: int) -> Image.Image:
    img, draw = canvas(half, 40)
    draw_text(draw, (half / 2, 16), tk(lang, "render.next_table"), SIZE_BODY, TEXT, bold=True, anchor="mm",
              max_width=half - 10)
    return img


#: The table's PNG bands (`render.pngband`): at most 80 rows, not 64. A move mostly changes a card
#: of the grid (156 rows: two bands, not three) and a seat's dice row; on the bench's tables the
#: median PNG is 0.7-0.9% smaller, and no slower to make (fewer bands, each started afresh).
BAND = 80


@picture(WIDTH)
def table_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    last = view.get("last")
    if view.get("phase") in ("await_start", "over") and last:
        return _after_contract(view, names, lang, last).img
    return _live(view, names, lang).img


def _live(view: dict[str, Any], names: list[str], lang: str) -> Sheet:
    n = len(view["seats"])
    board_w = 650
    card_h = (150 if view.get("phase") == "dice" else 130) + seat_card_extra(view, lang, WIDTH - 14 - board_w)
    rows = view["rows"]
    height = max(64 + 56 + 20 + 30 + rows * 155 + 20, 64 + 56 + 20 + n * (card_h + 12) + 8)
    sheet = Sheet(T, WIDTH, height, BG, band=BAND)
    sheet.paste(_top(view, names, lang), (0, 0))
    y = 64 + 56 + 16
    _board(sheet, 12, y, board_w - 20, view, 155, lang)
    active = set(view.get("to_act", [])) if view.get("phase") != "dice" else set()
    show_dice = view.get("phase") == "dice"
    for s in range(n):
        paste_seat(sheet, (board_w, y + s * (card_h + 12)), view, names, lang, s, [WIDTH - 14 - board_w, card_h],
              s in active, show_dice)
    return sheet


def _after_contract(view: dict[str, Any], names: list[str], lang: str, last: dict[str, Any]) -> Sheet:
    n = len(view["seats"])
    half = (WIDTH - 36) // 2
    cell = min(130, (half - 30) // max(last["cols"], view["cols"]))
    board_h = 30 + max(last["rows"], view["rows"]) * cell
    per_row = 2 if n == 4 else n
    card_h = 120 + seat_card_extra(view, lang, (WIDTH - 24 - 12 * (per_row - 1)) // per_row)
    seat_rows = (n + per_row - 1) // per_row
    height = 64 + 56 + 14 + 40 + board_h + 20 + seat_rows * (card_h + 12) + 8
    sheet = Sheet(T, WIDTH, height, BG, band=BAND)
    sheet.paste(_top(view, names, lang), (0, 0))
    y = 64 + 56 + 14
    sheet.paste(_contract_part(last, lang, half, cell), (8, y))
    sheet.paste(_next_title_part(lang, half), (24 + half, y))
    y += 40
    _board(sheet, 24 + half, y, half, view, cell, lang)
    sheet.line((12 + half + 6, y, 12 + half + 6, y + board_h), LINE, 2)
    y += board_h + 20
    w = (WIDTH - 24 - 12 * (per_row - 1)) // per_row
    active = set(view.get("to_act", []))
    won = last.get("won") or [0] * n
    for s in range(n):
        r, c = divmod(s, per_row)
        paste_seat(sheet, (12 + c * (w + 12), y + r * (card_h + 12)), view, names, lang, s, [w, card_h], s in active, False,
              won[s])
    return sheet


# -- the private panel -------------------------------------------------------------------------

PANEL_W = 1000


@picture(PANEL_W)
@flattened
def panel_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image | None:
    me = view.get("me")
    priv = view.get("private")
    if me is None or priv is None or view.get("over"):
        return None
    width = PANEL_W
    phase = view.get("phase")
    hand = priv.get("hand", [])
    counts: dict[str, int] = {}
    for r in hand:
        counts[r] = counts.get(r, 0) + 1
    rows = _hand_rows(counts, lang)
    top_h = 0
    if phase == "dice":
        top_h = 300
    elif phase == "dispatch":
        top_h = max(290, 30 + view["rows"] * 100 + 30)
    hand_h = 70 + (sum(h for _r, _label, _lines, h in rows) if rows else 80)
    img, draw = canvas(width, 70 + top_h + hand_h + 20)
    draw.rectangle([0, 0, width, 64], fill=PANEL)
    draw.rectangle([0, 0, 12, 64], fill=seat_colour(me))
    pw = draw_text(draw, (width - 24, 32), tk(lang, f"phase.{phase}"), SIZE_BODY, GOLD, bold=True, anchor="rm",
                   max_width=420)
    draw_text(draw, (30, 32), name_of(names, me), SIZE_LABEL, TEXT, bold=True, anchor="lm", max_width=width - 84 - pw)
    if phase == "dice":
        _panel_dice(draw, view, priv, me, lang, 80)
    elif phase == "dispatch":
        _panel_dispatch(img, draw, view, priv, me, lang, 80)
    _panel_hand(draw, priv, me, rows, len(hand), lang, 80 + top_h)
    return img


def _panel_dice(draw: ImageDraw.ImageDraw, view: dict[str, Any], priv: dict[str, Any], me: int, lang: str,
                y: int) -> None:
    """Your dice, and the cards you may claim with them."""
    grid = {c["pos"]: c for c in view["grid"] if c is not None}
    dice = view["seats"][me].get("dice") or []
    draw_text(draw, (24, y + 14), tk(lang, "render.your_dice"), SIZE_BODY, TEXT, bold=True, anchor="lm")
    y += 36
    if dice:
        for k, f in enumerate(dice):
            seat_die(draw, 24 + k * 100, y, 84, f, me)
    else:
        draw_text(draw, (24, y + 40), tk(lang, "render.no_dice"), SIZE_BODY, TEXT_DIM, anchor="lm")
    y += 100
    claim = priv.get("claimable", [])
    draw_text(draw, (24, y + 14), tk(lang, "render.can_claim"), SIZE_BODY, TEXT, bold=True, anchor="lm")
    y += 34
    if not claim:
        draw_text(draw, (24, y + 30), tk(lang, "render.nothing_claimable"), SIZE_BODY, TEXT_DIM, anchor="lm",
                  max_width=PANEL_W - 48)
    for k, pos in enumerate(claim[:8]):
        x = 24 + k * 120
        property_card(draw, (x, y + 26, x + 110, y + 110), grid[pos]["faces"])
        draw_text(draw, (x + 55, y + 12), pos, SIZE_BODY, GOLD, bold=True, anchor="mm")


def _panel_dispatch(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], priv: dict[str, Any], me: int,
                    lang: str, y: int) -> None:
    """Your claimed cards on the left (sent ones show your face-up rank), and the whole table on
    the right: where your employees go decides what they hit."""
    grid = {c["pos"]: c for c in view["grid"] if c is not None}
    colour = seat_colour(me)
    mine = {p["pos"]: p["rank"] for p in priv.get("placed", [])}
    chosen = {p["pos"]: p["rank"] for p in priv.get("picks", [])}
    owed = priv.get("owed", [])
    draw_text(draw, (24, y + 14), tk(lang, "render.your_claims"), SIZE_BODY, TEXT, bold=True, anchor="lm",
              max_width=PANEL_W - 490)
    cy = y + 40
    for k, pos in enumerate(sorted(set(owed) | set(mine))):
        c = grid.get(pos)
        if c is None:
            continue
        x = 24 + (k % 3) * 170
        draw_text(draw, (x + 75, cy + 14), pos, SIZE_BODY, GOLD, bold=True, anchor="mm")
        box = (x, cy + 34, x + 150, cy + 184)
        if pos in mine or pos in chosen:
            # Sent (confirmed), or chosen and still changeable until the Confirm.
            property_card(draw, box, c["faces"], None, small_faces=True)
            employee_card(draw, (x + 24, cy + 34 + 150 * 0.36, x + 126, cy + 34 + 150 * 0.95), me,
                          mine.get(pos) or chosen[pos], lang)
            if pos not in mine:
                pill(draw, x + 16, cy + 210, tk(lang, "render.chosen"), PANEL_LIGHT, TEXT)
        else:
            property_card(draw, box, c["faces"], me)
            pill(draw, x + 16, cy + 210, tk(lang, "render.to_send"), colour, contrast(colour))
    live_board(img, draw, PANEL_W - 450, y, 440, view, max_cell=100, mine=mine, lang=lang)


#: A hand row: the rank's name, and below it what the rank does (wrapped).
HAND_LINE = SIZE_SMALL + 6


def _hand_rows(counts: dict[str, int], lang: str) -> list[tuple[str, str, list[str], int]]:
    """(rank, label, reach lines, row height) for each rank in the hand, strongest first."""
    rows = []
    for r in (r for r in HIGH_TO_LOW if r in counts):
        label = tk(lang, f"rank.{r}") + (f" ×{counts[r]}" if counts[r] > 1 else "")
        lines = lines_at_most(tk(lang, f"reach.{r}"), PANEL_W - 130, font(SIZE_SMALL), 3)
        rows.append((r, label, lines, max(76, 48 + HAND_LINE * len(lines))))
    return rows


def _panel_hand(draw: ImageDraw.ImageDraw, priv: dict[str, Any], me: int, rows: list, count: int, lang: str,
                y: int) -> None:
    """The hand, with each rank's reach."""
    draw.line([24, y, PANEL_W - 24, y], fill=LINE, width=2)
    y += 14
    hw = draw_text(draw, (24, y + 16), tk(lang, "render.your_hand", count=count), SIZE_BODY, TEXT, bold=True,
                   anchor="lm")
    disc = priv.get("discards", [])
    if disc:
        dtext = tk(lang, "render.discard_list", list=ranks_text(disc, lang))
        draw_text(draw, (PANEL_W - 24, y + 16), dtext, SIZE_SMALL, TEXT_DIM, anchor="rm", max_width=PANEL_W - 72 - hw)
    y += 48
    if not rows:
        for k, line in enumerate(lines_at_most(tk(lang, "render.empty_hand"), PANEL_W - 60, font(SIZE_BODY), 2)):
            draw_text(draw, (24, y + 14 + k * 36), line, SIZE_BODY, TEXT_DIM, anchor="lm")
    for r, label, lines, h in rows:
        employee_card(draw, (24, y, 88, y + 64), me, r, lang, label=False)
        draw_text(draw, (106, y + 16), label, SIZE_BODY, TEXT, bold=True, anchor="lm", max_width=PANEL_W - 130)
        for k, line in enumerate(lines):
            draw_text(draw, (106, y + 52 + k * HAND_LINE), line, SIZE_SMALL, TEXT_DIM, anchor="lm")
        y += h


# -- results -----------------------------------------------------------------------------------

@picture(WIDTH)
@flattened
def results_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    n = len(view["seats"])
    scores = [s["score"] for s in view["seats"]]
    order = sorted(range(n), key=lambda s: -scores[s])
    winners = set(view.get("winners") or [s for s in range(n) if scores[s] == max(scores)])
    left = sum(1 for c in view["grid"] if c is not None)
    row_h = 84
    board_w = 520
    rows = view["rows"]
    board_h = 30 + rows * 120 + 40
    height = 64 + 20 + max(n * (row_h + 10) + 60, board_h) + 20
    img, draw = canvas(WIDTH, height)
    draw.rectangle([0, 0, WIDTH, 64], fill=PANEL)
    draw_text(draw, (24, 32), tk(lang, "name"), SIZE_TITLE - 8, GOLD, bold=True, anchor="lm", max_width=760)
    draw_text(draw, (WIDTH - 24, 32), tk(lang, "render.results"), SIZE_BODY, TEXT, anchor="rm", max_width=380)
    y = 84
    top = max(scores) if scores else 0
    for s in order:
        place = 1 + sum(1 for o in scores if o > scores[s])
        colour = seat_colour(s)
        box = (20, y, WIDTH - board_w - 40, y + row_h)
        rounded(draw, box, radius=14, fill=PANEL, outline=GOLD if s in winners else LINE, width=4 if s in winners else 2)
        draw.rounded_rectangle([box[0], box[1], box[0] + 12, box[3]], radius=4, fill=colour)
        medal = GOLD if place == 1 else ((192, 192, 200) if place == 2 else ((205, 127, 50) if place == 3 else LINE))
        draw.ellipse([box[0] + 28, y + 18, box[0] + 76, y + 66], fill=medal)
        draw_text(draw, (box[0] + 52, y + 42), str(place), SIZE_LABEL, (30, 30, 36), bold=True, anchor="mm")
        draw_text(draw, (box[0] + 96, y + 42), name_of(names, s), SIZE_LABEL, TEXT, bold=True, anchor="lm",
                  max_width=int(box[2] - box[0] - 300))
        bar_w = int(160 * scores[s] / top) if top else 0
        draw.rounded_rectangle([box[2] - 200, y + 52, box[2] - 200 + max(bar_w, 6), y + 66], radius=6, fill=colour)
        draw_text(draw, (box[2] - 20, y + 30), tk(lang, "result", cards=scores[s]), SIZE_LABEL, GOLD, bold=True,
                  anchor="rm")
        y += row_h + 10
    key = "render.winners" if len(winners) > 1 else "render.winner"
    sep = separator(lang)
    draw_text(draw, (24, y + 24), tk(lang, key, names=sep.join(name_of(names, s) for s in sorted(winners))), SIZE_BODY, GOLD,
              bold=True, anchor="lm", max_width=WIDTH - board_w - 70)
    bx = WIDTH - board_w - 10
    draw_text(draw, (bx + board_w / 2, 100), tk(lang, "render.cards_left", count=left), SIZE_BODY, TEXT_DIM,
              anchor="mm", max_width=board_w - 20)
    live_board(img, draw, bx, 124, board_w, view, max_cell=120, lang=lang)
    return img

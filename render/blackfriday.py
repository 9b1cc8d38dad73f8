"""Black Friday pictures, drawn from engine views only (the pieces: render/blackfriday_parts.py).

table_image: the board: the price table with its level bands and five markers, the current
prices, the level card, every table with its briefcases (blacks too), the market, the bag, the
Wall Street Journal stock, the silver track with the silver bought since the last adjustment,
and each player's public line (start player, special options left, owed-interest flag).
Holdings and money are private and never drawn here.
panel_image: one seat's private holdings, money, subsidies, silver and gold, special card;
results_image: the final standings and the price history (both in render/blackfriday_panels.py).
The board is assembled from parts (render/compose.py), each drawn again only when it changes.
"""

from __future__ import annotations


from PIL import Image

from engine.blackfriday.data import COLOURS
from render.common import (
    picture,
    BAD,
    BG,
    GOLD,
    LINE,
    PANEL,
    SIZE_BODY,
    SIZE_SMALL,
    TEXT,
    TEXT_DIM,
    canvas,
    chip,
    font,
    header,
    lines_at_most,
    rounded,
    seat_colour,
    wrap,
)
from render.blackfriday_parts import (
    CELL_H,
    CELL_W,
    GRID_W,
    LABEL_W,
    MARKET_GROUP_W,
    MARKET_H,
    MARKET_X1,
    PRICE_X,
    PRICES_H,
    STOCK_ROW,
    STOCKS_H,
    TRACK_H,
    W,
    cell_box,
    changes,
    draw_bag,
    draw_last_draw,
    draw_level,
    draw_market_group,
    draw_market_panel,
    draw_price_grid,
    draw_silver,
    draw_stock,
    draw_table,
    draw_text,
    draw_track,
    draw_track_head,
    last_draw_height,
    level_label,
    markers_at,
    name_of,
    options_text,
    plain,
    price_cell,
    table_panels,
    tk,
)
from render.blackfriday_panels import panel_image, results_image  # noqa: F401 (the title's renderer API)
from render.compose import Sheet, part

T = "blackfriday"

def _player_cards(view: dict, names, lang: str) -> tuple[list[list[tuple[str, tuple]]], int, float]:
    """Each seat's lines below its name (start player, unused special options or "special card
    used"; long lines wrap rather than being cut), the height every card takes (the tallest),
    and their width. The options are wrapped whole (the card grows to hold them: the table is
    where rivals read what a player can still do)."""
    seats = view["seats"]
    n = len(seats)
    w = (W - 32 - 10 * (n - 1)) / n
    small = font(SIZE_SMALL)
    cards = []
    for s in seats:
        entries = []
        if s.get("start"):
            entries.append(("★ " + tk(lang, "render.start_player"), GOLD))
        if s["cards"]:
            entries.append((options_text(s["cards"], lang), TEXT_DIM))
        elif not s.get("start"):
            entries.append((tk(lang, "render.special_spent"), TEXT_DIM))
        # Each wraps: the start player on two lines at most, the options on as many as they take.
        cards.append([(plain(line), colour) for text, colour in entries
                      for line in (lines_at_most(text, int(w - 24), small, 2) if text.startswith("★")
                                   else wrap(text, int(w - 24), small))])
    line_h = SIZE_SMALL + 5
    h = max(132, max(52 + line_h * len(lines) + DEBT_LINE * len(_debt_lines(s, w, lang)) + 12
                     for lines, s in zip(cards, seats)))
    return cards, h, w


#: A line of the "owes interest" mark (a red square, then the words).
DEBT_LINE = 30


def _debt_lines(seat: dict, w: float, lang: str) -> list[str]:
    """"Owes interest" beside its square, wrapped in the card's width (a 5-player card is narrow:
    "debe intereses" takes two lines there)."""
    return lines_at_most(tk(lang, "render.debt"), int(w - 56), font(SIZE_SMALL), 2) if seat["debt"] else []


@part(T)
def _player_part(seat: int, name: str, lines: list, debt: list, active: bool, h: int, w: float) -> Image.Image:
    """One seat's card: name, start player, unused special options, owed interest."""
    img, draw = canvas(int(w) + 2, h + 1)
    rounded(draw, (0, 0, w, h), fill=PANEL, outline=GOLD if active else LINE, width=4 if active else 2)
    chip(draw, (22, 26), 11, seat_colour(seat))
    draw_text(draw, (40, 26), name, SIZE_BODY, TEXT, bold=True, anchor="lm", max_width=int(w - 52))
    y = 52
    for line, colour in lines:
        draw_text(draw, (14, y), line, SIZE_SMALL, tuple(colour), max_width=int(w - 24))
        y += SIZE_SMALL + 5
    if debt:
        draw.rectangle([14, y + 4, 34, y + 24], fill=(90, 40, 40), outline=BAD, width=2)
    for k, line in enumerate(debt):
        draw_text(draw, (42, y + 14 + k * DEBT_LINE), line, SIZE_SMALL, BAD, anchor="lm", max_width=int(w - 56))
    return img


SIDE_X = 16 + GRID_W + 20
SIDE_W = W - 16 - SIDE_X


@part(T)
def _header_part(title: str, sub: str) -> Image.Image:
    img, draw = canvas(W, 80)
    header(draw, W, title, sub)
    return img


@part(T)
def _price_grid_part(lang: str) -> Image.Image:
    img, draw = canvas(GRID_W + 1, PRICES_H)
    draw_price_grid(img, draw, lang)
    return img


@part(T)
def _price_cell_part(row: int, col: int, markers: list[str]) -> Image.Image:
    img, draw = canvas(CELL_W + 1, CELL_H + 1)
    price_cell(draw, row, col, markers)
    return img


@part(T)
def _level_label_part(level: int, lang: str) -> Image.Image:
    img, draw = canvas(LABEL_W + 1, CELL_H + 1)
    level_label(draw, level, lang)
    return img


def _prices(sheet: Sheet, x0: int, y0: int, view: dict, lang: str) -> None:
    """The price table: printed once per language; the cells holding markers and the current
    level's label drawn over it, then the level's gold frame."""
    sheet.paste(_price_grid_part(lang), (x0, y0))
    for (row, col), markers in markers_at(view["prices"]).items():
        cx, cy = cell_box(row, col)
        sheet.paste(_price_cell_part(row, col, markers), (x0 + cx, y0 + cy))
    lx, ly = cell_box(view["level"], 0)
    sheet.paste(_level_label_part(view["level"], lang), (x0, y0 + ly))
    sheet.frame((x0, y0 + ly, x0 + GRID_W, y0 + ly + CELL_H), GOLD, 3, 0)


@part(T)
def _level_part(level: int, limits: dict, lang: str) -> Image.Image:
    img, draw = canvas(SIDE_W + 1, 120)
    draw_level(draw, 0, 0, SIDE_W, level, limits, lang)
    return img


@part(T)
def _stocks_panel_part() -> Image.Image:
    img, draw = canvas(SIDE_W + 1, STOCKS_H)
    rounded(draw, (0, 0, SIDE_W, 5 * STOCK_ROW + 16), fill=PANEL)
    return img


@part(T)
def _stock_part(c: str, price: int, change: int, lang: str) -> Image.Image:
    img, draw = canvas(PRICE_X + 80, STOCK_ROW, PANEL)  # from 12 px in: clear of the panel's corners
    draw_stock(img, draw, -12, 0, c, price, change, lang)
    return img


@part(T)
def _silver_part(price: int, purchases: int, lang: str) -> Image.Image:
    img, draw = canvas(SIDE_W + 1, 78)
    draw_silver(draw, 0, 0, SIDE_W, price, purchases, lang)
    return img


@part(T)
def _last_draw_part(last: dict | None, who: str, lang: str) -> Image.Image:
    img, draw = canvas(SIDE_W + 1, max(1, last_draw_height(last, SIDE_W)))
    draw_last_draw(img, draw, 0, 0, SIDE_W, last, who, lang)
    return img


@part(T)
def _table_part(panel: list, h: int, w: float) -> Image.Image:
    img, draw = canvas(int(w) + 2, h + 1)
    draw_table(img, draw, (0, 0, w, h), tuple(panel))
    return img


@part(T)
def _market_panel_part(lang: str) -> Image.Image:
    img, draw = canvas(MARKET_X1 - 16 + 1, MARKET_H + 1)
    draw_market_panel(draw, lang)
    return img


@part(T)
def _market_group_part(c: str, n: int) -> Image.Image:
    img, draw = canvas(int(MARKET_GROUP_W), 46, PANEL)
    draw_market_group(img, draw, c, n)
    return img


@part(T)
def _bag_part(bag: dict, wsj: int, lang: str) -> Image.Image:
    w = W - 16 - (MARKET_X1 + 12)
    img, draw = canvas(w + 1, MARKET_H + 1)
    draw_bag(draw, 0, 0, w, bag, wsj, lang)
    return img


@part(T)
def _track_head_part(purchases: int, lang: str) -> Image.Image:
    img, draw = canvas(W, 48)
    draw_track_head(draw, 0, purchases, lang)
    return img


@part(T)
def _track_part(index: int) -> Image.Image:
    img, draw = canvas(W, TRACK_H + 4)
    draw_track(img, draw, 0, index)
    return img


def _table(view: dict, names: list[str], lang: str) -> Sheet:
    """The board as a sheet of parts: header; the price table beside the level card, the prices,
    silver and the last draw; the five tables; the market and the bag; the silver track; the
    players' cards. Each part is drawn again only when what it shows changes."""
    if view["over"]:
        sub = tk(lang, "phase.over")
    elif view["phase"] == "setup":
        sub = tk(lang, "phase.setup")
    else:
        sub = tk(lang, "render.turn_of", name=name_of(names, view.get("active")))
    last = view.get("last_draw")
    side = [_level_part(view["level"], view["limits"], lang), _stocks_panel_part(),
            _silver_part(view["silver"]["price"], view["purchases"], lang),
            _last_draw_part(last, name_of(names, last["seat"]) if last else "", lang)]
    top = 80 + max(PRICES_H, sum(p.height for p in side)) + 4
    panels, table_h = table_panels(view, lang)
    tw = (W - 32 - 4 * 10) / 5
    cards, card_h, cw = _player_cards(view, names, lang)
    market_y = top + table_h + 12
    track_y = market_y + MARKET_H + 12
    players_y = track_y + 48 + TRACK_H + 4
    # a move here mostly changes strips of 20-35 rows: 48-row bands hold one in one band more
    # often than 64-row ones (a quarter fewer rows to compress over the benchmark's games)
    sheet = Sheet(T, W, players_y + card_h + 14, BG, band=48)
    sheet.paste(_header_part(tk(lang, "render.title"), sub), (0, 0))
    _prices(sheet, 16, 80, view, lang)
    y = 80
    for piece in side:
        sheet.paste(piece, (SIDE_X, y))
        y += piece.height
    moves = changes(view)
    for i, c in enumerate(COLOURS):  # the prices, on their panel (the second of the side's parts)
        sheet.paste(_stock_part(c, view["prices"][c]["price"], moves[c], lang),
                    (SIDE_X + 12, 80 + 120 + 10 + i * STOCK_ROW))
    for i, panel in enumerate(panels):
        sheet.paste(_table_part(list(panel), table_h, tw), (16 + i * (tw + 10), top))
    sheet.paste(_market_panel_part(lang), (16, market_y))
    for i, c in enumerate(COLOURS):
        sheet.paste(_market_group_part(c, view["market"][c]), (16 + 14 + i * MARKET_GROUP_W, market_y + 44))
    sheet.paste(_bag_part(view["bag"], view["wsj"], lang), (MARKET_X1 + 12, market_y))
    sheet.paste(_track_head_part(view["purchases"], lang), (0, track_y))
    sheet.paste(_track_part(view["silver"]["index"]), (0, track_y + 48))
    active = view.get("active")
    for i, (seat, lines) in enumerate(zip(view["seats"], cards)):
        piece = _player_part(i, name_of(names, i), lines, _debt_lines(seat, cw, lang), i == active and not view["over"],
                             card_h, cw)
        sheet.paste(piece, (16 + i * (cw + 10), players_y))
    return sheet


@picture(W)
def table_image(view: dict, names: list[str], lang: str) -> Image.Image:
    return _table(view, names, lang).img


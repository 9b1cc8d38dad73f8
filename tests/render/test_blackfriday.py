"""Black Friday pictures: every picture at every player count, early and late, in English and
Japanese; size and time bounds; samples written to artifacts/blackfriday/ for looking at."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.blackfriday import GAME
from render import blackfriday as R
from render.common import png

ART = Path(__file__).resolve().parents[2] / "artifacts" / "blackfriday"
NAMES = ["Alice", "Bob", "千代子", "Daisuke", "Eve with a rather long name"]


def _game(n: int, steps: int, seed: int = 3) -> dict:
    rng = random.Random(seed)
    st = GAME.setup(n, seed)
    for _ in range(steps):
        if GAME.outcome(st) is not None:
            break
        seat = st["active"]
        GAME.apply(st, seat, GAME.ai_action(GAME.view(st, seat), GAME.legal(st, seat), rng))
    return st


def _save(img, name: str) -> bytes:
    data = png(img)
    ART.mkdir(parents=True, exist_ok=True)
    (ART / name).write_bytes(data)
    return data


def _check(img, data: bytes) -> None:
    assert img.width <= 1200
    assert len(data) < 500_000


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("stage, steps", [("early", 0), ("late", 5000)])
def test_pictures_render(n, lang, stage, steps):
    st = _game(n, steps)
    names = NAMES[:n]
    pub = GAME.view(st, None)
    img = R.table_image(pub, names, lang)
    _check(img, _save(img, f"table_{n}p_{stage}_{lang}.png"))
    mine = GAME.view(st, 1)
    panel = R.panel_image(mine, names, lang)
    assert panel is not None
    _check(panel, _save(panel, f"panel_{n}p_{stage}_{lang}.png"))
    assert R.panel_image(pub, names, lang) is None
    if stage == "late":
        assert pub["over"]
        res = R.results_image(pub, names, lang)
        _check(res, _save(res, f"results_{n}p_{lang}.png"))


def test_mid_game_with_debt_and_last_draw():
    st = _game(4, 70, seed=8)
    st["players"][2]["owed"] = 3
    st["players"][2]["money"] = 0
    pub = GAME.view(st, None)
    assert pub["last_draw"] is not None
    img = R.table_image(pub, NAMES[:4], "en")
    _check(img, _save(img, "table_4p_mid_debt_en.png"))
    img = R.panel_image(GAME.view(st, 2), NAMES[:4], "ja")
    _check(img, _save(img, "panel_4p_mid_debt_ja.png"))


def test_names_missing_or_short_list():
    st = _game(3, 30)
    R.table_image(GAME.view(st, None), [], "en")
    R.panel_image(GAME.view(st, 0), ["Only one"], "en")


def test_late_five_player_pictures_stay_small():
    """Speed is measured by `python -m bench`; here only the size budget (500 KB)."""
    st = _game(5, 90)
    assert len(png(R.table_image(GAME.view(st, None), NAMES, "ja"))) < 500 * 1024
    assert len(png(R.panel_image(GAME.view(st, 0), NAMES, "ja"))) < 500 * 1024


@pytest.mark.parametrize("bags, black", [({"yellow": 2}, 1), ({"yellow": 3, "blue": 2, "red": 2}, 3), ({"green": 10}, 0)])
def test_the_last_draw_shows_every_briefcase_drawn(bags, black):
    """A draw of up to ten briefcases wraps onto a second row; the side column's part must be
    tall enough for it (a 4-player game's level-7 draw of 7 colours and a black lost its black
    below the part's fixed 44 pixels). Drawn on a tall canvas, nothing may fall below the
    height the part takes, and the part is that height."""
    from render.blackfriday_parts import draw_last_draw, last_draw_height
    from render.common import BG, canvas

    last = {"seat": 1, "bags": bags, "black": black}
    img, draw = canvas(R.SIDE_W + 1, 400)
    height = draw_last_draw(img, draw, 0, 0, R.SIDE_W, last, "Bob", "en")
    assert height == last_draw_height(last, R.SIDE_W)
    below = img.crop((0, height, R.SIDE_W + 1, 400))
    assert below.getcolors() == [((400 - height) * (R.SIDE_W + 1), BG)]
    assert len(img.crop((0, 0, R.SIDE_W + 1, height)).getcolors(1 << 16)) > 1

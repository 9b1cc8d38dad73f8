"""The phone floor (issue 28, point 9): Discord shows a picture about 400 px wide on a phone, so no
picture may draw text smaller than 9 px at that width, i.e. a font smaller than 9 * width / 400
px. Every picture of every title (tables at every player count, private panels, the Filthy
Rich placement picture, results) is drawn from states of seeded whole games, in English,
Japanese and Spanish, and every text it draws is checked: text below the floor fails, and so
does text drawn anywhere but `render.common.text` (where sizes are noted)."""

from __future__ import annotations

import importlib
import sys
from functools import lru_cache

import pytest
from PIL import ImageDraw

import engine
from engine.autoplay import steps
from engine.core import copy_json
from render import common, legible

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")
LANGS = ("en", "ja", "es")
NAMES = ["Ann", "Bob the Builder with a very long name", "千代子", "Dmitri Ivanovich", "Eve", "Fumiko"]
#: Moments drawn per game: evenly through it, and its end.
MOMENTS = 6


@lru_cache(maxsize=None)
def moments(title: str, seats: int, seed: int) -> list[dict]:
    """Copies of the state at MOMENTS points of one seat-filler game, and at its end."""
    game = engine.get(title)
    states = [copy_json(st) for st, *_ in steps(game, seats, seed)]
    picks = sorted({len(states) * k // MOMENTS for k in range(MOMENTS)} | {len(states) - 1})
    return [states[i] for i in picks]


def pictures(title: str, state: dict, names: list[str], lang: str):
    """(what, picture) for every picture the bot draws of this state."""
    game = engine.get(title)
    R = importlib.import_module(f"render.{title}")
    public = game.view(state, None)
    over = game.outcome(state) is not None
    yield "results" if over else "table", (R.results_image if over else R.table_image)(public, names, lang)
    if over:
        yield "table", R.table_image(public, names, lang)
    for seat in range(len(names)):
        yield f"panel {seat}", R.panel_image(game.view(state, seat), names, lang)
    if title == "filthyrich" and not over:
        for seat in range(len(names)):
            plays = [a for a in game.legal(state, seat) if "slots" in a and "card" in a]
            if plays:
                kind = plays[0]["card"].split("#")[0]
                slots = [a["slots"] for a in plays if a["card"] == plays[0]["card"]]
                yield "placement", R.placement_image(game.view(state, seat), names, lang, kind, slots)
                break


@pytest.fixture
def only_text_draws_text(monkeypatch):
    """Pillow's text drawing, refusing callers other than render.common.text."""
    original = ImageDraw.ImageDraw.text
    strays: list[str] = []

    def guarded(self, *args, **kwargs):
        caller = sys._getframe(1)
        if not common.is_text_drawer(caller):
            strays.append(f"{caller.f_code.co_filename}:{caller.f_lineno}")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", guarded)
    monkeypatch.setattr(legible, "STRICT", False)  # gather every picture's faults, then fail
    return strays


@pytest.mark.parametrize("title", TITLES)
def test_no_picture_draws_text_below_the_phone_floor(title, only_text_draws_text):
    game = engine.get(title)
    faults: dict[str, set] = {}
    cut: set[tuple[str, str]] = set()
    drawn = 0
    with legible.watching() as seen:
        for seats in range(game.min_players, game.max_players + 1):
            for state in moments(title, seats, 11 + seats):
                for lang in LANGS:
                    for what, img in pictures(title, state, NAMES[:seats], lang):
                        if img is None:
                            continue
                        drawn += 1
                        checked = seen[-1]
                        assert checked.width == img.width and checked.texts, (what, checked.name)
                        for size, text in checked.too_small:
                            faults.setdefault(f"{checked.name} ({checked.width} px, floor {checked.floor})",
                                              set()).add((size, text))
                        # Only a player's name may be cut short (Discord's text has it whole).
                        cut |= {(checked.name, whole) for whole in checked.cut
                                if not any(name in whole for name in NAMES[:seats])}
    assert drawn >= 50 and len(seen) == drawn
    assert not only_text_draws_text, f"text drawn around render.common.text: {sorted(set(only_text_draws_text))}"
    report = {name: sorted(bad)[:12] for name, bad in faults.items()}
    assert not faults, f"text below the phone floor: {report}"
    assert not cut, f"text cut short to fit (wrap it, or say it in the message): {sorted(cut)[:12]}"


def test_the_rating_chart_is_checked_too():
    from render.chart import WIDTH, rating_chart

    with legible.watching() as seen:
        img = rating_chart([1000, 1012, 990, 1040], "Ann · " + "I'm the Boss! " * 6)
    assert [c.name for c in seen] == ["render.chart.rating_chart"] and seen[0].width == img.width == WIDTH
    assert len(seen[0].texts) == 4 and not seen[0].too_small


def test_the_floor_follows_the_picture_width():
    assert legible.floor_px(1200) == 27 and legible.floor_px(1000) == 23 and legible.floor_px(400) == 9
    assert common.SIZE_SMALL == legible.floor_px(1200)


def test_a_picture_with_small_text_is_refused(monkeypatch):
    monkeypatch.setattr(legible, "STRICT", True)

    @legible.picture(1200)
    def tiny():
        img, draw = common.canvas(1200, 100)
        common.text(draw, (10, 10), "fine", 27)
        common.text(draw, (10, 50), "too small", 26)
        return img

    with pytest.raises(legible.IllegibleText, match="too small"):
        tiny()

    @legible.picture(600)
    def narrow():
        img, draw = common.canvas(600, 100)
        common.text(draw, (10, 10), "fine at 600 px wide", 14)
        return img

    with legible.watching() as seen:
        narrow()
    assert seen[0].floor == 14 and seen[0].texts == [(14, "fine at 600 px wide")]


def test_shrinking_stops_at_the_floor_and_cached_layers_still_count(monkeypatch):
    monkeypatch.setattr(legible, "STRICT", True)
    calls = []

    @legible.layer()
    def badge(word: str):
        calls.append(word)
        img, draw = common.canvas(80, 40)
        common.text(draw, (0, 0), word, 30, max_width=10)  # far too narrow: shrinks to the floor, then "…"
        return img

    @legible.picture(800)
    def two_badges():
        img, _ = common.canvas(800, 100)
        badge("wide words")
        badge("wide words")
        return img

    with legible.watching() as seen:
        two_badges()
        two_badges()
    assert calls == ["wide words"]  # drawn once, reused three times
    assert [len(c.texts) for c in seen] == [2, 2]  # ... and counted every time
    assert all(size == legible.floor_px(800) for c in seen for size, _ in c.texts)

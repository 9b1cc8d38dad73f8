"""Filthy Rich pictures: every picture at every player count, early and late, in English and
Japanese, within the size and time bounds; samples go to artifacts/filthyrich/ for looking at."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from engine.filthyrich import GAME
from render import filthyrich as R
from render.common import png
from render.filthyrich_hand import CARD_H

OUT = Path(__file__).resolve().parents[2] / "artifacts" / "filthyrich"
NAMES = ["Andrea", "Murphy", "Chen Wei-Long the Magnificent", "佐藤はなこ", "Eiko"]


def _play(players: int, seed: int, steps: int | None) -> dict:
    """A game driven by the AI for `steps` actions (None: to the end)."""
    st = GAME.setup(players, seed)
    rng = random.Random(seed)
    count = 0
    while GAME.outcome(st) is None and (steps is None or count < steps):
        seat = GAME.to_act(st)[0]
        GAME.apply(st, seat, GAME.ai_action(GAME.view(st, seat), GAME.legal(st, seat), rng))
        count += 1
    return st


def _states():
    for players in (2, 3, 4, 5):
        yield players, "early", _play(players, 40 + players, 6)
        yield players, "late", _play(players, 40 + players, 40 * players)
        yield players, "end", _play(players, 40 + players, None)


STATES = list(_states())


def _timed(fn, *args):
    t0 = time.perf_counter()
    img = fn(*args)
    data = png(img) if img is not None else b""
    return img, data, time.perf_counter() - t0


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("players,when,st", STATES, ids=[f"{p}p-{w}" for p, w, _ in STATES])
def test_pictures_render(players, when, st, lang):
    OUT.mkdir(parents=True, exist_ok=True)
    names = NAMES[:players]
    public = GAME.view(st, None)
    seat = GAME.to_act(st)[0] if GAME.to_act(st) else 0
    mine = GAME.view(st, seat)
    pics = {"table": R.table_image(public, names, lang), "panel": R.panel_image(mine, names, lang)}
    if public["over"]:
        pics["results"] = R.results_image(public, names, lang)
    assert R.panel_image(public, names, lang) is None  # no hand in the public view
    for kind, img in pics.items():
        assert img is not None and img.width <= 1200
        data = png(img)
        assert len(data) < 500_000
        (OUT / f"{kind}_{players}p_{when}_{lang}.png").write_bytes(data)


def test_pictures_stay_small():
    """Speed is measured by `python -m bench`; here only the size budget (500 KB)."""
    for players, when, st in STATES:
        names = NAMES[:players]
        for lang in ("en", "ja"):
            for fn, view in ((R.table_image, GAME.view(st, None)), (R.panel_image, GAME.view(st, st["active"]))):
                _, data, _ = _timed(fn, view, names, lang)
                assert len(data) < 500 * 1024, (players, when)


def test_panel_shows_a_big_hand_on_two_rows():
    st = GAME.setup(3, 5)
    st["hands"][0] += [st["deck"].pop() for _ in range(4)]
    img = R.panel_image(GAME.view(st, 0), NAMES[:3], "en")
    assert img.height > 2 * CARD_H
    img = R.panel_image(GAME.view(st, 1), NAMES[:3], "ja")
    assert img.height < 2 * CARD_H


def test_table_during_windows_and_partial_visibility():
    """The tax window, an auction and a binder with lower-page cards showing through."""
    from tests.support.filthyrich_state import ad, lux, new

    st = new(n=4, page=3, money=[10, 10, 0, 20])
    ad(st, 0, "hotel", 1, [1, 2, 4, 5])
    ad(st, 1, "tornado_cleaners", 2, [2, 5])
    ad(st, 3, "psychic_hotline", 3, [7, 8, 9])
    lux(st, 2, "personal_trainer")
    st["phase"] = "tax"
    st["tax"] = {"kind": "tax", "zeros": 2, "scope": [0, 1, 2, 3], "pending": [0, 1], "answered": [3]}
    st["roll"] = {"seat": 0, "page": 3, "dice": [1, 0, 5], "zeros": 1, "page_die": None, "next_page": None,
                  "hits": [{"die": 0, "slot": 1, "sign": "hotel", "page": 1, "seat": 0, "amount": 6, "owner": 0},
                           {"die": 2, "slot": 5, "sign": "tornado_cleaners", "page": 2, "seat": 1, "amount": 4,
                            "owner": 1}]}
    OUT.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "ja"):
        img = R.table_image(GAME.view(st, None), NAMES[:4], lang)
        (OUT / f"table_window_tax_{lang}.png").write_bytes(png(img))
    st["phase"] = "auction"
    st["tax"] = None
    st["auction"] = {"lux": "personal_trainer", "from": 2, "order": [3, 0, 1], "idx": 1, "high": 7, "high_seat": 3,
                     "passes": 0, "seat": 0, "min": 8}
    img = R.table_image(GAME.view(st, None), NAMES[:4], "en")
    (OUT / "table_window_auction_en.png").write_bytes(png(img))
    assert img.width == 1200


def test_the_placement_picture_outlines_only_the_slots_the_ad_may_take():
    """The picture beside "where does the ad go?": the open page, with the slots of the legal
    placements outlined in gold and the others not."""
    from tests.support.filthyrich_state import ad, new

    st = new(n=3, page=2, money=[20, 20, 20])
    ad(st, 1, "tornado_cleaners", 2, [1, 4])
    view = GAME.view(st, 0)
    img = R.placement_image(view, NAMES[:3], "ja", "funeral_parlour", [[2, 5], [3, 6], [5, 8], [6, 9]]).convert("RGB")
    OUT.mkdir(parents=True, exist_ok=True)
    img.save(OUT / "placement.png")
    grid_top = 88 + R.TABS_H

    def edge(slot):  # a pixel of the outline, just outside the cell's left edge, halfway down
        x0, y0, x1, y1 = R._cell_box(slot, grid_top)
        return img.getpixel((x0 - 1, (y0 + y1) // 2))

    gold = tuple(R.GOLD[:3])
    assert all(edge(s) == gold for s in (2, 3, 5, 6, 8, 9))
    assert all(edge(s) != gold for s in (1, 4, 7))
    assert img.width < 720 and len(png(img)) < 200_000


class _Bounded:
    """An ImageDraw that records every shape or text placed (partly) outside its canvas."""

    def __init__(self, img):
        self._draw = ImageDraw.Draw(img)
        self._size = img.size
        self.outside: list[tuple[str, object]] = []

    def __getattr__(self, name):
        fn = getattr(self._draw, name)

        def call(*args, **kwargs):
            xy = args[0] if args else kwargs.get("xy")
            flat = [v for p in xy for v in (p if isinstance(p, (tuple, list)) else (p,))] if xy else []
            xs, ys = flat[0::2], flat[1::2]
            w, h = self._size
            if xs and (min(xs) < 0 or max(xs) > w or min(ys) < 0 or max(ys) > h):
                self.outside.append((name, xy))
            return fn(*args, **kwargs)

        return call


def test_a_whole_game_s_tables_draw_nothing_outside_the_canvas(monkeypatch):
    """Issue 15: the last player's row was cut off in a third of a game's pictures (the rows
    were drawn before the canvas was sized, when the side column ran longer than the binder)."""
    drawers: list[_Bounded] = []

    def bounded_canvas(width, height, colour=R.BG):
        img = Image.new("RGB", (width, height), colour)
        drawers.append(_Bounded(img))
        return img, drawers[-1]

    monkeypatch.setattr(R, "canvas", bounded_canvas)
    st = GAME.setup(5, 77)
    rng = random.Random(77)
    step = 0
    while True:
        if step % 5 == 0 or GAME.outcome(st) is not None:
            view = GAME.view(st, None)
            img = (R.results_image if view["over"] else R.table_image)(view, NAMES, "en").convert("RGB")
            assert not [o for d in drawers for o in d.outside], f"step {step}: drawn outside the canvas"
            drawers.clear()
            # The last row's seat-colour stripe, just above the bottom margin.
            last = view["seats"][-1]
            y = img.height - 10 - 40  # 40 px above the last row's foot: in any row
            stripe = img.getpixel((30, y))
            colour = R.seat_colour(4)
            want = colour if last["alive"] else tuple(int(c * 0.4 + b * 0.6) for c, b in zip(colour, R.BG))
            assert max(abs(a - b) for a, b in zip(stripe, want)) < 40, (step, stripe, want)
        if GAME.outcome(st) is not None:
            break
        seat = GAME.to_act(st)[0]
        GAME.apply(st, seat, GAME.ai_action(GAME.view(st, seat), GAME.legal(st, seat), rng))
        step += 1


def test_the_status_counts_dice_in_each_language():
    """The side column's status under "X: to play" read "actions left: 2 · 1 dice"."""
    from render.filthyrich_words import say

    assert [say("en", "render.dice", count=n) for n in (1, 3)] == ["1 die", "3 dice"]
    assert [say("es", "render.dice", count=n) for n in (1, 3)] == ["1 dado", "3 dados"]
    assert say("ja", "render.dice", count=1) == "ダイス1個"

"""Bands known by how the table was put together (render/layout.py, render/pngband.py): a table's
bands made as before are taken from the cache without reading the picture back, and the PNG is
byte for byte the one its pixels alone give, for every title, move after move, in two languages
in turn, the last at the end of the game; a copy of a table, changed after copying, is encoded
from its own pixels."""

from __future__ import annotations

import io
import pickle

import pytest
from PIL import Image, ImageDraw

import engine
from engine.autoplay import steps
from engine.core import copy_json
from render import compose, ewars, pngband
from render.common import png
from render.layout import LAYOUT

TITLES = {"imtheboss": 5, "filthyrich": 4, "blackfriday": 4, "ewars": 4}
NAMES = ["Ann", "Bob", "千代子", "Dev", "Eve"]


def _moments(title: str, count: int) -> list[dict]:
    game = engine.get(title)
    states = [copy_json(st) for st, *_ in steps(game, TITLES[title], 7)]
    late = states[len(states) // 2:]  # many moves in a row, then the end
    return [game.view(st, None) for st in late[:count - 1] + [states[-1]]]


def _content_only(img: Image.Image) -> bytes:
    """The PNG its pixels alone give, as pngband wrote every table before: a copy of it, which
    its layout does not describe (the same bands, each keyed by its content)."""
    copy = img.copy()
    return pngband.encode(copy, tuple(copy.info[pngband.SHEET]), copy.info[LAYOUT])


@pytest.mark.parametrize("title", sorted(TITLES))
def test_layout_keys_give_the_pngs_the_pixels_give(title):
    import importlib

    render = importlib.import_module(f"render.{title}")
    compose.forget()
    pngband.clear()
    views = _moments(title, 14)
    for k, view in enumerate(views):
        lang = ("en", "ja")[k % 2]
        # Filthy Rich's results are its table too (the others' are drawn apart, not from parts)
        draw = render.results_image if k == len(views) - 1 and title == "filthyrich" else render.table_image
        img = draw(view, NAMES[:TITLES[title]], lang)
        data = png(img)
        assert data == _content_only(img), (title, k)
        assert Image.open(io.BytesIO(data)).tobytes() == img.tobytes()
        assert _palette_entries(data) == img.getextrema()[1] + 1  # as many colours as it uses, no more


def _palette_entries(data: bytes) -> int:
    """The colours in a PNG's PLTE chunk (it follows the signature and IHDR, 33 bytes in)."""
    assert data[37:41] == b"PLTE"
    return int.from_bytes(data[33:37], "big") // 3


def test_a_table_made_as_before_is_not_read_back(monkeypatch):
    view = _moments("filthyrich", 2)[0]
    compose.forget()
    pngband.clear()
    table = _table(view)
    first = png(table)
    assert first == _content_only(table)
    reads, scans = [], []
    real = pngband._indices
    monkeypatch.setattr(pngband, "_indices", lambda *a: reads.append(a) or real(*a))
    scan = Image.Image.getextrema
    monkeypatch.setattr(Image.Image, "getextrema", lambda self: scans.append(self.size) or scan(self))
    again = _table(view)  # the same parts: every band made as before
    assert png(again) == first
    assert reads == []
    assert scans == []  # nor scanned for its highest palette index: a kept band holds 255


def _table(view: dict) -> Image.Image:
    from render import filthyrich

    return filthyrich.table_image(view, NAMES[:4], "en")


def test_a_copy_changed_after_copying_is_encoded_from_its_pixels():
    view = _moments("filthyrich", 2)[0]
    img = _table(view)
    png(img)
    copy = img.copy()
    assert copy.info[LAYOUT] is img.info[LAYOUT]  # Image.copy shares info: the layout must not be trusted
    ImageDraw.Draw(copy).rectangle((100, 300, 400, 340), fill=3)
    assert Image.open(io.BytesIO(png(copy))).tobytes() == copy.tobytes()
    sent = pickle.loads(pickle.dumps(img))  # a picture from another process
    ImageDraw.Draw(sent).rectangle((100, 300, 400, 340), fill=3)
    assert Image.open(io.BytesIO(png(sent))).tobytes() == sent.tobytes()


def test_a_frame_and_a_line_drawn_on_the_sheet_are_in_the_bands():
    """E-Wars' table after a contract draws a line between its halves; I'm the Boss! a frame."""
    view = next(v for v in _moments("ewars", 400) if v.get("phase") in ("await_start", "over") and v.get("last"))
    compose.forget()
    pngband.clear()
    img = ewars.table_image(view, NAMES[:4], "en")
    assert any(not is_part for *_rest, is_part in img.info[LAYOUT].items)
    data = png(img)
    assert data == _content_only(img)
    assert png(ewars.table_image(view, NAMES[:4], "en")) == data

"""Tables assembled from kept parts and encoded from kept bands (render/compose.py,
render/pngband.py) come out the same however the caches stand: empty, full, evicting, or shared
by threads drawing at once (the bot draws pictures in threads when it has no worker processes)."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

import engine
from engine.autoplay import steps
from engine.core import copy_json
from render import compose, imtheboss, pngband
from render.common import png

NAMES = ["Ann", "Bob", "千代子", "Dev"]


def _views(count: int) -> list[dict]:
    game = engine.get("imtheboss")
    states = [copy_json(st) for st, *_ in steps(game, 4, 5)]
    return [game.view(states[len(states) * k // count], None) for k in range(count)]


def _pixels(data: bytes) -> bytes:
    img = Image.open(io.BytesIO(data))
    return img.convert("RGB").tobytes()


def test_kept_parts_and_bands_never_change_a_picture(monkeypatch):
    views = _views(12)
    compose.forget()
    pngband.clear()
    alone = []
    for view in views:  # each drawn from empty caches
        compose.forget()
        pngband.clear()
        alone.append(_pixels(png(imtheboss.table_image(view, NAMES, "en"))))
    # caches far too small for a picture: parts and bands come and go while drawing
    monkeypatch.setattr(compose, "PART_BYTES", 200_000)
    monkeypatch.setattr(pngband, "CACHE_BYTES", 20_000)
    with ThreadPoolExecutor(6) as pool:
        drawn = list(pool.map(lambda v: _pixels(png(imtheboss.table_image(v, NAMES, "en"))), views * 3))
    assert drawn == alone * 3
    assert compose._kept_bytes <= 200_000 + max(img.width * img.height for img, *_ in compose._kept.values())
    assert pngband._cached_bytes <= 20_000


def test_a_part_is_drawn_once_while_kept():
    view = _views(3)[1]
    compose.forget()
    compose.DRAWN.clear()
    imtheboss.table_image(view, NAMES, "ja")
    first = sum(compose.DRAWN.values())
    imtheboss.table_image(view, NAMES, "ja")
    assert first > 0 and sum(compose.DRAWN.values()) == first  # the second picture drew nothing
    imtheboss.table_image(view, NAMES, "en")
    assert sum(compose.DRAWN.values()) > first  # another language: other parts

"""The phone rule: no text smaller than 9 pixels when a picture is shown 400 pixels wide (how
Discord shows a picture on a phone), so in a picture W pixels wide no font is smaller than
9 * W / 400 pixels (27 px at 1200 wide).

Every text a renderer draws goes through `render.common.text`, which notes its size here. A
public picture function is wrapped in `@picture(width)`: while it draws, `floor()` is that
width's smallest legal size (what `fit` and `fit_wrap` shrink to, and no further), and when it
returns, the sizes it drew are checked against the width of the picture it made. A cached piece
of picture (`@layer`) keeps the sizes it drew and notes them again each time it is reused, so a
picture is checked for everything on it, drawn now or before.

A picture that breaks the rule is logged; `STRICT` (the tests) makes it an error instead.
"""

from __future__ import annotations

import functools
import logging
import math
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

#: How wide Discord shows a picture on a phone, and the smallest text legible there.
PHONE_WIDTH = 400
PHONE_PX = 9
#: The width of most pictures (tables, results): the floor when no picture is being drawn.
DEFAULT_WIDTH = 1200
#: Raise IllegibleText instead of logging (set by the render tests).
STRICT = False


def floor_px(width: int) -> int:
    """The smallest legal font size (pixels) in a picture `width` pixels wide."""
    return math.ceil(PHONE_PX * width / PHONE_WIDTH)


class IllegibleText(AssertionError):
    """A picture drew text below the phone floor."""


@dataclass
class Drawing:
    """One picture (or cached layer) being drawn: its floor and every (size, text) drawn."""

    name: str
    floor: int
    texts: list[tuple[int, str]] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)  # texts ended with an ellipsis to fit


@dataclass
class Checked:
    """A finished picture as the checker saw it (for tests and tools)."""

    name: str
    width: int
    floor: int
    texts: list[tuple[int, str]]
    cut: list[str]

    @property
    def too_small(self) -> list[tuple[int, str]]:
        return [(size, text) for size, text in self.texts if size < self.floor]


_CURRENT: ContextVar[Drawing | None] = ContextVar("render_picture", default=None)
_WATCHERS: list[list[Checked]] = []


def floor() -> int:
    """The smallest legal font size in the picture being drawn now."""
    current = _CURRENT.get()
    return current.floor if current is not None else floor_px(DEFAULT_WIDTH)


def note(size: int, text: str, cut_from: str | None = None) -> None:
    """Called by `render.common.text` for every text it draws (`cut_from`: the whole text, when
    it had to end in an ellipsis)."""
    current = _CURRENT.get()
    if current is not None:
        current.texts.append((size, text))
        if cut_from is not None:
            current.cut.append(cut_from)


def cut(whole: str) -> None:
    """Note that `whole` was left shorter than it is (lines dropped to fit a box), though what
    is drawn of it may end in an ellipsis on a line of its own."""
    current = _CURRENT.get()
    if current is not None:
        current.cut.append(whole)


def _check(drawing: Drawing, width: int) -> None:
    checked = Checked(drawing.name, width, floor_px(width), drawing.texts, drawing.cut)
    for watcher in _WATCHERS:
        watcher.append(checked)
    bad = checked.too_small
    if bad:
        message = (f"{drawing.name}: text below {checked.floor} px in a picture {width} px wide: "
                   + "; ".join(f"{size} px {text!r}" for size, text in bad[:10]))
        if STRICT:
            raise IllegibleText(message)
        log.warning(message)


def picture(width: int) -> Callable:
    """Decorate a public picture function (it returns a PIL image or None) drawn `width` px wide."""

    def wrap(fn: Callable) -> Callable:
        name = f"{fn.__module__}.{fn.__qualname__}"

        @functools.wraps(fn)
        def draw(*args: Any, **kwargs: Any):
            outer = _CURRENT.get()
            drawing = Drawing(name, floor_px(width))
            token = _CURRENT.set(drawing)
            try:
                img = fn(*args, **kwargs)
            finally:
                _CURRENT.reset(token)
            if outer is not None:  # drawn inside another picture: it is on that one too
                outer.texts.extend(drawing.texts)
                outer.cut.extend(drawing.cut)
            if img is not None:
                _check(drawing, img.width)
            return img

        return draw

    return wrap


def recorded(floor_: int, draw: Callable[[], Any]) -> tuple[Any, tuple, tuple]:
    """(what `draw()` returns, the texts it drew, those it cut), drawn at `floor_`, apart from
    the picture being drawn (a piece of picture to keep)."""
    drawing = Drawing("piece", floor_)
    token = _CURRENT.set(drawing)
    try:
        result = draw()
    finally:
        _CURRENT.reset(token)
    return result, tuple(drawing.texts), tuple(drawing.cut)


def replay(texts: tuple, cut: tuple) -> None:
    """Note a kept piece's texts again, in the picture it is put on now."""
    current = _CURRENT.get()
    if current is not None:
        current.texts.extend(texts)
        current.cut.extend(cut)


def layer(maxsize: int = 128) -> Callable:
    """`functools.lru_cache` for a function that draws a piece of picture, keyed by its
    arguments and the floor (what it may shrink text to), replaying the text it drew into the
    picture that reuses it."""

    def wrap(fn: Callable) -> Callable:
        @functools.lru_cache(maxsize=maxsize)
        def cached(floor_: int, *args: Any):
            return recorded(floor_, lambda: fn(*args))

        @functools.wraps(fn)
        def draw(*args: Any):
            result, texts, cut = cached(floor(), *args)
            replay(texts, cut)
            return result

        draw.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        draw.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return draw

    return wrap


@contextmanager
def watching() -> Iterator[list[Checked]]:
    """Every picture finished inside the block, with the sizes of all its text."""
    seen: list[Checked] = []
    _WATCHERS.append(seen)
    try:
        yield seen
    finally:
        _WATCHERS.remove(seen)

"""Fitting and wrapping are kept (render/typeset.py): a table works out the same lines and sizes
picture after picture, so the second time measures nothing, and gives the same answer (a list
the caller may change without changing the next answer)."""

from __future__ import annotations

from render import textcache
from render.common import fit_size, font, wrap


def test_a_text_wrapped_or_fitted_again_is_not_measured_again(monkeypatch):
    text = "ビジネス: セカンドチャンス質店、カール＆カラー美容室 · Diamond-Studded Launderette"
    fnt = font(27)
    lines = wrap(text, 420, fnt)
    size = fit_size("Player 3 · $42 · Luxury 2", 300, 40, True, 27)
    measured = []
    real = textcache.CachedFont.getlength
    monkeypatch.setattr(textcache.CachedFont, "getlength", lambda *a, **k: measured.append(a) or real(*a, **k))
    again = wrap(text, 420, fnt)
    assert again == lines and len(lines) > 1
    again.append("changed by the caller")
    assert wrap(text, 420, fnt) == lines
    assert fit_size("Player 3 · $42 · Luxury 2", 300, 40, True, 27) == size
    assert measured == []

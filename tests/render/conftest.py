"""Every picture drawn by a render test is held to the phone floor (render/legible.py): text
below 9 px at 400 px wide fails the test that drew it, not only tests/render/test_legible.py."""

from __future__ import annotations

import pytest

from render import legible


@pytest.fixture(autouse=True)
def _phone_floor_is_strict(monkeypatch):
    monkeypatch.setattr(legible, "STRICT", True)

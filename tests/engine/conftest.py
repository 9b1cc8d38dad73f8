"""Fixtures of the engine tests."""

import pytest

from tests.support.filthyrich_state import scripted_dice


@pytest.fixture
def script(monkeypatch):
    """Filthy Rich's scripted dice (tests/support/filthyrich_state.py)."""
    return scripted_dice(monkeypatch)

"""The browser tests' shared fixture: one `python bot.py --local` per test module."""

from __future__ import annotations

import pytest

from tests.local.page import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory, request):
    """The local bot serving its page for one module's tests, on a database of its own; it must
    stop cleanly (exit 0, no traceback in its output) when the module is done."""
    server = Server(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]) / "boardroom-local.db")
    yield server
    code, output = server.stop()
    assert code == 0, output
    assert "Traceback" not in output, output

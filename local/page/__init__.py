"""SimCord's preview page, served with Boardroom's fixes.

SimCord is pinned exactly (requirements*.lock), so its page is not edited in site-packages:
`LocalPageServer` serves SimCord's own files with the small, exact changes in `patches.py`
applied as they are served, plus one script of ours (`boardroom-page.js`: the page's clock,
links that stay on the page). A patch whose text is not found in the pinned page stops the
start-up (`simcord.SetupError`) rather than serving a half-fixed page: upgrading SimCord means
re-checking each patch (docs/LOCAL.md).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import simcord
import simcord.preview as _preview
from simcord.preview._server import PreviewServer

from local.page.patches import PATCHES

HERE = Path(__file__).resolve().parent
SIMCORD_STATIC = Path(_preview.__file__).with_name("static")
#: Our own files, served beside SimCord's.
OWN = {"/boardroom-page.js": "boardroom-page.js"}
#: Where the page reads the virtual clock's "now" (a countdown's basis).
NOW = "/boardroom-now.json"


@cache
def patched(filename: str) -> str:
    """SimCord's `filename` with our patches applied; each must match exactly once."""
    text = (SIMCORD_STATIC / filename).read_text(encoding="utf-8")
    for old, new in PATCHES.get(filename, ()):
        if text.count(old) != 1:
            raise simcord.SetupError(f"local/page: SimCord's {filename} changed, a patch no longer applies: "
                                     f"{old[:60]!r}")
        text = text.replace(old, new)
    return text


def check() -> None:
    """Apply every patch once (at start-up: a stale patch fails there, not in the browser)."""
    for filename in PATCHES:
        patched(filename)


class LocalPageServer(PreviewServer):
    """SimCord's loopback server, serving the patched page and the virtual clock's now."""

    _STATIC_FILES = {**PreviewServer._STATIC_FILES, **OWN, NOW: NOW}

    def __init__(self, preview: Any, port: int, now: Callable[[], datetime]) -> None:
        super().__init__(preview, port)
        self._now = now

    async def _static(self, request: Any) -> Any:
        from aiohttp import web

        if self.port is None or request.headers.get("Host", "") not in self._allowed_hosts():
            raise web.HTTPForbidden()
        if request.path == NOW:
            if not self._authorized(request):
                raise web.HTTPUnauthorized()
            return web.json_response({"now": self._now().isoformat()}, headers=self._SECURITY_HEADERS)
        if request.path in OWN:
            text = (HERE / OWN[request.path]).read_text(encoding="utf-8")
            return web.Response(text=text, content_type="application/javascript", headers=self._SECURITY_HEADERS)
        filename = self._STATIC_FILES.get(request.path)
        if filename in PATCHES:
            content_type = "text/html" if filename.endswith(".html") else "application/javascript"
            return web.Response(text=patched(filename), content_type=content_type, headers=self._SECURITY_HEADERS)
        return await super()._static(request)


def page_key(database: str | Path) -> str:
    """The page's key (the part of its address after #), kept beside the database
    (`<db>.key`) so that an open tab still works after a restart; made on first use."""
    path = Path(f"{database}.key")
    try:
        key = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        key = ""
    if len(key) < 32:
        key = secrets.token_urlsafe(32)
        path.write_text(key + "\n", encoding="utf-8")
        path.chmod(0o600)  # the key drives the page: only its owner reads it
    return key


def install(preview: Any, *, port: int, key: str, now: Callable[[], datetime]) -> None:
    """Make a not yet entered SimCord `Preview` serve the patched page under `key`."""
    check()
    preview.capability = key
    preview._server = LocalPageServer(preview, port, now)

"""BOARDROOM_DISCORD_API (issue 27): with a REST proxy such as nirn-proxy in front of Discord, every
REST call the bot makes goes to the configured base, webhook-style interaction follow-ups
included. A local stand-in answers as Discord would; the machine has no route to Discord, so a
single request sent elsewhere would fail the test."""

from __future__ import annotations

import json
import socket

import discord
import pytest
from aiohttp import web
from discord.http import Route

from app import Boardroom
from config import Config, ConfigError, api_setting

APP_ID = 424242
USER = {"id": str(APP_ID), "username": "boardroom", "discriminator": "0", "global_name": None, "avatar": None,
        "bot": True}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def restore_base():
    before = Route.BASE
    yield
    Route.BASE = before


def message(channel_id: str) -> dict:
    return {"id": "9001", "channel_id": channel_id, "type": 0, "content": "hello", "author": USER,
            "attachments": [], "embeds": [], "mentions": [], "mention_roles": [], "pinned": False,
            "mention_everyone": False, "tts": False, "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None, "flags": 0, "components": []}


def answer(data) -> web.Response:
    # discord.py reads JSON only under exactly this content type, as Discord sends it.
    return web.Response(body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


async def stand_in(seen: list[tuple[str, str]]) -> tuple[web.AppRunner, int]:
    async def handler(request: web.Request) -> web.Response:
        seen.append((request.method, request.path))
        path = request.path.removeprefix("/proxied/api/v10")
        if path == "/users/@me":
            return answer(USER)
        if path == "/oauth2/applications/@me":
            return answer({"id": str(APP_ID), "name": "Boardroom", "icon": None, "description": "",
                                      "bot_public": True, "bot_require_code_grant": False, "owner": USER,
                                      "verify_key": "0" * 64, "flags": 0, "summary": ""})
        if path.endswith("/commands"):
            return answer([])
        if path.startswith("/channels/") and path.endswith("/messages"):
            return answer(message(path.split("/")[2]))
        return web.Response(status=204)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner, port


async def test_every_rest_call_goes_to_the_configured_base(tmp_path, restore_base):
    seen: list[tuple[str, str]] = []
    runner, port = await stand_in(seen)
    base = f"http://127.0.0.1:{port}/proxied/api/v10"
    config = Config(token="t", database=str(tmp_path / "b.db"), dev_guild=None, log_level="INFO", shard_count=1,
                    render_processes=0, discord_api=base)
    bot = Boardroom(config)
    try:
        await bot.login("not-a-real-token")  # /users/@me, the application, then setup_hook: the commands' sync
        await bot.get_partial_messageable(77).send("hello")
        await discord.Webhook.partial(APP_ID, "interaction-token", client=bot).send("a follow-up")
    finally:
        await bot.close()
        await runner.cleanup()
    paths = {path for _, path in seen}
    assert {"/proxied/api/v10/users/@me", "/proxied/api/v10/oauth2/applications/@me",
            f"/proxied/api/v10/applications/{APP_ID}/commands", "/proxied/api/v10/channels/77/messages",
            f"/proxied/api/v10/webhooks/{APP_ID}/interaction-token"} <= paths, sorted(paths)
    assert all(path.startswith("/proxied/api/v10/") for path in paths)


def test_the_setting_is_checked_and_completed():
    assert api_setting("") is None
    assert api_setting("http://nirn-proxy:8080") == "http://nirn-proxy:8080/api/v10"
    assert api_setting("http://nirn-proxy:8080/api/v10/") == "http://nirn-proxy:8080/api/v10"
    for bad in ("nirn-proxy:8080", "ftp://x/api/v10", "http://:80/api", "http://x:port/api", "http://x/api?v=1"):
        with pytest.raises(ConfigError, match="BOARDROOM_DISCORD_API"):
            api_setting(bad)
    config = Config.from_env({"BOARDROOM_DISCORD_API": "http://nirn-proxy:8080"}, dotenv=False)
    assert config.discord_api == "http://nirn-proxy:8080/api/v10"

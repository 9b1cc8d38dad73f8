"""Player names are text, not markup (issue 13): a nickname made of markdown, a masked link, a
spoiler, backticks, a mention or a line break reads literally in every channel message, embed,
panel and DM the bot sends. Checked on every REST request of whole games of every title."""

from __future__ import annotations

import json
import re

import pytest

from cogs.kit.names import text_name
from play.names import clean_name
from tests.support.bot_games import FAST, start_game
from tests.support.sim import custom_ids

NASTY = "[FREE NITRO](https://example.test) **b** __u__ ||s|| `c` <@1> line\nbreak"
FLAT = clean_name(NASTY)  # one line, 32 characters at most (play/names.py)
#: Where Discord renders markdown: there the name must come escaped. Elsewhere (labels,
#: placeholders, option descriptions, form titles) it is plain text and must come as it is.
MARKDOWN_KEYS = {"content", "title", "description", "name", "value", "text"}


def _strings(value, key=None, in_components=False):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, k, in_components or k == "components")
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, key, in_components)
    elif isinstance(value, str):
        yield key, in_components, value


def _bodies(sim):
    for entry in sim.env.http_requests:
        body = entry.json
        if isinstance(body, dict) and "payload_json" in body:
            body = json.loads(body["payload_json"])
        if body:
            yield entry.method, entry.path, body


def _check(sim) -> int:
    """Every place the name shows: escaped where markdown renders, plain where it does not,
    never raw markup. Returns how many strings showed it."""
    escaped = text_name(NASTY)
    shown = 0
    for method, path, body in _bodies(sim):
        for key, in_components, text in _strings(body):
            if "FREE NITRO" not in text:
                continue
            shown += 1
            if in_components and key not in ("content",):
                assert FLAT in text and escaped not in text, (method, path, key, text)
            else:
                assert escaped in text, (method, path, key, text)
                # no unescaped markdown from the name: every * _ | ` [ < of it is escaped
                assert not re.search(r"(?<!\\)\[FREE NITRO", text), (method, path, key, text)
            assert "\n".join(NASTY.split("\n")) not in text  # the line break never survives
    return shown


@pytest.mark.parametrize("title", ["toy", "imtheboss", "filthyrich", "blackfriday", "ewars"])
async def test_a_markup_nickname_reads_literally_everywhere(sim, title):
    ann = sim.player("ann")
    nasty = sim.guild.add_member(sim.env.create_user("nasty"), nick=NASTY)
    sim.players["nasty"] = nasty
    others = [nasty] + ([sim.player("bob")] if title in ("imtheboss", "filthyrich") else [])
    game = await start_game(sim, ann, title, others=tuple(others), ai=1 if title != "toy" else 0,
                            settings={**FAST, "on_deadline": "ai"})
    await nasty.slash(sim.channel, "game prefs", dm_panel=True)
    # Play a while: the seat-filler moves for everyone at each deadline; panels and the log open.
    for _ in range(6):
        if not await sim.next_timer(game.id):
            break
    if (await sim.game()).status == "active":
        assert custom_ids(await sim.hand(nasty))
        await sim.menu(ann)
        await sim.leave(nasty)
    await ann.slash(sim.channel, "game log")
    await sim.settle()
    assert _check(sim) >= 3

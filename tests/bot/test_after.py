"""After the game (issue 29), through SimCord: a whole game of each title, then what its players
see. The results name each person's rating change; the picture story under them is an
animated WebP under 8 MB whose frames are the public table at the story's moves, in order;
`/game replay` steps through the game (first, forward, jumps, everything) and its last move is
the final table message's picture, pixel for pixel; `/game export` is a file that
`python -m engine replay` replays to the same result."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

import engine
from engine.replay import steps
from render.common import picture_names
from render.story import LIMIT, WIDTH, padded, scaled
from tests.support.playout import people, play_out
from tests.support.sim import button, components_of, panel_of, text_of

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")
ROOT = Path(__file__).resolve().parents[2]


def message_with(sim, prefix: str):
    return next(m for m in reversed(sim.channel.history()) if any(a.filename.startswith(prefix) for a in m.attachments))


async def picture(message) -> Image.Image:
    return Image.open(io.BytesIO(await message.attachments[0].read())).convert("RGB")


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def distance(a: Image.Image, b: Image.Image) -> float:
    small = (96, round(96 * a.height / a.width))
    return sum(ImageStat.Stat(ImageChops.difference(a.resize(small), b.convert("RGB").resize(small))).mean)


async def finished_game(sim, title: str):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, title, others=[bob])
    return await play_out(sim, people(sim, await sim.game()), seed=len(title)), ann, bob


def check_story_plays_in_order(game, data: bytes, caption: str) -> None:
    """Each frame is closest to the public table at its own moment of the story, in order."""
    assert len(data) < LIMIT and data[8:12] == b"WEBP"
    story = Image.open(io.BytesIO(data))
    frames = []
    for i in range(story.n_frames):
        story.seek(i)
        frames.append(story.convert("RGB"))
    assert str(len(frames)) in caption and len(frames) >= 3
    rules = engine.get(game.title)
    draw = __import__(f"render.{game.title}", fromlist=["table_image"]).table_image
    log = [(e["seat"], e["action"]) for e in game_log(game)]
    states = [rules.view(s, None) for s, _ in steps(game.title, len(game.seats), game.seed, game.options, log)]
    marks = sorted({0, len(log), *(i for i, e in enumerate(game_log(game), 1)
                                   if any(ev["type"] in story_types(game) for ev in e["events"]))})
    assert len(frames) == min(len(marks), 48)
    expected = padded([scaled(draw(states[m], picture_names(game.names), game.lang)) for m in marks])
    for i, frame in enumerate(frames):
        nearest = min(range(len(expected)), key=lambda j: distance(frame, expected[j]))
        assert distance(frame, expected[nearest]) == distance(frame, expected[i]), f"frame {i} is out of order"
    assert frames[0].width == WIDTH


_LOGS: dict[int, list] = {}


def game_log(game) -> list:
    return _LOGS[game.id]


def story_types(game) -> frozenset[str]:
    from cogs.titles.contract import ui_for

    return ui_for(game.title).story_marks


@pytest.mark.parametrize("title", TITLES)
async def test_a_whole_game_is_rated_told_as_a_story_replayed_and_exported(sim, title, tmp_path):
    game, ann, bob = await finished_game(sim, title)
    assert game.status == "finished"
    _LOGS[game.id] = await sim.store.actions(game.id)
    # The results: each person's change, their rating now and their place in this server.
    results = text_of(message_with(sim, "results-"))
    assert results.count(", now ") == 2 and results.count("in this server") == 2, results
    judged = await sim.store.judged(game.id)
    assert judged is not None and judged.rated and {c.player.user_id for c in judged.changes} == {ann.id, bob.id}
    # The story: an animated WebP under the limit, its frames the table at each moment, in order.
    story = message_with(sim, "story-")
    check_story_plays_in_order(game, await story.attachments[0].read(), story.content)
    # The replay: the start, one move on, a jump, everything shown, and the last move.
    opened = panel_of(await ann.slash(sim.channel, "game replay"))
    assert "The start" in text_of(opened)
    after_one = panel_of(await ann.click(opened, custom_id=button(opened, label="▶")))
    assert "Move 1 of" in text_of(after_one)
    first_entry = _LOGS[game.id][0]
    jump = next((c for c in components_of(after_one) if (c.label or "").endswith("▶") and c.label != "▶"), None)
    assert jump is not None, "a replay jumps by the title's turns or rounds"
    jumped = panel_of(await ann.click(after_one, custom_id=jump.custom_id))
    assert "Move " in text_of(jumped) and text_of(jumped) != text_of(after_one)
    shown = panel_of(await ann.click(jumped, custom_id=button(jumped, label="Show everything")))
    assert "Every hand (the game is over)" in text_of(shown) and "ann" in text_of(shown)
    last = panel_of(await ann.click(shown, custom_id=button(shown, label="⏭")))
    assert f"Move {len(_LOGS[game.id])} of {len(_LOGS[game.id])}" in text_of(last)
    table = next(m for m in sim.channel.history() if m.id == game.table_message_id)
    assert same_pixels(await picture(last), await picture(table)), "the replay's last move is the final table"
    assert first_entry["seq"] >= 1
    # The export: a documented record that replays to the same result.
    exported = panel_of(await bob.slash(sim.channel, "game export"))
    record = json.loads(await exported.attachments[0].read())
    assert record["format"] == "boardroom-game" and [s["name"] for s in record["seats"]] == ["ann", "bob"]
    assert "user_id" not in json.dumps(record) and str(ann.id) not in json.dumps(record)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert run.returncode == 0 and "replayed to the recorded result" in run.stdout, run.stdout + run.stderr
    record["moves"] = record["moves"][:-1]  # one move short: not the recorded result
    path.write_text(json.dumps(record), encoding="utf-8")
    from engine.__main__ import main as engine_cli

    assert engine_cli(["replay", str(path)]) == 1

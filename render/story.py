"""The picture story of a finished game: an animated WebP (a GIF where Pillow has no WebP) of the
public table at each turn or round, a few seconds long, posted with the results.

It runs in a picture worker (render/pool.py) as ONE job, so the bot's event loop never waits:
the job replays the log through the rules (engine/replay.py) and draws, at each chosen move,
the title's table picture from the PUBLIC view, `view(state, None)`: a story shows nothing a
spectator could not have seen. The frames are scaled down together (the phone-legibility floor
is a ratio of text to picture width, which scaling keeps) and encoded under Discord's upload
limit: a story too large is encoded again with every other frame, then smaller.
"""

from __future__ import annotations

import importlib
import io
from dataclasses import dataclass
from typing import Any

from PIL import Image, features

import engine
from engine.replay import steps

#: Discord's upload limit for a bot's message without boosts (8 MB, decimal).
LIMIT = 8_000_000
#: Frames at most: a story is a few seconds, not the whole log.
MAX_FRAMES = 48
#: Width of a frame: the table pictures are 1200 px; Discord shows about 400 on a phone.
WIDTH = 720
#: How long the story plays, the last frame held longer so the end can be read.
SECONDS = 6.0
FRAME_MS = (120, 700)
LAST_MS = 2000
QUALITY = 72
#: libwebp's effort (0-6): 1 encodes a frame in about half the time of 4 for a few % more bytes.
METHOD = 1


@dataclass(frozen=True)
class Story:
    data: bytes
    kind: str  # "webp" | "gif"
    moves: tuple[int, ...]  # the move after which each frame was drawn (0: the start)
    size: tuple[int, int]
    ms: int  # how long it plays once

    @property
    def filename(self) -> str:
        return f"story.{self.kind}"


def pick(frames: list[int], moves: int, most: int = MAX_FRAMES) -> list[int]:
    """The moves to draw: the start, every mark (a turn, a round), the end; evenly thinned to
    `most`, always keeping the first and the last."""
    chosen = sorted({0, moves, *(m for m in frames if 0 < m < moves)})
    if len(chosen) <= most:
        return chosen
    step = (len(chosen) - 1) / (most - 1)
    return sorted({chosen[round(i * step)] for i in range(most)})


def frames_of(title: str, seats: int, seed: int, options: dict[str, Any], moves: list[tuple[int | None, dict]],
              at: list[int], names: list[str], lang: str) -> list[Image.Image]:
    """The table picture after each move in `at`, drawn from the public view."""
    draw = importlib.import_module(f"render.{title}").table_image
    rules = engine.get(title)
    wanted, out = set(at), []
    for n, (state, _) in enumerate(steps(title, seats, seed, options, moves)):
        if n in wanted:
            picture = draw(rules.view(state, None), names, lang)
            out.append(scaled(picture))
    return out


def scaled(picture: Image.Image, width: int = WIDTH) -> Image.Image:
    rgb = picture.convert("RGB")
    if rgb.width <= width:
        return rgb
    # BOX (area averaging) keeps small text readable at a third of LANCZOS's cost.
    return rgb.resize((width, round(rgb.height * width / rgb.width)), Image.Resampling.BOX)


def padded(frames: list[Image.Image]) -> list[Image.Image]:
    """The frames at one size, the largest: a shorter table is padded below in its own
    background colour (an animation has one size)."""
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    even = []
    for f in frames:
        if f.size != (width, height):
            canvas = Image.new("RGB", (width, height), f.getpixel((0, 0)))
            canvas.paste(f, (0, 0))
            f = canvas
        even.append(f)
    return even


def encode(frames: list[Image.Image], kind: str, quality: int = QUALITY) -> tuple[bytes, int]:
    """The frames as one animation."""
    even = padded(frames)
    each = max(FRAME_MS[0], min(FRAME_MS[1], round(SECONDS * 1000 / max(1, len(even) - 1))))
    durations = [each] * (len(even) - 1) + [LAST_MS]
    buf = io.BytesIO()
    if kind == "webp":
        even[0].save(buf, format="WEBP", save_all=True, append_images=even[1:], duration=durations, loop=0,
                     quality=quality, method=METHOD)
    else:
        pal = [f.convert("P", palette=Image.Palette.ADAPTIVE, colors=128) for f in even]
        pal[0].save(buf, format="GIF", save_all=True, append_images=pal[1:], duration=durations, loop=0,
                    optimize=False, disposal=1)
    return buf.getvalue(), sum(durations)


def story(title: str, seats: int, seed: int, options: dict[str, Any], moves: list[tuple[int | None, dict]],
          marks: list[int], names: list[str], lang: str, limit: int = LIMIT) -> Story:
    """The job: replay, draw the chosen moments, encode under `limit` bytes."""
    kind = "webp" if features.check("webp") else "gif"
    at = pick(marks, len(moves))
    frames = frames_of(title, seats, seed, options, moves, at, names, lang)
    quality = QUALITY
    while True:
        data, ms = encode(frames, kind, quality)
        if len(data) <= limit or len(frames) <= 2:
            break
        # Too large: every other frame (the last kept), and a little less quality.
        keep = list(range(0, len(frames) - 1, 2)) + [len(frames) - 1]
        frames, at = [frames[i] for i in keep], [at[i] for i in keep]
        quality = max(40, quality - 10)
    if len(data) > limit:
        raise ValueError(f"the story of a {title} game does not fit in {limit} bytes")
    return Story(data, kind, tuple(at), frames[0].size, ms)

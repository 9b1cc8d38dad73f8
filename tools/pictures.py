"""Draw each title's table mid-game and its results picture from seeded AI games.

    python tools/pictures.py [--out docs/images] [--lang en]
    python tools/pictures.py --palettes [TITLE ...]   choose the table pictures' palettes again

The README's pictures come from here; they are the same renderers the bot uses, given the
public view (what the channel sees).

The table pictures are drawn in one fixed 256-colour palette per title (render/compose.py);
`--palettes` chooses them again from the tables of seeded games at every player count and in
every language, from the colours the renderers name or work out, and from those their
translucent layers mix where they cross (a renderer's `palette_mixes()`: seeded games show only
some). Run it when a title draws with a new colour: tests/render/test_palettes.py says when.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.autoplay import play, steps  # noqa: E402
from engine.core import copy_json  # noqa: E402

NAMES = ["Ann", "Bob", "千代子", "Dev", "Eve", "Fumiko"]
SEATS = {"imtheboss": 4, "filthyrich": 4, "blackfriday": 4, "ewars": 3}


def draw(title: str, out: Path, lang: str, seed: int = 7) -> list[Path]:
    game = engine.get(title)
    seats = SEATS[title]
    names = NAMES[:seats]
    render = importlib.import_module(f"render.{title}")
    final, total = play(game, seats, seed)
    middle, _ = play(game, seats, seed, until=lambda _s, n: n >= total * 6 // 10)
    files = []
    for name, image in ((f"{title}-table-{lang}.png", render.table_image(game.view(middle, None), names, lang)),
                        (f"{title}-results-{lang}.png", render.results_image(game.view(final, None), names, lang))):
        path = out / name
        image.save(path, optimize=True)
        files.append(path)
    return files


def samples(title: str, moments: int = 5, langs: tuple[str, ...] = ("en", "ja", "es"), seed: int = 3):
    """RGB table pictures of seeded games at every player count, at `moments` points of each."""
    from render import compose

    game = engine.get(title)
    render = importlib.import_module(f"render.{title}")
    with compose.raw():
        for seats in range(game.min_players, game.max_players + 1):
            states = [copy_json(st) for st, *_ in steps(game, seats, seed + seats)]
            for k in range(moments):
                view = game.view(states[(len(states) - 1) * k // (moments - 1)], None)
                for lang in langs:
                    yield render.table_image(view, NAMES[:seats], lang).convert("RGB")


def palettes(titles: list[str]) -> None:
    from render import compose

    for title in titles:
        # more moments of the short games (E-Wars' translucent abilities over the last contract)
        moments = 24 if title == "ewars" else 8
        pictures = list(samples(title, moments=moments, seed=3)) + list(samples(title, moments=moments // 2, seed=40))
        # what its translucent layers make where they cross, which seeded games show only by chance
        pictures.append(compose.swatch(compose.mixed_colours(title)))
        data = compose.choose_palette(pictures, compose.named_colours(title))
        path = compose.PALETTE_DIR / f"{title}.pal"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        print(path, len(data) // 3, "colours")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="docs/images", type=Path)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--palettes", nargs="*", metavar="TITLE", help="choose the table pictures' palettes again")
    args = parser.parse_args()
    if args.palettes is not None:
        palettes(args.palettes or list(SEATS))
        return
    args.out.mkdir(parents=True, exist_ok=True)
    for title in SEATS:
        for path in draw(title, args.out, args.lang):
            print(path, f"{path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()

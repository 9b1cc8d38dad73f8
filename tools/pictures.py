"""Draw each title's table mid-game and its results picture from seeded AI games.

    python tools/pictures.py [--out docs/images] [--lang en]

The README's pictures come from here; they are the same renderers the bot uses, given the
public view (what the channel sees).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.autoplay import play  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="docs/images", type=Path)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for title in SEATS:
        for path in draw(title, args.out, args.lang):
            print(path, f"{path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()

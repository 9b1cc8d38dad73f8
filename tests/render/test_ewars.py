"""E-Wars pictures: every picture at every player count, early and late, in English and
Japanese, within the size and time bounds; PNGs go to artifacts/ewars/ for looking at."""

from __future__ import annotations

import copy
import random
import time
from functools import lru_cache
from pathlib import Path

import pytest

from engine.ewars import GAME
from render import ewars as R
from render.common import png

OUT = Path(__file__).resolve().parents[2] / "artifacts" / "ewars"
NAMES = ["Alice", "Bob the Builder with a very long name", "千代子", "Dmitri"]


WANTED = {"start", "dice", "dispatch", "contract", "over"}


@lru_cache(maxsize=None)
def snapshots(seats: int) -> dict[str, tuple[dict, dict]]:
    """(seat 0's view, public view) at moments worth drawing, from the first of a few seeded
    AI-driven games that reaches every moment, a late one among them (which seed does depends
    on how the seat-filler plays, so a stronger seat-filler does not leave a moment undrawn)."""
    for seed in range(40 + seats, 40 + seats + 50, 7):
        snaps = _played(seats, seed)
        if WANTED <= set(snaps) and any(k.startswith("late") for k in snaps):
            return snaps
    return snaps  # the test says which moment is missing


def _played(seats: int, seed: int) -> dict[str, tuple[dict, dict]]:
    rng = random.Random(seats * 1000 + seed)
    st = GAME.setup(seats, seed)
    snaps: dict[str, tuple[dict, dict]] = {"start": (GAME.view(st, 0), GAME.view(st, None))}
    while GAME.outcome(st) is None:
        movers = [s for s in range(seats) if GAME.legal(st, s)]
        seat = rng.choice(movers)
        GAME.apply(st, seat, GAME.ai_action(GAME.view(st, seat), GAME.legal(st, seat), rng))
        ph, last = st["phase"], st["last"]
        claims = sum(c is not None for c in st["claims"])
        key = None
        if ph == "dice" and claims >= 2:
            key = "dice" if st["rows"] == 4 and st["deck"] else "late_dice"
        elif ph == "dispatch" and any(e is not None for e in st["emps"]) and claims >= 2:
            key = "dispatch" if st["deck"] else "late_dispatch"
        elif ph == "await_start" and last and any(s["removed"] for s in last["steps"]):
            key = "contract" if st["deck"] else "late_contract"
        if key and key not in snaps:
            snaps[key] = (GAME.view(st, 0), GAME.view(st, None))
    snaps["over"] = (GAME.view(st, 0), GAME.view(st, None))
    return snaps


def _check(img, name: str, max_kb: int = 500) -> float:
    assert img.width <= 1200 and img.height <= 1600
    t0 = time.perf_counter()
    data = png(img)
    took = time.perf_counter() - t0
    assert len(data) < max_kb * 1024
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.png").write_bytes(data)
    return took


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_picture_renders(seats, lang):
    snaps = snapshots(seats)
    assert WANTED <= set(snaps)
    assert any(k.startswith("late") for k in snaps), sorted(snaps)
    names = NAMES[:seats]
    for key, (mine, public) in snaps.items():
        _check(R.table_image(public, names, lang), f"test_table_{seats}p_{key}_{lang}")
        panel = R.panel_image(mine, names, lang)
        if key == "over":
            assert panel is None
        else:
            assert panel is not None
            _check(panel, f"test_panel_{seats}p_{key}_{lang}")
        assert R.panel_image(public, names, lang) is None  # no seat: no private picture
    _check(R.results_image(snaps["over"][1], names, lang), f"test_results_{seats}p_{lang}")


def test_four_player_pictures_stay_small():
    """Speed is measured by `python -m bench`; here only the size budget (500 KB)."""
    for key, (mine, public) in snapshots(4).items():
        for lang in ("en", "ja"):
            for fn, view in ((R.table_image, public), (R.panel_image, mine)):
                img = fn(view, NAMES, lang)
                if img is not None:
                    assert len(png(img)) < 500 * 1024, key


def test_pictures_come_from_the_view_only():
    """A public view during dispatch draws face-down backs; the owner's panel shows ranks."""
    mine, public = snapshots(3)["dispatch"]
    assert all(c is None or c["emp"] is None or set(c["emp"]) == {"seat"} for c in public["grid"])
    R.table_image(public, NAMES[:3], "en")
    R.panel_image(mine, NAMES[:3], "en")


def test_short_names_list_does_not_crash():
    mine, public = snapshots(2)["contract"]
    R.table_image(public, ["A"], "en")
    R.results_image(snapshots(2)["over"][1], [], "ja")


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_seat_cards_show_every_discard(seats, lang):
    """A long discard pile wraps onto more lines of a taller card instead of being cut with an
    ellipsis (the players' cards used to end "Discards: STAR EXEC M…")."""
    from render import legible

    everything = ["star", "executive", "manager", "section_chief", "subsection_chief", "subsection_chief",
                  "staff", "staff", "staff"]
    with legible.watching() as seen:
        for key in ("contract", "dispatch", "dice"):
            public = copy.deepcopy(snapshots(seats)[key][1])
            for s in public["seats"]:
                s["discards"], s["discard_count"] = everything[: 9 - s["hand"]] or everything[:3], 9 - s["hand"]
            public["seats"][1]["discards"] = everything
            img = R.table_image(public, ["Ann", "Bob", "Cal", "Dot"][:seats], lang)
            _check(img, f"test_table_{seats}p_{key}_all_discards_{lang}")
    assert len(seen) == 3 and all(c.texts for c in seen)
    assert [c.cut for c in seen] == [[], [], []]  # nothing ended in an ellipsis

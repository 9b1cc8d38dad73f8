"""I'm the Boss! pictures: every picture at every player count, early and late (and mid-deal with
offers, travellers and an open window), in English and Japanese, within the size and time
bounds; PNGs go to artifacts/imtheboss/ for looking at."""

from __future__ import annotations

import random
import time
from functools import lru_cache
from pathlib import Path

import pytest

from engine.imtheboss import GAME
from render import imtheboss as R
from render.common import png

OUT = Path(__file__).resolve().parents[2] / "artifacts" / "imtheboss"
NAMES = ["Ann", "Bob the Builder with a very long name", "千代子", "Dot", "Eve", "Fumiko"]


@lru_cache(maxsize=None)
def snapshots(seats: int) -> dict[str, tuple[dict, dict]]:
    """(seat 0's view, public view) at moments worth drawing, from one AI-driven game."""
    rng = random.Random(seats)
    st = GAME.setup(seats, 60 + seats, {})
    snaps: dict[str, tuple[dict, dict]] = {"start": (GAME.view(st, 0), GAME.view(st, None))}
    for _ in range(20000):
        if GAME.outcome(st) is not None:
            break
        seats_ = [s for s in range(seats) if GAME.legal(st, s)]
        rng.shuffle(seats_)
        moved = False
        for s in seats_:
            a = GAME.ai_action(GAME.view(st, s), GAME.legal(st, s), rng)
            if a is not None:
                GAME.apply(st, s, a)
                moved = True
                break
        if not moved:
            win = sorted(GAME.windows(st), key=lambda w: w.kind != "deal")[0]
            GAME.apply(st, None, {"type": "timeout", "id": win.id})
        deal = st["deal"]
        key = None
        if deal is not None and st["window"] is not None and st["window"]["kind"] == "reaction" and deal["offers"]:
            key = "reaction" if st["deals"] < 6 else "late_reaction"
        elif deal is not None and deal["offers"] and (deal["table"] or deal["away"]) and st["window"] is None:
            key = "deal" if st["deals"] < 6 else "late_deal"
        elif deal is not None and st["window"] is not None and st["window"]["kind"] == "last_call":
            key = "last_call"
        elif st["phase"] == "discard":
            key = "discard"
        elif st["phase"] == "turn_start" and st["deals"] >= 8:
            key = "late"
        if key and key not in snaps:
            snaps[key] = (GAME.view(st, 0), GAME.view(st, None))
    snaps["over"] = (GAME.view(st, 0), GAME.view(st, None))
    return snaps


def _check(img, name: str, max_kb: int = 500) -> float:
    assert img.width <= 1200
    t0 = time.perf_counter()
    data = png(img)
    took = time.perf_counter() - t0
    assert len(data) < max_kb * 1024, f"{name}: {len(data)} bytes"
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.png").write_bytes(data)
    return took


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_picture_renders(seats, lang):
    snaps = snapshots(seats)
    names = NAMES[:seats]
    assert {"start", "over"} <= set(snaps)
    for key, (mine, public) in snaps.items():
        if key == "over":
            _check(R.results_image(public, names, lang), f"{seats}p_results_{lang}")
            continue
        _check(R.table_image(public, names, lang), f"{seats}p_{key}_{lang}")
        panel = R.panel_image(mine, names, lang)
        if panel is not None:
            _check(panel, f"{seats}p_{key}_panel_{lang}")
    assert R.panel_image(snaps["start"][1], names, lang) is None  # the public view has no hand


def test_mid_deal_snapshots_exist():
    kinds = set()
    for seats in (3, 4, 5, 6):
        kinds |= set(snapshots(seats))
    assert {"deal", "reaction", "last_call", "late"} <= kinds


@pytest.mark.parametrize("seats", [3, 6])
def test_pictures_stay_small(seats):
    """Speed is measured by `python -m bench`; here only the size budget (500 KB)."""
    for key, (_mine, public) in snapshots(seats).items():
        img = R.results_image(public, NAMES[:seats], "ja") if key == "over" else R.table_image(public, NAMES[:seats], "ja")
        assert len(png(img)) < 500 * 1024, key


def test_spanish_hand_card_names_break_between_syllables_with_a_hyphen():
    """Issue 30, item 15: "Reclut" / "amiento" was split mid-word with no hyphen."""
    from engine.imtheboss.data import KINDS
    from locales import tr
    from render import legible

    mine, _public = snapshots(3)["start"]
    view = {**mine, "private": {**mine["private"], "kinds": {k: 1 for k in KINDS}}}
    with legible.watching() as seen:
        R.panel_image(view, NAMES[:3], "es")
    drawn = [text for _size, text in seen[-1].texts]
    assert "Recluta-" in drawn and "miento" in drawn
    rebuilt = " ".join(drawn).replace("- ", "")  # lines broken at spaces, or hyphenated
    for k in KINDS:  # every name is drawn whole, on lines that rebuild it
        assert tr("es", f"imtheboss.card.{k}") in rebuilt, k

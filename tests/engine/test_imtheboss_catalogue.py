"""I'm the Boss!: every event, phase, timer, option, error and action the engine can produce has
its message in English and Japanese, and each message is filled by the params given."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.core import RuleError, copy_json
from engine.imtheboss import GAME
from locales import catalogue, fields, tr

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "ja")


def _events(n: int, seed: int, options=None) -> list[dict]:
    """Events of a seeded random game (and the AI's) with the given options."""
    out = []
    rng = random.Random(seed)
    state = GAME.setup(n, seed, options or {})
    for _ in range(3000):
        if GAME.outcome(state) is not None:
            break
        movers = [s for s in range(n) if GAME.legal(state, s)]
        windows = GAME.windows(state)
        if windows and (not movers or rng.random() < 0.05):
            out += GAME.apply(state, None, {"type": "timeout", "id": rng.choice(windows).id})
            continue
        s = rng.choice(movers)
        legal = GAME.legal(state, s)
        action = GAME.ai_action(GAME.view(state, s), legal, rng) if rng.random() < 0.5 else None
        out += GAME.apply(state, s, action or rng.choice(legal))
    return out


def _engine_source() -> str:
    """The rules' source, all modules (the Game is split by job over several files)."""
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "engine" / "imtheboss").glob("*.py")))


@pytest.fixture(scope="module")
def events():
    evs = []
    for n, seed, opts in [(2, 1, {}), (3, 2, {}), (4, 3, {"pay_active_only": True}), (5, 4, {"short_game": True}),
                          (6, 5, {}), (4, 6, {"less_cutthroat": True, "must_deal_at_10": True})]:
        evs += _events(n, seed, opts)
    state = GAME.setup(3, 9, {})
    evs += GAME.apply(state, 1, {"type": "resign"})
    evs += GAME.apply(state, 2, {"type": "resign"})
    return evs


def test_every_event_type_is_narrated_and_filled(events):
    seen = {e["type"] for e in events}
    assert len(seen) > 35
    for lang in LANGS:
        cat = catalogue(lang)
        for e in events:
            key = f"imtheboss.event.{e['type']}"
            assert key in cat, f"{lang} lacks {key}"
            params = {k: v for k, v in e.items() if k not in ("type", "to")}
            templates = cat[key].values() if isinstance(cat[key], dict) else [cat[key]]
            for tpl in templates:
                assert fields(tpl) <= set(params), f"{key} uses {fields(tpl) - set(params)}"
            text = tr(lang, key, **params)
            assert "imtheboss." not in text and "{" not in text, text


def test_every_event_the_engine_can_emit_has_a_message():
    src = _engine_source()
    emitted = set(re.findall(r'"type": "([a-z_]+)"', src))
    emitted |= {f"{b}_{k}" for b in ("offered", "accepted", "declined") for k in ("usd", "div")}
    emitted |= {"die_safe", "die_end"}
    actions = {a for a in emitted if f"_do_{a}" in src}
    for lang in LANGS:
        cat = catalogue(lang)
        for t in emitted - actions:
            assert f"imtheboss.event.{t}" in cat, f"{lang} lacks event {t}"
        for t in actions:
            assert f"imtheboss.action.{t}" in cat, f"{lang} lacks action {t}"


def test_phases_timers_options():
    for lang in LANGS:
        cat = catalogue(lang)
        for phase in ("marker", "turn_start", "moved", "discard", "deal", "over"):
            assert f"imtheboss.phase.{phase}" in cat
        for tk in GAME.timers:
            assert f"imtheboss.timer.{tk.kind}" in cat
        for o in GAME.options:
            assert f"imtheboss.option.{o.key}.label" in cat and f"imtheboss.option.{o.key}.help" in cat
        assert tr(lang, "imtheboss.result", money=12) == "$12M"


def test_every_error_key_has_its_params():
    src = _engine_source()
    for key, params in re.findall(r'RuleError\("([a-z_]+)"((?:, \w+=[^,)]+)*)\)', src):
        names = set(re.findall(r"(\w+)=", params))
        for lang in LANGS:
            tpl = catalogue(lang)[f"imtheboss.error.{key}"]
            assert fields(tpl) <= names, f"{lang} error {key} uses {fields(tpl) - names}"


def test_refusals_in_random_play_have_messages():
    rng = random.Random(3)
    state = GAME.setup(4, 3, {})
    bad = [None, -1, 10**9, "x", [], {}]
    for _ in range(1500):
        if GAME.outcome(state) is not None:
            break
        movers = [s for s in range(4) if GAME.legal(state, s)]
        if not movers:
            GAME.apply(state, None, {"type": "timeout", "id": GAME.windows(state)[0].id})
            continue
        s = rng.choice(movers)
        legal = GAME.legal(state, s)
        probe = dict(rng.choice(legal))
        for k in list(probe):
            if k != "type":
                probe[k] = rng.choice(bad)
        for seat in (s, (s + 1) % 4):
            try:
                GAME.apply(copy_json(state), seat, probe)  # a copy: a probe that passes changes nothing
            except RuleError as err:
                key = err.key if err.key.startswith("core.") else f"imtheboss.error.{err.key}"
                for lang in LANGS:
                    text = tr(lang, key, **err.params)
                    assert "{" not in text and not text.startswith("imtheboss."), (key, text)
        GAME.apply(state, s, rng.choice(legal))

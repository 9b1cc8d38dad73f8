"""The lobby, the settings page and the rules pages say what the game does (issue 30, items 1 and
16): every option of every title, chosen through the lobby's form, reads the same in all three
places as the value the engine was given; AI seats sit with the players; the player count is
said once."""

from __future__ import annotations

import re

import pytest

import engine
from engine.core import RuleError
from locales import tr
from tests.support.sim import TIGHT, button, heading, panel_of, text_of, custom_ids

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")


def offered(g, players: int):
    """The options a host chooses at this many players."""
    return [o for o in g.options if not o.house and (not o.players or players in o.players)]


def _label(title: str, key: str) -> str:
    return tr("en", f"{title}.option.{key}.label")


def _says(text: str, title: str, spec, value) -> bool:
    """Whether `text` says the option is at `value` (switches: ✔ on, ✖ off; others: their value)."""
    label = _label(title, spec.key)
    if spec.kind == "bool":
        if value:
            return f"✔ {label}" in text and f"✖ {label}" not in text
        shown_off = f"✖ {label}" in text
        return f"✔ {label}" not in text and (shown_off or not spec.default)
    if value == spec.default:
        return f"{label}:" not in text
    shown = tr("en", f"{title}.option.{spec.key}.{value}") if spec.kind == "choice" else str(value)
    return f"{label}: {shown}" in text


def _form_values(specs, chosen: dict) -> dict:
    values: dict = {"lang": ["en"], "pace": "slow", "on_deadline": "ai"}
    if any(s.kind == "bool" for s in specs):
        values["variants"] = [s.key for s in specs if s.kind == "bool" and chosen[s.key]]
    for s in specs:
        if s.kind == "choice":
            values[f"opt:{s.key}"] = [str(chosen[s.key])]
        elif s.kind == "int":
            values[f"opt:{s.key}"] = "" if chosen[s.key] is None else str(chosen[s.key])
    return values


def _flipped(spec):
    """A value other than the default."""
    if spec.kind == "bool":
        return not spec.default
    if spec.kind == "choice":
        return next(c for c in spec.choices if c != spec.default)
    return spec.lo + 4 if spec.default is None else None


def _playable(g, players: int, key: str, value) -> bool:
    """Whether the rules accept a game with this option (I'm the Boss!'s two-player rules are
    always on at two)."""
    try:
        g.setup(players, 1, {key: value})
    except RuleError:
        return False
    return True


def _cases():
    for title in TITLES:
        g = engine.get(title)
        counts = sorted({n for n in range(g.min_players, g.max_players + 1)},
                        key=lambda n: n)
        seen = set()
        for n in counts:
            keys = tuple(o.key for o in offered(g, n))
            if keys and keys not in seen:
                seen.add(keys)
                yield title, n


@pytest.mark.parametrize(("title", "players"), list(_cases()))
async def test_every_option_reads_as_the_game_plays_it(sim, title, players):
    ann = sim.player("ann")
    g = engine.get(title)
    specs = offered(g, players)
    await sim.open_lobby(ann, title, ai=players - 1)
    # Each option at its default and flipped, the others at their defaults: the lobby says it.
    for spec in specs:
        for value in (spec.default, _flipped(spec)):
            chosen = {s.key: s.default for s in specs} | {spec.key: value}
            shown = await sim.lobby(ann, "opts")
            await ann.submit_modal(shown, _form_values(specs, chosen))
            lobby = text_of(sim.lobby_message())
            assert _says(lobby, title, spec, value), (spec.key, value, lobby)
    # Every option flipped at once, then the game: the engine got those values, and the settings
    # page and the rules page opened from the table say so.
    chosen = {s.key: _flipped(s) if _playable(g, players, s.key, _flipped(s)) else s.default for s in specs}
    await ann.submit_modal(await sim.lobby(ann, "opts"), _form_values(specs, chosen))
    game = await sim.game()
    await sim.store.update_game(game.id, 0, settings={**game.settings, **TIGHT})
    started = await sim.lobby(ann, "start")
    await sim.settle()
    game = await sim.game()
    assert game.status == "active", started
    settings = text_of(await sim.settings(ann))
    table = await sim.table_message()
    rules = panel_of(await ann.click(table, custom_id=button(table, code_suffix=":Hrules:0")))
    for spec in specs:
        assert game.options.get(spec.key, spec.default) == chosen[spec.key], spec.key
        for where, text in (("settings", settings), ("rules", heading(rules))):
            assert _says(text, title, spec, chosen[spec.key]), (where, spec.key, text)
    # Paging on and back keeps the table's own rules on the first page.
    forward = panel_of(await ann.click(rules, custom_id=next(c for c in custom_ids(rules) if c.endswith(":1:" + title))))
    back = panel_of(await ann.click(forward, custom_id=next(c for c in custom_ids(forward)
                                                            if c.endswith(":0:" + title))))
    assert "This table plays" in heading(back)


async def test_ai_seats_sit_with_the_players_and_the_count_is_said_once(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.open_lobby(ann, "imtheboss", others=[bob], ai=2)
    lobby = sim.lobby_message()
    text = text_of(lobby)
    players, setup = text.index("Players (4/6)"), text.index("Set-up")
    for name in ("🤖 Ada", "🤖 Bert"):
        assert players < text.index(name) < setup, text
    assert len(re.findall(r"\b2\D{1,6}6\b", text)) == 1, text  # "2 to 6 players", once

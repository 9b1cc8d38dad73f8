"""Spanish: Discord's rules for localized command names hold in every complete language, Spanish
Discord clients get the Spanish catalogue, and in AI games of every title the Spanish narration,
panels and forms show no raw keys and fit Discord's limits."""

from __future__ import annotations

import random

import pytest

import engine
import locales
from cogs.kit import codec
from cogs.kit.panel import Ask, Button, Select, Show
from cogs.titles.contract import PanelContext, TableContext, ui_for
from engine.core import SYSTEM
from locales import COMPLETE, Translator
from locales import load as catalogue

NAMES = ["Alejandra", "Bartolomé", "Cristóbal", "Dolores", "Esperanza", "Fernando"]


def _is_command_name(name: str) -> bool:
    """Discord: ^[-_\\p{L}\\p{N}]{1,32}$, lowercase where the script has case."""
    return (1 <= len(name) <= 32 and name == name.lower()
            and all(ch.isalnum() or ch in "-_" for ch in name))


@pytest.mark.parametrize("lang", COMPLETE)
def test_command_names_and_descriptions_fit_discord(lang):
    cat = catalogue(lang)
    cmd = {k: v for k, v in cat.items() if k.startswith("core.cmd.")}
    names = {k: v for k, v in cmd.items() if k.endswith((".name", ".title_name"))}
    assert names, lang
    for key, name in names.items():
        assert _is_command_name(name), f"{lang}:{key} = {name!r}"
    subcommands = [v for k, v in names.items() if k.endswith(".name") and k != "core.cmd.game.name"]
    assert len(subcommands) == len(set(subcommands)), f"{lang}: two subcommands share a name"
    for key, text in cmd.items():
        if key not in names:
            assert 1 <= len(text) <= 100, f"{lang}:{key} is {len(text)} characters"
    for key in [k for k in cat if k.startswith("core.lang.")] + [f"{t}.name" for t in engine.discover()]:
        assert 1 <= len(cat[key]) <= 100, key


def test_spanish_discord_locales_use_the_spanish_catalogue():
    import discord

    assert "es" in locales.languages() and "es" in COMPLETE
    assert locales.language_of(discord.Locale.spain_spanish) == "es"
    assert locales.language_of(discord.Locale.latin_american_spanish) == "es"
    assert locales.language_of("es-ES") == "es" and locales.language_of("es-419") == "es"
    assert locales.tr("es", "core.error.player_count", lo=2, hi=4) == "Este juego necesita de 2 a 4 jugadores."
    assert locales.tr("es", "imtheboss.event.drew", seat="Ana", count=1) == "Ana roba 1 carta."
    assert locales.tr("es", "imtheboss.event.drew", seat="Ana", count=3) == "Ana roba 3 cartas."


def _clean(text: str, title: str) -> None:
    assert f"{title}." not in text and "{" not in text, text[:300]


def _check_panel(ui, pc, panel, title: str, depth: int = 0) -> None:
    assert len(panel.title) <= 256 and len(panel.description) <= 4096
    _clean(panel.title + panel.description, title)
    for name, value, _ in panel.fields:
        assert len(name) <= 256 and len(value) <= 1024
        _clean(name + value, title)
    for comp in panel.components:
        if isinstance(comp, Button):
            assert comp.label and len(comp.label) <= 80, comp.label
            _clean(comp.label, title)
            if depth == 0 and not comp.disabled and not codec.is_action_code(comp.code) and comp.code not in ("back", "ref"):
                _check_reply(ui, pc, ui.on_component(pc, comp.code, []), title, depth)
        elif isinstance(comp, Select):
            assert len(comp.placeholder) <= 150, comp.placeholder
            _clean(comp.placeholder, title)
            for o in comp.options:
                assert o.label and len(o.label) <= 100, o.label
                assert o.description is None or len(o.description) <= 100, o.description
                _clean(o.label + (o.description or ""), title)
            if depth == 0 and comp.code != "act" and comp.options:
                _check_reply(ui, pc, ui.on_component(pc, comp.code, [comp.options[0].value]), title, depth)


def _check_reply(ui, pc, reply, title: str, depth: int) -> None:
    if isinstance(reply, Show):
        _check_panel(ui, pc, reply.panel, title, depth + 1)
    elif isinstance(reply, Ask):
        assert len(reply.modal.title) <= 45, reply.modal.title
        _clean(reply.modal.title, title)
        for field in reply.modal.inputs:
            assert len(field.label) <= 45 and len(field.placeholder) <= 100, field
            _clean(field.label + field.placeholder, title)


@pytest.mark.parametrize("title", sorted(engine.discover()))
def test_spanish_games_narrate_and_draw_panels_cleanly(title):
    ui = ui_for(title)
    game = ui.game
    t = Translator("es")
    for players, seed in ((2, 3), (3, 5), (4, 7)):
        state = game.setup(players, seed, {})
        rng = random.Random(seed)
        names = NAMES[:players]
        for step in range(250):
            if game.outcome(state) is not None:
                break
            if step % 2 == 0:
                for seat in range(players):
                    pc = PanelContext(game_id=4242, version=7, seat=seat, view=game.view(state, seat),
                                      legal=game.legal(state, seat), t=t, names=names, title=title)
                    _check_panel(ui, pc, ui.panel(pc), title)
                tc = TableContext(4242, 7, game.view(state, None), t, names, title)
                lines = ui.table_lines(tc)
                assert len("\n".join(lines)) <= 4096
                for line in lines:
                    _clean(line, title)
                for seat in range(players):
                    todo = ui.todo(t, game.view(state, None), seat)
                    if todo:
                        _clean(todo, title)
            movers = [s for s in range(players) if game.legal(state, s)]
            if movers:
                seat = rng.choice(movers)
                legal = game.legal(state, seat)
                action = game.ai_action(game.view(state, seat), legal, rng) if rng.random() < 0.7 else None
                events = game.apply(state, seat, action or rng.choice(legal))
            else:
                windows = game.windows(state)
                if not windows:
                    break
                events = game.apply(state, SYSTEM, {"type": "timeout", "id": windows[-1].id})
            for event in events:
                text = ui.narrate(t, event, names)
                if text:
                    _clean(text, title)

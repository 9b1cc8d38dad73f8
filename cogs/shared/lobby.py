"""The lobby every title shares: who sits where, AI seats, the title's options, language and
pace, and the start. Its buttons carry only the game id (`L<verb>`), so they work at any time
and after a restart; every click re-reads the lobby from the store."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import discord

from locales import Translator, languages
from store import GameRow, Seat

from . import settings as settings_mod
from .names import text_name
from .panel import Button, Option, Panel, Select, short
from .titles import ui_for
from .views import build_embed, build_view

AI_NAMES = ("Ada", "Bert", "Cleo", "Dax", "Edda", "Finn")


def ai_name(seats: list[Seat]) -> str:
    used = {s.name for s in seats}
    for name in AI_NAMES:
        label = f"🤖 {name}"
        if label not in used:
            return label
    return f"🤖 AI {len(seats) + 1}"


def lobby_options(g: Any) -> list[Any]:
    """The options the host chooses (house options follow the game's settings instead)."""
    return [o for o in g.options if not o.house]


def offered(g: Any, players: int) -> list[Any]:
    """The host's options that apply at this many players (two-player rules only at two)."""
    return [o for o in lobby_options(g) if not o.players or players in o.players]


def lobby_version(game: GameRow) -> int:
    """The lobby's version for its buttons: a digest of who sits where (and who hosts), so a
    click drawn before the seats changed (a double click on Add AI, Start pressed as someone
    left) is recognised as stale. The host's own option changes do not make it stale."""
    seats = [(s.user_id, s.name, s.is_ai) for s in game.seats]
    text = json.dumps([seats, game.host_id], sort_keys=True, default=str)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "big")


def house_options(g: Any, settings: dict[str, Any]) -> dict[str, Any]:
    """The values of a title's house options, from the game's (merged) settings."""
    return {o.key: settings[o.key] for o in g.options if o.house and o.key in settings}


def options_summary(game: GameRow, t: Translator) -> list[str]:
    ui = ui_for(game.title)
    lines = []
    for spec in offered(ui.game, len(game.seats)):
        value = game.options.get(spec.key, spec.default)
        if value == spec.default:
            continue
        label = t(f"{game.title}.option.{spec.key}.label")
        if spec.kind == "bool":
            lines.append(f"✔ {label}")
        elif spec.kind == "choice":
            lines.append(f"{label}: {t(f'{game.title}.option.{spec.key}.{value}')}")
        else:
            lines.append(f"{label}: {value}")
    return lines


def lobby_message(game: GameRow, t: Translator) -> tuple[discord.Embed, discord.ui.View | None]:
    """The lobby embed and buttons (in the game's language: the lobby is the channel's)."""
    ui = ui_for(game.title)
    g = ui.game
    conf = settings_mod.merged(game.settings)
    seats = []
    for s in game.seats:
        host = " 👑" if s.user_id == game.host_id else ""
        seats.append(f"`{s.seat + 1}` {text_name(s.name)}{host}")
    if not seats:
        seats.append(t("core.lobby.empty"))
    lines = [t(f"{game.title}.tagline"), "", t("core.lobby.players_needed", lo=g.min_players, hi=g.max_players)]
    variants = options_summary(game, t)
    fields = [(t("core.lobby.players", n=len(game.seats), hi=g.max_players), "\n".join(seats), True)]
    fields.append((t("core.lobby.setup"), "\n".join([
        t("core.lobby.language", lang=t(f"core.lang.{game.lang}")),
        t("core.lobby.pace", pace=t(f"core.pace.{conf['pace']}")),
        t("core.lobby.on_deadline", mode=t(f"core.on_deadline.{conf['on_deadline']}")),
    ] + (variants or [t("core.lobby.no_variants")])), True))
    if game.status == "lobby":
        footer = t("core.lobby.footer")
    elif game.status == "active":
        footer = t("core.lobby.started")
    else:
        footer = t("core.lobby.cancelled")
    panel = Panel(title=t("core.lobby.title", title=t(f"{game.title}.name")), description="\n".join(lines),
                  fields=fields, footer=footer)
    embed = build_embed(panel, ui.colour)
    if game.status != "lobby":
        return embed, None
    buttons = [
        # Joining and leaving mean the same whenever they are clicked; the rest is bound to the
        # lobby as it was drawn (a double click on Add AI adds one seat).
        Button(t("core.lobby.join"), "Ljoin", "success", any_version=True),
        Button(t("core.lobby.leave"), "Lleave", "secondary", any_version=True),
        Button(t("core.lobby.add_ai"), "Laddai", "secondary", emoji="🤖"),
        Button(t("core.lobby.remove_ai"), "Lrmai", "secondary"),
        Button(t("core.lobby.options"), "Lopts", "secondary", emoji="⚙️"),
        Button(t("core.lobby.start"), "Lstart", "primary", emoji="▶️", row=1),
        Button(t("core.lobby.cancel"), "Lcancel", "danger", row=1),
    ]
    return embed, build_view(game, lobby_version(game), buttons)


def options_panel(game: GameRow, t: Translator) -> Panel:
    """The host's options panel: variants (one multi-select), choice options, language, pace,
    and what happens at a deadline."""
    ui = ui_for(game.title)
    g = ui.game
    conf = settings_mod.merged(game.settings)
    comps: list[Any] = []
    bools = [o for o in offered(g, len(game.seats)) if o.kind == "bool"]
    if bools:
        comps.append(Select(
            code="Lvariants", placeholder=t("core.lobby.variants"), min_values=0, max_values=len(bools),
            any_version=True,
            options=[Option(label=t(f"{game.title}.option.{o.key}.label"), value=o.key,
                            description=short(t(f"{game.title}.option.{o.key}.help")),
                            default=bool(game.options.get(o.key, o.default))) for o in bools],
        ))
    for o in lobby_options(g):
        if o.kind == "choice" and len(comps) < 2:
            comps.append(Select(
                code=f"Lopt:{o.key}", placeholder=t(f"{game.title}.option.{o.key}.label"), any_version=True,
                options=[Option(label=t(f"{game.title}.option.{o.key}.{c}"), value=str(c),
                                default=game.options.get(o.key, o.default) == c) for c in o.choices],
            ))
    comps.append(Select(
        code="Llang", placeholder=t("core.lobby.choose_language"), any_version=True,
        options=[Option(label=t(f"core.lang.{code}"), value=code, default=code == game.lang) for code in languages()],
    ))
    comps.append(Select(
        code="Lpace", placeholder=t("core.lobby.choose_pace"), any_version=True,
        options=[Option(label=t(f"core.pace.{p}"), value=p, description=short(t(f"core.pace_help.{p}")),
                        default=conf["pace"] == p) for p in settings_mod.PACES],
    ))
    comps.append(Select(
        code="Ldeadline", placeholder=t("core.lobby.choose_on_deadline"), any_version=True,
        options=[Option(label=t(f"core.on_deadline.{m}"), value=m, description=short(t(f"core.on_deadline_help.{m}")),
                        default=conf["on_deadline"] == m) for m in settings_mod.ON_DEADLINE],
    ))
    return Panel(title=t("core.lobby.options_title", title=t(f"{game.title}.name")),
                 description=t("core.lobby.options_help"), components=comps[:5])

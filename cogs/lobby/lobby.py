"""The lobby every title shares: who sits where, AI seats and their strength, the title's
options, language and pace, and the start. Its buttons carry only the game id (`L<verb>`), so they work at any time
and after a restart; every click re-reads the lobby from the store."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import discord

from locales import Translator, languages
from locales.format import duration
from store import GameRow, Seat

from play import settings as settings_mod
from cogs.kit import codec
from cogs.kit.codec import Verb, house
from cogs.kit.layout import panel_view
from cogs.kit.names import text_name
from cogs.kit.panel import Button, Option, Panel, Section, Select, short
from cogs.titles.contract import ui_for
from cogs.titles.variants import offered, variant_lines
from cogs.kit.views import plain

AI_NAMES = ("Ada", "Bert", "Cleo", "Dax", "Edda", "Finn")


def ai_name(seats: list[Seat]) -> str:
    used = {s.name for s in seats}
    for name in AI_NAMES:
        label = f"🤖 {name}"
        if label not in used:
            return label
    return f"🤖 AI {len(seats) + 1}"


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


def deadline_lines(game: GameRow, t: Translator) -> list[str]:
    """Each timed window of the title with its length now, and its live and slow defaults."""
    g = ui_for(game.title).game
    conf = settings_mod.merged(game.settings)
    dur = duration
    lines = []
    for timer in g.timers:
        now = settings_mod.deadline_for(g, conf, timer.kind)
        lines.append(t("core.lobby.window", kind=t(f"{game.title}.timer.{timer.kind}"),
                       now=dur(now, t.lang) if now else t("core.settings.none"),
                       live=dur(timer.live, t.lang) if timer.live else t("core.settings.none"),
                       slow=dur(timer.slow, t.lang) if timer.slow else t("core.settings.none")))
    return lines


def lobby_message(game: GameRow, t: Translator) -> discord.ui.LayoutView:
    """The lobby (in the game's language: the lobby is the channel's): who sits where, each AI
    seat with its Remove button beside it, the set-up, and the buttons."""
    ui = ui_for(game.title)
    g = ui.game
    conf = settings_mod.merged(game.settings)
    open_ = game.status == "lobby"
    seats, sections = [], []
    for s in game.seats:
        host = " 👑" if s.user_id == game.host_id else ""
        line = f"`{s.seat + 1}` {text_name(s.name)}{host}"
        if s.is_ai and open_:
            sections.append(Section(line, Button(t("core.lobby.remove"), f"Lrmai:{s.seat}", "secondary", emoji="✖️")))
        else:
            seats.append(line)
    if not game.seats:
        seats.append(t("core.lobby.empty"))
    lines = [t(f"{game.title}.tagline"), "", t("core.lobby.players_needed", lo=g.min_players, hi=g.max_players)]
    setup = [
        t("core.lobby.language", lang=t(f"core.lang.{game.lang}")),
        t("core.lobby.pace", pace=t(f"core.pace.{conf['pace']}")),
        # Said before the start: a live game is played now, by everyone at once (issue 28).
        *([t("core.lobby.live_note")] if conf["pace"] == "live" and game.status == "lobby" else []),
        t("core.lobby.on_deadline", mode=t(f"core.on_deadline.{conf['on_deadline']}")),
        t("seat.away.setting", mode=t(f"seat.away.mode.{conf['away']}")),
        t("core.lobby.ai_level", level=t(f"core.ai_level.{conf['ai_level']}")),
    ] + (variant_lines(game, t) or [t("core.lobby.no_variants")])
    # The AI seats (sections, with Remove beside each) follow the people, under the same
    # heading; the set-up and deadlines come after them (issue 30).
    fields = [(t("core.lobby.players", n=len(game.seats), hi=g.max_players), "\n".join(seats), False)]
    after = [(t("core.lobby.setup"), "\n".join(setup), False),
             (t("core.lobby.deadlines"), "\n".join(deadline_lines(game, t)), False)]
    if game.status == "lobby":
        footer = t("core.lobby.footer")
    elif game.status == "active":
        footer = t("core.lobby.started")
    else:
        footer = t("core.lobby.cancelled")
    buttons: list[Any] = []
    if open_:
        buttons = [
            # Joining and leaving mean the same whenever they are clicked; the rest is bound to
            # the lobby as it was drawn (a double click on Add AI adds one seat).
            Button(t("core.lobby.join"), "Ljoin", "success", any_version=True),
            Button(t("core.lobby.leave"), "Lleave", "secondary", any_version=True),
            Button(t("core.lobby.add_ai"), "Laddai", "secondary", emoji="🤖"),
            Button(t("core.lobby.options"), "Lopts", "secondary", emoji="⚙️"),
            Button(t("core.lobby.start"), "Lstart", "primary", emoji="▶️", row=1),
            Button(t("core.lobby.cancel"), "Lcancel", "danger", row=1),
            level_select(conf, t),
            # The rules, for anyone deciding whether to join (opens beside the lobby).
            Button(t("core.lobby.rules"), house(Verb.RULES, 0), "secondary", emoji="📖", any_version=True, row=1),
        ]
    panel = Panel(title=t("core.lobby.title", title=t(f"{game.title}.name")), description="\n".join(lines),
                  fields=fields, footer=footer, components=buttons, sections=sections,
                  fields_after=after)
    return panel_view(game, lobby_version(game), panel, accent=ui.colour)


def level_select(conf: dict[str, Any], t: Translator, code: str = "Llevel") -> Select:
    """The seat-filler's strength, in the lobby beside the AI seats it plays (a select of its
    own: the options form is full for most titles, five fields at most), and in the running
    game's settings (`code`). It means the same whoever sits where, so any version takes it."""
    return Select(code, t("core.lobby.choose_ai_level"),
                  [Option(t(f"core.ai_level.{level}"), level, description=short(t(f"core.ai_level_help.{level}")),
                          default=conf["ai_level"] == level) for level in settings_mod.LEVELS],
                  any_version=True)


def options_form(game: GameRow, t: Translator) -> discord.ui.Modal:
    """The host's options as one form: the variants (checkboxes), the title's choices, the
    table's language, the pace and what happens at a deadline."""
    g = ui_for(game.title).game
    conf = settings_mod.merged(game.settings)
    form = discord.ui.Modal(title=plain(t("core.lobby.options_title", title=t(f"{game.title}.name")))[:45],
                            custom_id=codec.make("bm", game, lobby_version(game), "Lform"))
    bools = [o for o in offered(g, len(game.seats)) if o.kind == "bool"]
    if bools:
        form.add_item(discord.ui.Label(text=t("core.lobby.variants")[:45], component=discord.ui.CheckboxGroup(
            custom_id="variants", required=False, min_values=0, max_values=len(bools[:10]),
            options=[discord.CheckboxGroupOption(label=t(f"{game.title}.option.{o.key}.label")[:100], value=o.key,
                                                 description=short(t(f"{game.title}.option.{o.key}.help")),
                                                 default=bool(game.options.get(o.key, o.default)))
                     for o in bools[:10]])))
    room = 5 - len(form.children) - 3
    for o in [o for o in offered(g, len(game.seats)) if o.kind == "choice"][:max(room, 0)]:
        current = game.options.get(o.key, o.default)
        form.add_item(discord.ui.Label(text=t(f"{game.title}.option.{o.key}.label")[:45], component=discord.ui.Select(
            custom_id=f"opt:{o.key}", options=[discord.SelectOption(label=t(f"{game.title}.option.{o.key}.{c}")[:100],
                                                                    value=str(c), default=current == c)
                                               for c in o.choices[:25]])))
    # A number the host may give (Filthy Rich's round limit): left empty, the title's default.
    for o in [o for o in offered(g, len(game.seats)) if o.kind == "int"][:max(5 - len(form.children) - 3, 0)]:
        current = game.options.get(o.key, o.default)
        form.add_item(discord.ui.Label(
            text=t(f"{game.title}.option.{o.key}.label")[:45], description=short(t(f"{game.title}.option.{o.key}.help")),
            component=discord.ui.TextInput(custom_id=f"opt:{o.key}", required=False, max_length=6,
                                           default="" if current is None else str(current))))
    form.add_item(discord.ui.Label(text=t("core.lobby.choose_language")[:45], component=discord.ui.Select(
        custom_id="lang", options=[discord.SelectOption(label=t(f"core.lang.{code}"), value=code,
                                                        default=code == game.lang) for code in languages()])))
    form.add_item(discord.ui.Label(text=t("core.lobby.choose_pace")[:45], component=discord.ui.RadioGroup(
        custom_id="pace", options=[discord.RadioGroupOption(label=t(f"core.pace.{p}")[:100], value=p,
                                                            description=short(t(f"core.pace_help.{p}")),
                                                            default=conf["pace"] == p) for p in settings_mod.PACES])))
    form.add_item(discord.ui.Label(text=t("core.lobby.choose_on_deadline")[:45], component=discord.ui.RadioGroup(
        custom_id="on_deadline", options=[discord.RadioGroupOption(
            label=t(f"core.on_deadline.{m}")[:100], value=m, description=short(t(f"core.on_deadline_help.{m}")),
            default=conf["on_deadline"] == m) for m in settings_mod.ON_DEADLINE])))
    if len(form.children) < 5:  # a form holds five; the title's own choices come first
        form.add_item(discord.ui.Label(text=t("seat.away.choose_mode")[:45], component=discord.ui.RadioGroup(
            # Not required: a form sent without it (an older client) keeps the setting as it is.
            custom_id="away", required=False, options=[discord.RadioGroupOption(
                label=t(f"seat.away.mode.{m}")[:100], value=m, description=short(t(f"seat.away.mode_help.{m}")),
                default=conf["away"] == m) for m in settings_mod.AWAY])))
    return form

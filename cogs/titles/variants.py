"""A game's own rules options (variants) as people read them: the lobby, the settings page and
the rules pages opened from a table all say the same thing, and say what the game does.

Each option the host can choose at this player count is shown when it is on, or when it differs
from the title's default: a switch that is on by default and was turned off reads "✖ label",
never "✔ label" (issue 30: E-Wars "Public discard piles" left unticked showed "✔"; ticked, it
showed nothing, as if the rule were not there).
"""

from __future__ import annotations

from typing import Any

from locales import Translator
from store import GameRow

from .contract import ui_for

ON, OFF = "✔", "✖"


def lobby_options(g: Any) -> list[Any]:
    """The options the host chooses (house options follow the game's settings instead)."""
    return [o for o in g.options if not o.house]


def offered(g: Any, players: int) -> list[Any]:
    """The host's options that apply at this many players (two-player rules only at two)."""
    return [o for o in lobby_options(g) if not o.players or players in o.players]


def variant_lines(game: GameRow, t: Translator) -> list[str]:
    """One line per option that is on or differs from its default, in the reader's language."""
    lines = []
    for spec in offered(ui_for(game.title).game, len(game.seats)):
        value = game.options.get(spec.key, spec.default)
        label = t(f"{game.title}.option.{spec.key}.label")
        if spec.kind == "bool":
            if value or value != spec.default:
                lines.append(f"{ON if value else OFF} {label}")
        elif value != spec.default:
            shown = t(f"{game.title}.option.{spec.key}.{value}") if spec.kind == "choice" else value
            lines.append(f"{label}: {shown}")
    return lines


def variants_text(game: GameRow, t: Translator) -> str:
    """The variants on one line (or "Standard rules")."""
    lines = variant_lines(game, t)
    return " · ".join(lines) if lines else t("core.lobby.no_variants")

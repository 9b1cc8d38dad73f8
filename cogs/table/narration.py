"""Events as narration lines, in a game's language (public events only: an event addressed to
some seats, `to`, is told only in their panels)."""

from __future__ import annotations

import logging
from typing import Any

from locales import Translator
from store import GameRow

from cogs.kit.names import text_names
from cogs.titles.contract import ui_for

log = logging.getLogger(__name__)


def narrate(game: GameRow, t: Translator, events: list[dict[str, Any]]) -> list[str]:
    """One line per public event. A move the seat-filler made for a person whose time ran out
    (`ai_for`) names the AI for them, never the person, so it never reads as their own."""
    ui = ui_for(game.title)
    names = text_names(game.names)
    lines = []
    for ev in events:
        if ev.get("to") is not None:
            continue
        seat = ev.get("ai_for")
        shown = names
        if isinstance(seat, int) and 0 <= seat < len(names):
            shown = list(names)
            shown[seat] = t("core.deadline.ai_for", name=names[seat])
        try:
            line = ui.narrate(t, ev, shown)
        except Exception:
            log.exception("narration of %s failed", ev)
            line = None
        if line:
            lines.append(line)
    return lines

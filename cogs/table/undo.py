"""Taking back a move, as the players see it (play/undo.py keeps the memory; `House.take_back`
does it): the Undo offer on the panel of the player whose last move may still be taken back, and
the Undo button's click (cogs/click/undo.py)."""

from __future__ import annotations

from locales import Translator
from play.undo import UndoMemory, window
from store import GameRow

from cogs.kit.codec import Verb, house
from cogs.kit.layout import MAX_COMPONENTS, count_components, panel_view
from cogs.kit.panel import Button, Panel, Section
from cogs.titles.contract import panel_context, ui_for


class UndoOffer:
    def __init__(self, memory: UndoMemory) -> None:
        self.memory = memory

    def panel(self, game: GameRow, seat: int, t: Translator) -> Panel | None:
        """The seat's panel with "Undo" on it, while its player's last move may be taken back
        (the reply to the move, My hand opened again, the DM panel); None otherwise (the
        ordinary panel)."""
        taken = self.memory.offer(game, seat)
        if taken is None:
            return None
        panel = ui_for(game.title).panel(panel_context(game, seat, t))
        until = f"<t:{int(taken.at + window(game))}:R>"
        offer = Section("↩️ " + t("core.undo.offer", until=until),
                        Button(t("core.undo.button"), house(Verb.UNDO, taken.version), "secondary"))
        panel.sections.insert(0, offer)
        # A panel already near Discord's 40 components goes without the offer (the house adds
        # one more text for the player's notes), rather than being refused whole.
        drawn = panel_view(game, game.version, panel, image="panel.png" if panel.image else None)
        if count_components(drawn) > MAX_COMPONENTS - 1:
            return None
        return panel

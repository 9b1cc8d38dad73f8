"""A seat's private panel (My hand, the DM panel, the reply to a click): the title's panel with
what the house adds around it (warnings when the channel is blocked or the game paused, the
Undo offer, notes addressed to this seat only, the footer) and its picture. A part of the
table keeper (`TableKeeper`), which knows the channel's state."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from locales import Translator
from locales.format import join_list
from render.pool import pictures_of
from store import GameRow

from .layout import panel_view
from .names import text_names
from .panel import Panel
from .pause import paused
from .titles import ui_for
from .views import image_file

if TYPE_CHECKING:
    from .dm import DMPanels
    from .house import House
    from .undo import Undo

log = logging.getLogger(__name__)


class PrivatePanels:
    """Mixed into `TableKeeper`, whose house, DM panels, undo offers and knowledge of the
    channel (`missing_now`, `blocked`) it uses."""

    house: "House"
    dms: "DMPanels"
    undo: "Undo"
    blocked: dict[int, list[str]]

    async def send_dm_panel(self, game: GameRow, seat: int, user_id: int) -> bool:
        return await self.dms.send(game, seat, user_id, fresh=True)

    async def panel_message(self, game: GameRow, seat: int, t: Translator, notice: str | None = None,
                            panel: Panel | None = None) -> tuple[discord.ui.LayoutView, discord.File | None]:
        """A seat's private panel as a Components V2 view and its picture."""
        ui = ui_for(game.title)
        pc = self.house.panel_context(game, seat, t)
        if panel is None:
            panel = self.undo.panel(game, seat, t) or ui.panel(pc)
        notes = await self.private_notes(game, seat, t)
        blocked = self.missing_now(game)
        if blocked is None:  # the channel is not in the cache: what Discord last refused
            blocked = self.blocked.get(game.id)
        warnings = [notice] if notice else []
        if blocked and game.status == "active":
            warnings.append("⚠️ " + t("core.table.blocked", perms=join_list((t(f"core.perm.{p}") for p in blocked), t.lang)))
        if paused(game) is not None and game.status == "active":
            warnings.append("⏸️ " + self.house.pauser.reason(game, t))
        if warnings:
            panel.description = ("\n".join(warnings) + "\n\n" + panel.description).strip()
        if notes:
            panel.fields.append((t("core.panel.for_you"), "\n".join(notes)[:1024], False))
        if not panel.footer:
            panel.footer = t("core.panel.footer", id=game.id, version=game.version)
        file = name = None
        if panel.image is not None:
            draw = panel.image
            data = await pictures_of(self.house.bot).png(draw)  # a closure: drawn in a thread
            name = f"panel-{game.id}-{game.version}.png"
            file = image_file(data, name)
        return panel_view(game, game.version, panel, image=name, accent=ui.colour), file

    async def private_notes(self, game: GameRow, seat: int, t: Translator, count: int = 4) -> list[str]:
        """Events addressed to this seat only (the cards you drew...) since its own last move:
        news, not a repeat of notes already read. That move's own notes count only while it is
        the latest move (the panel it answers with); once anyone has moved since, they were
        read (issue 15: Black Friday repeated an old subsidy note every turn)."""
        ui = ui_for(game.title)
        names = text_names(game.names)
        notes: list[str] = []
        for i, entry in enumerate(await self.house.store.actions(game.id, newest_first=True, limit=12)):
            if entry["seat"] == seat and i > 0:
                break
            for ev in entry["events"]:
                if ev.get("to") == [seat]:
                    try:
                        notes.append("• " + ui.narrate(t, ev, names))
                    except Exception:
                        log.exception("private narration failed")
            if entry["seat"] == seat:
                break
        return notes[:count]

"""A seat's private panel (My hand, the DM panel, the reply to a click): the title's panel with
what the house adds around it (warnings when the channel is blocked or the game paused, the
Undo offer, notes addressed to this seat only, the footer) and its picture."""

from __future__ import annotations

import logging

import discord

from locales import Translator
from locales.format import join_list
from play import settings as settings_mod
from play.plan import Planner, rules
from play.settings import paused
from render.pool import pictures_of
from store import GameRow, Store

from cogs.kit.layout import has_room, panel_view
from cogs.kit.names import text_names
from cogs.kit.codec import Verb, house
from cogs.kit.panel import Button, Panel, Section
from cogs.kit.views import image_file
from cogs.titles.contract import panel_context, ui_for
from cogs.titles.learn import lesson, played_types

from . import bank as bank_words
from . import pages

from .channels import Channels
from .pause import reason
from .undo import UndoOffer

log = logging.getLogger(__name__)


class PrivatePanels:
    def __init__(self, bot: discord.Client, store: Store, channels: Channels, undo: UndoOffer,
                 planner: Planner) -> None:
        self.bot = bot
        self.store = store
        self.channels = channels
        self.undo = undo
        self.planner = planner

    async def panel_message(self, game: GameRow, seat: int, t: Translator, notice: str | None = None,
                            panel: Panel | None = None) -> tuple[discord.ui.LayoutView, discord.File | None]:
        """A seat's private panel as a Components V2 view and its picture."""
        ui = ui_for(game.title)
        if panel is None:
            panel = self.undo.panel(game, seat, t) or ui.panel(panel_context(game, seat, t))
            if game.status == "active" and settings_mod.merged(game.settings)["learn"]:
                await self.teach(game, seat, t, panel)
        notes = await self.private_notes(game, seat, t)
        blocked = self.channels.missing(game)
        warnings = [notice] if notice else []
        if blocked and game.status == "active":
            warnings.append("⚠️ " + t("core.table.blocked", perms=join_list((t(f"core.perm.{p}") for p in blocked), t.lang)))
        if paused(game) is not None and game.status == "active":
            warnings.append("⏸️ " + reason(game, t))
        elif game.status == "active":
            warnings += await self.time_line(game, seat, t)
        if warnings:
            panel.description = ("\n".join(warnings) + "\n\n" + panel.description).strip()
        if notes:
            panel.fields.append((t("core.panel.for_you"), "\n".join(notes)[:1024], False))
        self.offer_orders(game, panel, t)
        if not panel.footer:
            panel.footer = t("core.panel.footer", id=game.id, version=game.version)
        file = name = None
        if panel.image is not None:
            draw = panel.image
            data = await pictures_of(self.bot).png(draw)  # a closure: drawn in a thread
            name = f"panel-{game.id}-{game.version}.png"
            file = image_file(data, name)
        return panel_view(game, game.version, panel, image=name, accent=ui.colour), file

    async def teach(self, game: GameRow, seat: int, t: Translator, panel: Panel) -> None:
        """A guided game (`/game learn`): the line of why on top, a note for each rule that comes
        up for the first time with its rules page beside it, and the way out."""
        taught = lesson(panel_context(game, seat, t), played_types(await self.store.actions(game.id), seat))
        panel.description = (t("core.learn.heading", why=taught.why) + "\n\n" + panel.description).strip()
        by_page: dict[int, list[str]] = {}  # one button per page: two of one panel never share a code
        for text, section in taught.notes:
            by_page.setdefault(pages.section_page(game.title, t.lang, section), []).append(text)
        for page, texts in by_page.items():
            panel.sections.append(Section("\n".join(t("core.learn.rule", rule=text) for text in texts), Button(
                t("core.learn.read"), house(Verb.RULES, f"{page}:{pages.APART}"), emoji="📖", any_version=True)))
        leave = Button(t("core.learn.leave"), house(Verb.LEAVE), "danger", emoji="🚪", any_version=True)
        if has_room(panel.components, leave):
            panel.components.append(leave)

    @staticmethod
    def offer_orders(game: GameRow, panel: Panel, t: Translator) -> None:
        """The way to the seat's standing orders, where the title has some and the panel has
        room (the table's ⚙️ menu always has it)."""
        if game.status != "active" or not rules(game).order_specs:
            return
        entry = Button(t("core.order.button"), house(Verb.ORDERS), emoji="📋", any_version=True)
        if has_room(panel.components, entry):
            panel.components.append(entry)

    async def time_line(self, game: GameRow, seat: int, t: Translator) -> list[str]:
        """The seat's own deadline and the time bank after it, while it owes something; while
        all it owes waits on another window (`Window.held`), that its clock stands still (it has
        no deadline then, and without the line the panel read as if it owed nothing)."""
        deadline = await self.planner.deadline(game, [seat])
        if not deadline:
            held = any(w.held and seat in w.seats for w in rules(game).windows(game.state or {}))
            return [t("core.panel.time_held")] if held else []
        return [bank_words.panel_line(game, seat, settings_mod.merged(game.settings), deadline, t)]

    async def private_notes(self, game: GameRow, seat: int, t: Translator, count: int = 4) -> list[str]:
        """Events addressed to this seat only (the cards you drew...) since its own last move:
        news, not a repeat of notes already read. That move's own notes count only while it is
        the latest move (the panel it answers with); once anyone has moved since, they were
        read (issue 15: Black Friday repeated an old subsidy note every turn)."""
        ui = ui_for(game.title)
        names = text_names(game.names)
        notes: list[str] = []
        for i, entry in enumerate(await self.store.actions(game.id, newest_first=True, limit=12)):
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

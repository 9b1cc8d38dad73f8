"""Taking back a move (issue 19): within a short window (the game setting `undo`, 2 minutes
unless changed) a player may take back their last move, when it revealed nothing
(`engine.core.undoable`: no chance drawn, no secret changed) and nobody acted since (the game is
still at the version the move produced).

What taking back needs is kept in memory when the move is applied (`remember`: the snapshot and
the timers before it; the snapshot is never changed in place, so keeping it costs nothing), so
the deadlines go back to where they were and no move-and-undo can buy a fresh deadline. A
restart within the window forgets it: the move then simply stays. The store takes the move out
of the log with the version check (`Store.undo_action`), the table and the turn message say
"X took back their last move", and the player sees their panel as it was before the move.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from engine.core import undoable
from locales import Translator
from store import GameRow, Timer

from . import settings as settings_mod
from .clock import now
from .layout import MAX_COMPONENTS, count_components, panel_view
from .panel import Button, Panel, Section
from .pause import paused
from .replies import reply, with_file
from .titles import ui_for

if TYPE_CHECKING:
    from .house import House, Result

log = logging.getLogger(__name__)


@dataclass
class Taken:
    """A player's move that may be taken back."""

    version: int  # the version the move produced
    seat: int
    user_id: int
    at: float
    before: dict[str, Any]
    timers: list[Timer] = field(default_factory=list)


def window(game: GameRow) -> int:
    """Seconds during which a move of this game may be taken back (0: never)."""
    return int(settings_mod.merged(game.settings).get("undo") or 0)


class Undo:
    def __init__(self, house: "House") -> None:
        self.house = house
        #: Per game, its last move if it may be taken back (one per game: any later move, the
        #: player's own or another's, makes it final).
        self.moves: dict[int, Taken] = {}

    def remember(self, game_id: int, seat: int, user_id: int, result: "Result") -> None:
        """A player's move was applied: keep what taking it back needs, if it may be."""
        self.moves.pop(game_id, None)
        # Moves past any game's undo time go (a finished game's, a game nobody opens again).
        oldest = now() - max(settings_mod.UNDO_CHOICES)
        for gone in [g for g, taken in self.moves.items() if taken.at < oldest]:
            del self.moves[gone]
        game = result.game
        if not result.applied or game is None or result.before is None or game.state is None:
            return
        if game.status != "active" or window(game) <= 0:
            return
        if undoable(ui_for(game.title).game, result.before, game.state, seat):
            self.moves[game_id] = Taken(game.version, seat, user_id, now(), result.before, list(result.timers))

    def _refusal(self, game: GameRow | None, seat: int | None, user_id: int | None,
                 version: int | None) -> str | None:
        """Why the move cannot be taken back now (a catalogue key), or None if it can."""
        if game is None or game.status != "active" or game.state is None:
            return "core.error.game_over"
        if version is not None and version != game.version:  # the button's move is no longer the last
            return "core.undo.moved_on"
        taken = self.moves.get(game.id)
        if taken is None or taken.seat != seat or taken.user_id != user_id or taken.version != game.version:
            return "core.undo.gone"
        if now() > taken.at + window(game):
            return "core.undo.too_late"
        if paused(game) is not None:
            return "core.undo.paused"
        return None

    def panel(self, game: GameRow, seat: int, t: Translator) -> Panel | None:
        """The seat's panel with "Undo" on it, while its player's last move may be taken back
        (the reply to the move, My hand opened again, the DM panel); None otherwise (the
        ordinary panel)."""
        player = game.seats[seat].user_id if 0 <= seat < len(game.seats) else None
        if game.id not in self.moves or self._refusal(game, seat, player, None) is not None:
            taken = self.moves.get(game.id)
            if taken is not None and (game.status != "active" or game.version != taken.version):
                del self.moves[game.id]  # final now: nobody may take it back any more
            return None
        taken = self.moves[game.id]
        ui = ui_for(game.title)
        panel = ui.panel(self.house.panel_context(game, seat, t))
        until = f"<t:{int(taken.at + window(game))}:R>"
        offer = Section("↩️ " + t("core.undo.offer", until=until),
                        Button(t("core.undo.button"), f"Hundo:{taken.version}", "secondary"))
        panel.sections.insert(0, offer)
        # A panel already near Discord's 40 components goes without the offer (the house adds
        # one more text for the player's notes), rather than being refused whole.
        drawn = panel_view(game, game.version, panel, image="panel.png" if panel.image else None)
        if count_components(drawn) > MAX_COMPONENTS - 1:
            return None
        return panel

    async def click(self, interaction: discord.Interaction, game: GameRow, arg: str, t: Translator) -> None:
        """The Undo button: take the move back, or say why not; either way the clicker sees
        their panel as the game now stands."""
        user_id = interaction.user.id
        seat = game.seat_of(user_id)
        if seat is None:
            await reply(interaction, t("core.error.not_seated"))
            return
        message = interaction.message
        on_panel = message is not None and (bool(message.flags.ephemeral) or interaction.guild is None)
        if on_panel:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        version = int(arg) if arg.isdigit() else -1
        async with self.house.lock(game.id):
            fresh = await self.house.game(game.id, fresh=True)
            refusal = self._refusal(fresh, seat, user_id, version)
            if refusal is None:
                assert fresh is not None
                taken = self.moves.pop(game.id)
                t0 = now()
                timers = self.house.plan_timers(fresh, taken.before, taken.timers, t0, await self.house.away.of(fresh))
                if not await self.house.store.undo_action(game.id, version=taken.version, state=taken.before,
                                                          now=t0, timers=timers, notify=not self.house.owns(fresh)):
                    refusal = "core.undo.moved_on"
                self.house.forget(game.id)
                self.house.kick()
        fresh = await self.house.game(game.id, fresh=True)
        if refusal is None:
            log.info("game %s: seat %s took back its move %s", game.id, seat, version)
        # The owner of the game tells its channel (another process's hears the notice and redraws).
        if refusal is None and self.house.table is not None and fresh is not None and self.house.owns(fresh):
            self.house.table.note(game.id, "undone", seat=seat)
        notice = "↩️ " + t("core.undo.you") if refusal is None else "⛔ " + t(refusal)
        if fresh is None or fresh.status != "active" or self.house.table is None:
            await interaction.followup.send(notice, ephemeral=True)
            return
        view, file = await self.house.table.panel_message(fresh, seat, t, notice=notice)
        if on_panel:
            await interaction.edit_original_response(view=view, attachments=[file] if file else [])
        else:
            await interaction.followup.send(**with_file(file, view=view, ephemeral=True))

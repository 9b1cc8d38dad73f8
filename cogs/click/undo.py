"""The Undo button's click: take the move back (`House.take_back`), or say why not; either way
the clicker sees their panel as the game now stands."""

from __future__ import annotations

import discord

from locales import Translator
from play.house import House
from store import GameRow

from cogs.kit.replies import reply, with_file
from cogs.table.private_panel import PrivatePanels


class UndoButton:
    def __init__(self, house: House, panels: PrivatePanels) -> None:
        self.house = house
        self.panels = panels

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
        refusal = await self.house.take_back(game.id, seat, user_id, version)
        fresh = await self.house.games.game(game.id, fresh=True)
        notice = "↩️ " + t("core.undo.you") if refusal is None else "⛔ " + t(refusal)
        if fresh is None or fresh.status != "active":
            await interaction.followup.send(notice, ephemeral=True)
            return
        view, file = await self.panels.panel_message(fresh, seat, t, notice=notice)
        if on_panel:
            await interaction.edit_original_response(view=view, attachments=[file] if file else [])
        else:
            await interaction.followup.send(**with_file(file, view=view, ephemeral=True))

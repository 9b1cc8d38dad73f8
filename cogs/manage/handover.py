"""Handing a seat to another member during a game (issue 19): from the table's ⚙️ menu the host or
a channel manager picks a seat (a person's, the seat-filler's, or one whose player left) and a
member who holds no seat and can see the game's channel. The seat passes with its hand and its
obligations: the engine's state is per seat, so nothing in it moves; only who holds the seat
changes. The old holder's DM panel says so, the table notes it publicly, and the new holder is
pinged if the seat owes something now."""

from __future__ import annotations

import logging
from typing import Any

import discord

from locales import Translator
from play.games import GameCache
from play.names import clean_name
from play.seats import Seats
from store import GameRow

from cogs.access import Access
from cogs.kit.codec import Verb, house
from cogs.kit.layout import panel_view
from cogs.kit.names import text_name
from cogs.kit.panel import Option, Panel, Select
from cogs.kit.replies import reply
from cogs.kit.views import user_select_item
from cogs.table.keeper import TableKeeper
from cogs.titles.contract import ui_for

log = logging.getLogger(__name__)



def seat_label(game: GameRow, seat: int, t: Translator, *, markdown: bool = False) -> str:
    """"2. Ann (a player)": plain for the seat select's options, or with the name escaped for a
    line of text (`markdown`)."""
    s = game.seats[seat]
    if s.is_ai:
        who = t("seat.handover.is_ai")
    elif s.left_at is not None:
        who = t("seat.handover.has_left")
    else:
        who = t("seat.handover.is_player")
    return f"{seat + 1}. {text_name(s.name) if markdown else clean_name(s.name)} ({who})"


def resolved_name(interaction: discord.Interaction, user_id: int) -> str | None:
    """The chosen member's name from the select's resolved data (server nickname first)."""
    resolved = (interaction.data or {}).get("resolved") or {}  # type: ignore[union-attr]
    member = (resolved.get("members") or {}).get(str(user_id)) or {}
    user = (resolved.get("users") or {}).get(str(user_id)) or {}
    return member.get("nick") or user.get("global_name") or user.get("username")


class Handover:
    def __init__(self, games: GameCache, seats: Seats, keeper: TableKeeper, access: Access) -> None:
        self.games = games
        self.seats = seats
        self.keeper = keeper
        self.access = access

    def panel(self, game: GameRow, t: Translator, seat: int | None = None, notice: str = "") -> discord.ui.LayoutView:
        """The seat to hand, then (once one is chosen) the member to hand it to."""
        lines = [notice] if notice else []
        lines.append(t("seat.handover.intro"))
        if seat is not None:
            lines.append(t("seat.handover.chosen", seat=seat_label(game, seat, t, markdown=True)))
        options = [Option(seat_label(game, s.seat, t), str(s.seat), default=s.seat == seat) for s in game.seats]
        panel = Panel(title=t("seat.handover.title", title=t(f"{game.title}.name")), description="\n".join(lines),
                      components=[Select(house(Verb.HAND_SEAT), t("seat.handover.choose_seat"), options, any_version=True)])
        view = panel_view(game, game.version, panel, accent=ui_for(game.title).colour)
        if seat is not None:
            container: Any = view.children[0]
            container.add_item(discord.ui.ActionRow(
                user_select_item(game, house(Verb.HAND_TO, seat), t("seat.handover.choose_member"))))
        return view

    async def click(self, interaction: discord.Interaction, game: GameRow, verb: str, arg: str, values: list[str],
                    t: Translator) -> None:
        if not await self.access.can_manage(interaction, game):
            await reply(interaction, t("core.error.host_only"))
            return
        game = await self.games.game(game.id, fresh=True) or game
        if game.status != "active":
            await reply(interaction, t("core.error.game_over"))
            return
        if verb == "handover":
            await interaction.response.send_message(view=self.panel(game, t), ephemeral=True)
            return
        if verb == "hseat":
            seat = self._seat(game, values[0] if values else "")
            if seat is None:
                await reply(interaction, t("core.error.bad_action"))
                return
            await interaction.response.edit_message(view=self.panel(game, t, seat))
            return
        seat = self._seat(game, arg)
        user_id = int(values[0]) if len(values) == 1 and values[0].isdigit() else None
        if seat is None or user_id is None:
            await reply(interaction, t("core.error.bad_action"))
            return
        refusal = await self.give(game, seat, user_id, resolved_name(interaction, user_id))
        if refusal is not None:
            await interaction.response.edit_message(view=self.panel(game, t, seat, notice="⛔ " + t(refusal)))
            return
        fresh = await self.games.game(game.id, fresh=True) or game
        done = Panel(title=t("seat.handover.title", title=t(f"{game.title}.name")),
                     description=t("seat.handover.done", seat=seat + 1, user=f"<@{user_id}>"))
        await interaction.response.edit_message(view=panel_view(fresh, fresh.version, done,
                                                                accent=ui_for(game.title).colour))

    @staticmethod
    def _seat(game: GameRow, text: str) -> int | None:
        return int(text) if text.isdigit() and int(text) < len(game.seats) else None

    async def give(self, game: GameRow, seat: int, user_id: int, fallback: str | None = None) -> str | None:
        """Hand `seat` to the member; None when done, else the key saying why not. `fallback`:
        their name as the select carried it (when Discord cannot be asked just now)."""
        member = await self.access.member(game, user_id, fresh=True)
        if member is None:
            return "seat.handover.cannot_see"
        if getattr(member, "bot", False):
            return "seat.handover.no_bots"
        name = getattr(member, "display_name", None) or fallback or str(user_id)
        before = game.seats[seat]
        fresh, refusal = await self.seats.hand(game, seat, user_id, name)
        if refusal is not None or fresh is None:
            return refusal
        if before.user_id and before.user_id != user_id and not before.is_ai and \
                await self.access.members.reaches(fresh, before.user_id):  # one who left is told nothing
            await self.keeper.dms.close(fresh, before.user_id, "seat.handover.dm_old")
        return None

"""`/game learn <title>` (issue 28): a guided first game. A normal game whose settings say
`learn`: the learner and seat-fillers in the other seats, at the slow pace so nothing hurries
the learner, in the learner's own language; it starts at once, without a lobby to fill. What
the learner's panel adds is the table keeper's (cogs/table/private_panel.py: `teach`)."""

from __future__ import annotations

from typing import Any

import discord

from locales import language_of
from locales.format import join_list
from play import settings as settings_mod
from play.lobby import Lobbies
from store import ChannelBusy, Seat

from cogs.kit import codec
from cogs.kit.replies import reply, tr_for
from cogs.titles.contract import ui_for

from . import lobby as lobby_mod
from .flow import missing_permissions

#: Seats in a guided game: the learner and two seat-fillers, where the title allows three.
SEATS = 3


def learn_settings() -> dict[str, Any]:
    """A guided game's settings: slow, whatever the server's defaults say (a live clock, or a
    seat-filler acting at a live deadline, would hurry someone reading the rules)."""
    return {"nonce": codec.new_nonce(), "learn": True, "pace": "slow"}


async def learn(interaction: discord.Interaction, lobbies: Lobbies, title: str, channel: Any) -> None:
    t = tr_for(interaction)
    missing = missing_permissions(interaction, channel)
    if missing:
        await reply(interaction, t("core.error.bot_permissions",
                                   perms=join_list((t(f"core.perm.{p}") for p in missing), t.lang)))
        return
    g = ui_for(title).game
    user = interaction.user
    try:
        game = await lobbies.open(guild_id=interaction.guild_id, channel_id=channel.id, title=title, host_id=user.id,
                                  host_name=user.display_name, lang=language_of(interaction.locale),
                                  settings=learn_settings())
    except ChannelBusy:
        busy = await lobbies.store.live_in(channel.id)
        await reply(interaction, t("core.error.channel_busy", title=t(f"{busy.title}.name") if busy else "?"))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    count = max(g.min_players, min(SEATS, g.max_players))
    seats = [Seat(0, user.id, user.display_name)]
    while len(seats) < count:
        seats.append(Seat(len(seats), None, lobby_mod.ai_name(seats), is_ai=True))
    async with lobbies.games.lock(game.id):
        game.seats = await lobbies.seat(game, seats)
        state, options = lobbies.setup(game, lobby_mod.house_options(g, settings_mod.merged(game.settings)))
        await lobbies.start(game, state, options)
    await interaction.followup.send(t("core.learn.started", title=t(f"{title}.name")), ephemeral=True)

"""DM panels, for players who keep their hand in their DMs (`/game prefs dm_panel`).

The DM is the hand-management home: the player's panel (hand, actions), with a link to the
table. Discord does not notify edits, so when the player must act a NEW DM is sent and the
previous one is deleted (the DM channel stays readable); otherwise the panel is edited in place,
silently. When the game ends, or stops, the last panel says so. A player whose DMs are closed
falls back to My hand, and is told once in the channel.

A DM panel being clicked is never deleted under the click (issue 30: the click's answer, an
edit of that message, met a 404 and told the player their move was not shown): while the
router answers a click on a DM (`holding`), trimming that message waits until it has answered.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord

from locales import Translator
from play.people import People
from play.records import Records
from store import GameRow, Store

from cogs.access import Members
from cogs.kit.layout import panel_view
from cogs.kit.panel import Panel
from cogs.titles.contract import ui_for

from .channels import Channels
from .private_panel import PrivatePanels

log = logging.getLogger(__name__)


def jump(game: GameRow, message_id: int | None = None) -> str:
    """A link to the game's channel (or one of its messages)."""
    base = f"https://discord.com/channels/{game.guild_id or '@me'}/{game.channel_id}"
    return f"{base}/{message_id}" if message_id else base


class DMPanels:
    def __init__(self, bot: discord.Client, store: Store, records: Records, panels: PrivatePanels,
                 channels: Channels, members: Members, people: People) -> None:
        self.bot = bot
        self.members = members
        self.people = people
        self.store = store
        self.records = records
        self.panels = panels
        self.channels = channels
        #: DM messages whose click is being answered, with how many clicks answer them.
        self.held: dict[int, int] = {}
        #: Of those, the ones to delete once answered: message id -> (channel id, user id).
        self.trim_later: dict[int, tuple[int, int]] = {}

    @asynccontextmanager
    async def holding(self, message_id: int) -> AsyncIterator[None]:
        """While a click on this DM is answered, the message stays; trimmed after if due."""
        self.held[message_id] = self.held.get(message_id, 0) + 1
        try:
            yield
        finally:
            left = self.held.pop(message_id) - 1
            if left:
                self.held[message_id] = left
            elif message_id in self.trim_later:
                channel_id, user_id = self.trim_later.pop(message_id)
                await self._trim((channel_id, message_id), user_id)

    async def reader(self, game: GameRow, user_id: int) -> Translator:
        """The language of what goes to this person alone: theirs, as their interactions show
        it (My hand speaks it too); the game's until they have been seen."""
        return Translator(await self.people.lang(user_id) or game.lang)

    async def wanted(self, user_id: int) -> bool:
        prefs = await self.store.prefs(user_id)
        return prefs["dm_panel"] and not prefs["dm_closed"]

    async def update(self, game: GameRow, calling: set[int]) -> None:
        """Every DM panel of the game: a new DM for the seats in `calling` (they must act now),
        a silent edit for the others, the final word once the game is over. Only to players
        who can still reach the game's channel (nobody tells the bot who left the server): one
        who cannot gets nothing and the seat-filler takes the seat; when Discord cannot say
        now, nothing is sent this time (it fails closed; the next change asks again)."""
        for s in game.seats:
            if not s.user_id or (s.ai_plays and game.status == "active"):
                continue
            if not await self.wanted(s.user_id):
                continue
            reaches = await self.members.reaches(game, s.user_id)
            if not reaches:
                log.info("no DM panel for user %s in game %s (%s)", s.user_id, game.id,
                         "no access" if reaches is False else "membership unknown")
                if reaches is False and game.status == "active":
                    await self.members.lost(game, s.seat)
                continue
            try:
                if game.status != "active":
                    await self.close(game, s.user_id)
                else:
                    await self.send(game, s.seat, s.user_id, fresh=s.seat in calling)
            except discord.HTTPException as exc:
                # One player's DM must not hold up the table (nor the other DMs): their panel
                # catches up at the next change, and My hand always works.
                log.warning("DM panel of user %s in game %s not updated (%s)", s.user_id, game.id, exc)

    async def _channel(self, channel_id: int, user_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            channel = await user.create_dm()
        return channel

    async def send(self, game: GameRow, seat: int, user_id: int, *, fresh: bool = False) -> bool:
        """Show the seat's panel in the player's DMs: a new message if `fresh` (or none yet),
        else an edit. False if their DMs are closed."""
        t = await self.reader(game, user_id)
        ui = ui_for(game.title)
        todo = None
        if fresh and game.state is not None:
            todo = ui.todo(t, ui.game.view(game.state, None), seat)
        head = t("core.dm.call" if fresh else "core.dm.where", channel=f"<#{game.channel_id}>",
                 link=jump(game, game.table_message_id), todo=todo or t("core.ping.your_move_plain"))
        view, file = await self.panels.panel_message(game, seat, t, notice=head)
        existing = await self.store.dm_panel(game.id, user_id)
        try:
            if existing and not fresh:
                channel = await self._channel(existing[0], user_id)
                try:
                    await channel.get_partial_message(existing[1]).edit(view=view, attachments=[file] if file else [])
                    return True
                except discord.NotFound:
                    pass
                except discord.HTTPException as exc:  # a panel of the older layout cannot become this one
                    if exc.status != 400:
                        raise
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            sent = await user.send(view=view, file=file) if file else await user.send(view=view)
            await self.records.dm_panel(game.id, user_id, sent.channel.id, sent.id)
            if existing and existing[1] != sent.id:
                await self._trim(existing, user_id)
            return True
        except discord.Forbidden:
            await self._closed(game, user_id)
            return False

    async def _trim(self, where: tuple[int, int], user_id: int) -> None:
        """The previous DM prompt goes: only the newest panel stays in the DM channel (once
        the click being answered on it, if any, has its answer)."""
        if where[1] in self.held:
            self.trim_later[where[1]] = (where[0], user_id)
            return
        try:
            channel = await self._channel(where[0], user_id)
            await channel.get_partial_message(where[1]).delete()
        except discord.HTTPException as exc:
            log.info("could not trim an old DM panel of user %s (%s)", user_id, exc)

    async def _closed(self, game: GameRow, user_id: int) -> None:
        """DMs closed: remember it, and say so once in the channel (in the channel's language)
        with the way out."""
        t = Translator(game.lang)
        await self.store.set_prefs(user_id, dm_closed=True)
        try:
            channel = await self.channels.of(game)
        except discord.HTTPException:
            channel = None
        if channel is not None:
            try:
                await channel.send(t("core.dm.closed", user=f"<@{user_id}>"),
                                   allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=user_id)]))
            except discord.Forbidden:
                log.warning("game %s: could not tell %s in the channel that their DMs are closed", game.id, user_id)

    async def close(self, game: GameRow, user_id: int, key: str | None = None) -> None:
        """The game is over (or stopped): the last DM panel says so, with the way to the table."""
        where = await self.store.dm_panel(game.id, user_id)
        if where is None:
            return
        t = await self.reader(game, user_id)
        if key is None:
            key = "core.error.channel_gone" if (game.result or {}).get("reason") == "channel_deleted" else \
                ("core.dm.over" if game.status == "finished" else "core.dm.ended")
        panel = Panel(title=t(f"{game.title}.name"), description=t(key, channel=f"<#{game.channel_id}>",
                                                                  link=jump(game, game.table_message_id)))
        channel = await self._channel(where[0], user_id)
        try:
            await channel.get_partial_message(where[1]).edit(view=panel_view(game, game.version, panel,
                                                                             accent=ui_for(game.title).colour),
                                                              attachments=[])
        except discord.HTTPException as exc:
            log.warning("could not close the DM panel of user %s in game %s (%s)", user_id, game.id, exc)

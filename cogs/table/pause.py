"""When a game's channel is out of the bot's reach (play/pause.py keeps the pause): what counts
as losing it, as Discord says it. The bot lost View Channel or Send Messages there (Discord's 50001
and 50013), the thread was archived or locked (50083), or the bot left the server. DM-panel
players are told why; the game resumes by itself when access comes back (a channel's or role's
permissions changed, a thread reopened, the bot added back)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from locales import Translator
from locales.format import join_list
from play.pause import Pauses
from play.plan import owing
from play.ports import Notifier
from play.settings import paused
from store import GameRow, Store

from .channels import missing_permissions

log = logging.getLogger(__name__)

#: Discord's error codes that mean the bot cannot use the channel any more.
MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED = 50001, 50013, 50083
#: Without these the table cannot be kept at all (a missing Attach Files or Embed Links only
#: costs the picture: the game goes on).
VITAL = ("view_channel", "send_messages", "send_messages_in_threads", "read_message_history")


def reason(game: GameRow, t: Translator) -> str:
    """Why the game is paused, for a player who clicks."""
    info = paused(game) or {}
    perms = join_list((t(f"core.perm.{p}") for p in info.get("missing", ["view_channel"])), t.lang)
    return t("core.pause.click", perms=perms, channel=f"<#{game.channel_id}>")


def vital_missing(channel: Any) -> list[str]:
    """What the bot lacks in `channel` (from the cache) that the table cannot do without; an
    archived or locked thread counts as 'send_messages_in_threads'."""
    missing = [p for p in missing_permissions(channel) if p in VITAL]
    if isinstance(channel, discord.Thread) and (channel.archived or channel.locked) \
            and "send_messages_in_threads" not in missing:
        missing.append("send_messages_in_threads")
    return missing


def refusal_means_pause(exc: discord.HTTPException, channel: Any) -> list[str] | None:
    """What the bot lacks, if Discord's refusal of a table update means the channel is out of
    reach (None: it does not)."""
    code = getattr(exc, "code", 0)
    if code == THREAD_ARCHIVED:
        return ["send_messages_in_threads"]
    if code in (MISSING_ACCESS, MISSING_PERMISSIONS):
        missing = vital_missing(channel) if channel is not None else ["view_channel"]
        if code == MISSING_ACCESS and not missing:
            missing = ["view_channel"]
        return missing or None
    return None


async def pause(bot: discord.Client, store: Store, pauses: Pauses, game: GameRow, missing: list[str]) -> None:
    """Pause the game; its DM-panel players are told why (once: when it was running)."""
    paused_now = await pauses.pause(game, missing)
    if paused_now is not None:
        await tell_dm_panels(bot, store, paused_now, "core.pause.dm", missing)


async def tell_dm_panels(bot: discord.Client, store: Store, game: GameRow, key: str, missing: list[str]) -> None:
    t = Translator(game.lang)
    perms = join_list((t(f"core.perm.{p}") for p in missing), t.lang)
    text = "⏸️ " + t(key, perms=perms, channel=f"<#{game.channel_id}>")
    for s in game.seats:
        if not s.user_id or s.ai_plays:
            continue
        where = await store.dm_panel(game.id, s.user_id)
        if where is None:
            continue
        channel = bot.get_partial_messageable(where[0], type=discord.ChannelType.private)
        try:
            await channel.send(text)
        except discord.HTTPException as exc:
            log.warning("could not tell user %s that game %s paused (%s)", s.user_id, game.id, exc)


class Pauser:
    """Pauses and resumes games as the bot's access changes (the gateway's events)."""

    def __init__(self, bot: discord.Client, store: Store, pauses: Pauses, notifier: Notifier) -> None:
        self.bot = bot
        self.store = store
        self.pauses = pauses
        self.notifier = notifier

    async def pause(self, game: GameRow, missing: list[str]) -> None:
        await pause(self.bot, self.store, self.pauses, game, missing)

    async def resume(self, game: GameRow) -> None:
        resumed = await self.pauses.resume(game)
        if resumed is not None:
            self.notifier.note(game.id, "resumed")
            self.notifier.changed(resumed, [], ping=owing(resumed))

    async def check_guild(self, guild_id: int) -> None:
        """Something changed the bot's access in a server (a channel's or role's permissions, a
        thread archived or reopened, the bot added back): pause or resume its games."""
        for game_id in await self.store.games_in_guild(guild_id):
            game = await self.store.get(game_id)
            if game is None or game.status != "active":
                continue
            guild = self.bot.get_guild(guild_id)
            channel = guild.get_channel_or_thread(game.channel_id) if guild is not None else None
            if channel is None:
                continue  # not in the cache: Discord's next refusal (or a deletion) will tell
            missing = vital_missing(channel)
            if missing:
                await self.pause(game, missing)
            elif paused(game) is not None:
                await self.resume(game)

    async def thread_changed(self, thread_id: int, *, closed: bool) -> None:
        """A game's thread was archived or locked (the game pauses), or reopened (it resumes
        unless something else still keeps the bot out)."""
        game = await self.store.live_in(thread_id)
        if game is None or game.status != "active":
            return
        if closed:
            await self.pause(game, ["send_messages_in_threads"])
            return
        channel = self.bot.get_channel(thread_id)
        missing = [p for p in vital_missing(channel) if p != "send_messages_in_threads"] if channel else []
        if missing:
            await self.pause(game, missing)
        elif paused(game) is not None:
            await self.resume(game)

    async def guild_lost(self, guild_id: int) -> None:
        """The bot left (or was removed from) a server: every game there pauses."""
        for game_id in await self.store.games_in_guild(guild_id):
            game = await self.store.get(game_id)
            if game is not None and game.status == "active":
                await self.pause(game, ["view_channel"])

"""A game's channel as the bot sees it: finding it, and what the table needs there that the bot
lacks (from the cache, or as Discord last refused it)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from store import GameRow

log = logging.getLogger(__name__)

#: What the bot needs in a game's channel to keep its table there.
TABLE_PERMS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


def send_perm(channel: Any) -> str:
    return "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"


def missing_permissions(channel: Any) -> list[str]:
    """The permissions the table needs that the bot lacks in `channel` (from the cache)."""
    needed = [send_perm(channel) if p == "send_messages" else p for p in TABLE_PERMS]
    try:
        perms = channel.permissions_for(channel.guild.me)
    except Exception:
        return []
    return [p for p in needed if not getattr(perms, p, False)]


class Channels:
    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        #: Games whose channel refuses the bot (a permission was taken away): the permissions
        #: missing, shown to players in their panels until a table update succeeds again.
        self.blocked: dict[int, list[str]] = {}

    async def of(self, game: GameRow) -> Any:
        """The game's channel; raises discord.NotFound / Forbidden when Discord says so."""
        channel = self.bot.get_channel(game.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(game.channel_id)
        return channel

    def missing_now(self, game: GameRow) -> list[str] | None:
        """What the table needs in the game's channel and lacks now, as the bot's cache knows it
        (so a panel drawn right after a permission was taken away, or given back, says so at
        once); None when the channel is not in the cache."""
        channel = self.bot.get_channel(game.channel_id)
        if channel is None or getattr(getattr(channel, "guild", None), "me", None) is None:
            return None
        return missing_permissions(channel)

    def missing(self, game: GameRow) -> list[str]:
        """What the table lacks in the game's channel: as the cache says, else as Discord last
        refused."""
        now = self.missing_now(game)
        return self.blocked.get(game.id, []) if now is None else now

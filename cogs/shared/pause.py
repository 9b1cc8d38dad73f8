"""A game whose channel the bot can no longer use pauses, rather than being played to its end by
deadlines nobody can see: the bot lost View Channel or Send Messages there (Discord's 50001 and
50013), the thread was archived or locked (50083), or the bot left the server. A paused game
moves for nobody (no deadline, no seat-filler, no click), counts in no statistics, and its
DM-panel players are told why. It resumes by itself when access comes back; the host (or a
channel manager) may end it meanwhile.

The pause is kept in the game's settings (`paused`: why and since when), so it survives a
restart like everything else.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from locales import Translator
from locales.format import join_list
from store import GameRow

from .clock import now

if TYPE_CHECKING:
    from .house import House

log = logging.getLogger(__name__)

#: Discord's error codes that mean the bot cannot use the channel any more.
MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED = 50001, 50013, 50083
#: Without these the table cannot be kept at all (a missing Attach Files or Embed Links only
#: costs the picture: the game goes on).
VITAL = ("view_channel", "send_messages", "send_messages_in_threads", "read_message_history")


def paused(game: GameRow | None) -> dict[str, Any] | None:
    return (game.settings or {}).get("paused") if game is not None else None


class Pauser:
    def __init__(self, house: "House") -> None:
        self.house = house

    def vital_missing(self, channel: Any) -> list[str]:
        """What the bot lacks in `channel` (from the cache) that the table cannot do without;
        an archived or locked thread counts as 'send_messages_in_threads'."""
        missing = [p for p in self.house.table.missing_permissions(channel) if p in VITAL]
        if isinstance(channel, discord.Thread) and (channel.archived or channel.locked) \
                and "send_messages_in_threads" not in missing:
            missing.append("send_messages_in_threads")
        return missing

    async def refused(self, game: GameRow, exc: discord.HTTPException, channel: Any) -> bool:
        """Discord refused a table update: pause if it means the channel is out of reach.
        Returns whether the game is now paused."""
        code = getattr(exc, "code", 0)
        if code == THREAD_ARCHIVED:
            await self.pause(game, ["send_messages_in_threads"])
            return True
        if code in (MISSING_ACCESS, MISSING_PERMISSIONS):
            missing = self.vital_missing(channel) if channel is not None else ["view_channel"]
            if code == MISSING_ACCESS and not missing:
                missing = ["view_channel"]
            if missing:
                await self.pause(game, missing)
                return True
        return False

    async def pause(self, game: GameRow, missing: list[str]) -> None:
        house = self.house
        async with house.lock(game.id):
            fresh = await house.game(game.id, fresh=True)
            if fresh is None or fresh.status != "active":
                return
            was = paused(fresh)
            if was is not None and was.get("missing") == missing:
                return
            fresh.settings = {**fresh.settings, "paused": {"missing": missing, "since": now()}}
            await house.store.update_game(game.id, now(), settings=fresh.settings)
            await house.store.replace_timers(game.id, fresh.version, [])
            house.forget(game.id)
        log.warning("game %s paused: the bot lacks %s in channel %s", game.id, missing, game.channel_id)
        if was is None:
            await self.tell_dm_panels(fresh, "core.pause.dm", missing)

    async def resume(self, game: GameRow) -> None:
        house = self.house
        async with house.lock(game.id):
            fresh = await house.game(game.id, fresh=True)
            if fresh is None or fresh.status != "active" or paused(fresh) is None:
                return
            fresh.settings = {k: v for k, v in fresh.settings.items() if k != "paused"}
            await house.store.update_game(game.id, now(), settings=fresh.settings)
            house.forget(game.id)
            await house.replan(fresh, locked=True)
        log.info("game %s resumed: the bot can use channel %s again", game.id, game.channel_id)
        if house.table is not None:
            house.table.note(game.id, "resumed")
            house.table.changed(fresh, [], ping=house.owing(fresh))

    async def check_guild(self, guild_id: int) -> None:
        """Something changed the bot's access in a server (a channel's or role's permissions, a
        thread archived or reopened, the bot added back): pause or resume its games."""
        bot = self.house.bot
        for game_id in await self.house.store.games_in_guild(guild_id):
            game = await self.house.game(game_id, fresh=True)
            if game is None or game.status != "active":
                continue
            guild = bot.get_guild(guild_id)
            channel = guild.get_channel_or_thread(game.channel_id) if guild is not None else None
            if channel is None:
                continue  # not in the cache: Discord's next refusal (or a deletion) will tell
            missing = self.vital_missing(channel)
            if missing:
                await self.pause(game, missing)
            elif paused(game) is not None:
                await self.resume(game)

    async def thread_changed(self, thread_id: int, *, closed: bool) -> None:
        """A game's thread was archived or locked (the game pauses), or reopened (it resumes
        unless something else still keeps the bot out)."""
        game = await self.house.store.live_in(thread_id)
        if game is None or game.status != "active":
            return
        if closed:
            await self.pause(game, ["send_messages_in_threads"])
            return
        channel = self.house.bot.get_channel(thread_id)
        missing = [p for p in self.vital_missing(channel) if p != "send_messages_in_threads"] if channel else []
        if missing:
            await self.pause(game, missing)
        elif paused(game) is not None:
            await self.resume(game)

    async def guild_lost(self, guild_id: int) -> None:
        """The bot left (or was removed from) a server: every game there pauses."""
        for game_id in await self.house.store.games_in_guild(guild_id):
            game = await self.house.game(game_id, fresh=True)
            if game is not None and game.status == "active":
                await self.pause(game, ["view_channel"])

    def reason(self, game: GameRow, t: Translator) -> str:
        """Why the game is paused, for a player who clicks."""
        info = paused(game) or {}
        perms = join_list((t(f"core.perm.{p}") for p in info.get("missing", ["view_channel"])), t.lang)
        return t("core.pause.click", perms=perms, channel=f"<#{game.channel_id}>")

    async def tell_dm_panels(self, game: GameRow, key: str, missing: list[str]) -> None:
        t = Translator(game.lang)
        perms = join_list((t(f"core.perm.{p}") for p in missing), t.lang)
        text = "⏸️ " + t(key, perms=perms, channel=f"<#{game.channel_id}>")
        for s in game.seats:
            if not s.user_id or s.ai_plays:
                continue
            where = await self.house.store.dm_panel(game.id, s.user_id)
            if where is None:
                continue
            channel = self.house.bot.get_partial_messageable(where[0], type=discord.ChannelType.private)
            try:
                await channel.send(text)
            except discord.HTTPException as exc:
                log.warning("could not tell user %s that game %s paused (%s)", s.user_id, game.id, exc)

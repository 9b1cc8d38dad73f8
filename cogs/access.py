"""Who may reach a game, checked for every click, select and form (a custom_id is a request,
never a credential), and what becomes of a seat whose player can no longer reach the game.

A click is admitted only if the game it names is the one that drew it (the nonce) and it came
from where that game lives: its own channel, or, for a DM panel, a seated player who is still a
member of the game's server and can see its channel. "Can manage" is judged on the game's own
channel. Membership needs no privileged intent: it is looked up when a DM click, a DM panel, a
digest line, a rematch or a hand-over needs it (and remembered briefly), and the ban and
channel-update events that arrive without the members intent hand a seat to the seat-filler at
once.

A look-up Discord cannot answer (a server error, a rate limit) fails closed (issue 25, finding
4): `MembershipUnknown` is raised, the click is told to try again (the router), and nothing that
depends on it is given or sent: no move from a DM, no seat handed over or kept for a rematch, no
DM panel or digest line. Nor is a seat taken away for it: nobody loses a seat to a server error.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from play.games import GameCache
from play.seats import Seats
from store import GameRow, Store

from cogs.kit import codec
from cogs.kit.replies import say

log = logging.getLogger(__name__)

#: Seconds a membership lookup for a DM click is trusted (one REST call per player per minute
#: at most, however fast they click).
MEMBER_TTL = 60.0


class MembershipUnknown(Exception):
    """Discord could not say just now whether the user is a member (the look-up failed)."""


#: Told when a look-up outside a click finds that a seated player can no longer reach the game.
LostHook = Callable[[GameRow, int], Awaitable[None]]


def manages(perms: discord.Permissions | None) -> bool:
    """Rights that make a member a manager of a game's channel."""
    return bool(perms and (perms.manage_channels or perms.manage_guild or perms.administrator))


class Members:
    """Who is still a member of a game's server and can see its channel, asked of Discord when
    it matters (no privileged intent needed) and remembered MEMBER_TTL. The table keeper (DM
    panels, digests) uses it below the runtime's seats, so what it finds is handed up through
    the hooks `Access` registers (`on_lost`)."""

    def __init__(self, bot: discord.Client, games: GameCache) -> None:
        self.bot = bot
        self.games = games
        self._members: dict[tuple[int, int], tuple[float, Any]] = {}
        self._lost: list[LostHook] = []

    def on_lost(self, hook: LostHook) -> None:
        self._lost.append(hook)

    async def lost(self, game: GameRow, seat: int) -> None:
        """A seated player was found unable to reach the game (not by a click)."""
        for hook in self._lost:
            await hook(game, seat)

    def channel(self, game: GameRow) -> Any:
        guild = self.bot.get_guild(game.guild_id or 0)
        return guild.get_channel_or_thread(game.channel_id) if guild is not None else None

    def _remembered(self, key: tuple[int, int], fresh: bool) -> tuple[bool, Any]:
        hit = self._members.get(key)
        # An answer from the future (a clock that went back) is not trusted either.
        if hit is not None and not fresh and 0.0 <= time.monotonic() - hit[0] < MEMBER_TTL:
            return True, hit[1]
        return False, None

    async def member(self, game: GameRow, user_id: int, *, fresh: bool = False) -> Any:
        """The user as a member of the game's server who can see its channel, or None (left,
        banned, or the channel hidden from them). `MembershipUnknown` if Discord cannot answer
        now: that is never taken for access."""
        if not game.guild_id:
            return None
        if not self.games.owns(game) and self.bot.get_guild(game.guild_id) is None:
            return await self.remote_member(game, user_id, fresh=fresh)  # a DM click on shard 0
        guild = self.bot.get_guild(game.guild_id)
        if guild is None:
            return None
        key = (game.guild_id, user_id)
        known, member = self._remembered(key, fresh)
        if not known:
            try:
                member = await guild.fetch_member(user_id)
            except discord.NotFound:
                member = None
            except discord.HTTPException as exc:
                log.warning("could not look up member %s of guild %s (%s)", user_id, game.guild_id, exc)
                raise MembershipUnknown() from exc
            self._members[key] = (time.monotonic(), member)
        channel = self.channel(game)
        if member is None or channel is None:
            return None
        return member if channel.permissions_for(member).view_channel else None

    async def remote_member(self, game: GameRow, user_id: int, *, fresh: bool = False) -> Any:
        """Whether the user is still a member of a server this process does not run (so has not
        cached): asked of Discord, remembered like any look-up. The channel's permissions are the
        owner's to watch (it sees the server's events); a member counts as having access."""
        key = (game.guild_id or 0, user_id)
        known, member = self._remembered(key, fresh)
        if known:
            return member
        try:
            await self.bot.http.get_member(game.guild_id or 0, user_id)
            member = discord.Object(id=user_id)
        except discord.NotFound:
            member = None
        except discord.HTTPException as exc:
            log.warning("could not look up member %s of guild %s (%s)", user_id, game.guild_id, exc)
            raise MembershipUnknown() from exc
        self._members[key] = (time.monotonic(), member)
        return member

    async def reaches(self, game: GameRow, user_id: int, *, fresh: bool = False) -> bool | None:
        """Whether the user can still reach the game: True, False, or None when Discord cannot
        say now (what depends on it is not sent: it fails closed)."""
        try:
            return await self.member(game, user_id, fresh=fresh) is not None
        except MembershipUnknown:
            return None

    def forget(self, guild_id: int, user_id: int) -> None:
        self._members.pop((guild_id, user_id), None)

    def gone(self, guild_id: int, user_id: int) -> None:
        """The user left the server or was banned (an event said so)."""
        self._members[(guild_id, user_id)] = (time.monotonic(), None)


class Access:
    def __init__(self, bot: discord.Client, store: Store, games: GameCache, seats: Seats,
                 members: Members | None = None) -> None:
        self.bot = bot
        self.store = store
        self.games = games
        self.seats = seats
        #: Shared with the table keeper in app.py, so what its DM panels find comes here.
        self.members = members or Members(bot, games)
        self.members.on_lost(self.lost)

    async def lost(self, game: GameRow, seat: int) -> None:
        """A DM panel or a digest found the seat's player gone: the seat-filler takes it, where
        the game lives (seats change only there: docs/SCALING.md)."""
        if self.games.owns(game):
            await self.seats.lost_access(game, seat)

    # -- admitting a click ------------------------------------------------------------------

    async def admit(self, interaction: discord.Interaction, parsed: codec.Parsed) -> GameRow | None:
        """The game a click names, if the click may reach it; otherwise the clicker is told why
        and None is returned."""
        game = await self.games.game(parsed.game_id)
        if game is not None and parsed.nonce is None:
            await say(interaction, "core.error.outdated")  # drawn before ids carried a nonce
            return None
        if game is None or parsed.nonce != codec.nonce(game):
            await say(interaction, "core.error.gone")
            return None
        if interaction.guild_id is not None:
            if interaction.channel_id != game.channel_id:
                await say(interaction, "core.error.elsewhere")
                return None
            return game
        # A DM panel: only a seated player who can still reach the game's channel.
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await say(interaction, "core.error.not_seated")
            return None
        if await self.member(game, interaction.user.id) is None:
            await say(interaction, "core.error.no_access")
            if self.games.owns(game):  # seats change where the game lives (docs/SCALING.md)
                await self.seats.lost_access(game, seat)
            return None
        return game

    async def can_manage(self, interaction: discord.Interaction, game: GameRow) -> bool:
        """The host, or a member who can manage the game's own channel."""
        if interaction.user.id == game.host_id:
            return True
        if interaction.guild_id is not None and interaction.channel_id == game.channel_id:
            return manages(interaction.permissions)
        member = await self.member(game, interaction.user.id)
        channel = self.members.channel(game)
        return bool(member is not None and channel is not None and manages(channel.permissions_for(member)))

    # -- membership ------------------------------------------------------------------------

    async def member(self, game: GameRow, user_id: int, *, fresh: bool = False) -> Any:
        """See `Members.member` (`MembershipUnknown` when Discord cannot answer now)."""
        return await self.members.member(game, user_id, fresh=fresh)

    def forget(self, guild_id: int, user_id: int) -> None:
        self.members.forget(guild_id, user_id)

    async def recheck_channel(self, channel_id: int) -> None:
        """The channel's permissions changed: every seated player who can no longer see it
        hands their seat to the seat-filler."""
        game = await self.store.live_in(channel_id)
        if game is None or game.status != "active":
            return
        for s in game.seats:
            if s.human and s.user_id is not None:
                if await self.members.reaches(game, s.user_id, fresh=True) is False:  # unknown: the seat stays
                    await self.seats.lost_access(game, s.seat)
                    game = await self.games.game(game.id, fresh=True) or game

    async def member_gone(self, guild_id: int, user_id: int) -> None:
        """The user left or was banned from the server: their seats in running games go to the
        seat-filler, and their seats in finished games are marked left, so no rematch seats
        them (lobbies are the lobby's: `LobbyFlow.member_gone`)."""
        self.members.gone(guild_id, user_id)
        for status in ("active", "finished"):
            for game_id in await self.store.games_of_member(guild_id, user_id, status):
                game = await self.games.game(game_id, fresh=True)
                seat = game.seat_of(user_id) if game is not None and game.status == status else None
                if seat is None:
                    continue
                if status == "active":
                    await self.seats.lost_access(game, seat)
                else:
                    await self.seats.left_finished(game, seat)

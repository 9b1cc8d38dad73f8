"""A DM click reaches the process that runs shard 0, which does not run (nor cache) the game's
server when another process owns it: membership is then asked of Discord, and a refusal never
takes the seat away there (seats change where the game lives)."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from cogs.access import Access
from store import GameRow, Seat, Shards


class RemoteBot:
    """A bot that runs shard 0 of 2: the game's server (on shard 1) is not in its cache."""

    def __init__(self, members: set[int]) -> None:
        self.members = members
        self.asked: list[tuple[int, int]] = []
        self.http = SimpleNamespace(get_member=self.get_member)

    def get_guild(self, guild_id: int) -> None:
        return None

    async def get_member(self, guild_id: int, user_id: int) -> dict:
        self.asked.append((guild_id, user_id))
        if user_id not in self.members:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), {"code": 10007,
                                                                                     "message": "Unknown Member"})
        return {"user": {"id": str(user_id)}}


class StubGames:
    """The game cache of a process that runs `shards`."""

    def __init__(self, shards: Shards) -> None:
        self.shards = shards

    def owns(self, game: GameRow) -> bool:
        return self.shards.holds(game.guild_id)


def game_on_shard_1() -> GameRow:
    return GameRow(id=1, guild_id=(3 << 22) + 9, channel_id=5, title="toy", status="active", host_id=7, lang="en",
                   options={}, settings={}, seed=1, state={}, version=3, lobby_message_id=None,
                   table_message_id=None, result=None, created_at=0, updated_at=0, finished_at=None,
                   seats=[Seat(0, 7, "ann"), Seat(1, 8, "bob")])


async def test_membership_of_another_process_s_server_is_asked_of_discord():
    bot = RemoteBot(members={7})
    access = Access(bot, None, StubGames(Shards(2, (0,))), None)  # type: ignore[arg-type]
    game = game_on_shard_1()
    assert (await access.member(game, 7)) is not None  # still a member: the click may go on
    assert await access.member(game, 8) is None  # left the server: refused
    assert await access.member(game, 7) is not None and len(bot.asked) == 2  # remembered a while


async def test_a_server_this_process_owns_but_cannot_see_is_no_access():
    bot = RemoteBot(members={7})
    access = Access(bot, None, StubGames(Shards(2, (1,))), None)  # type: ignore[arg-type]
    assert await access.member(game_on_shard_1(), 7) is None and bot.asked == []


class DMClick:
    """A click in a DM (no guild), answered with an ephemeral line."""

    def __init__(self, user_id: int) -> None:
        self.guild_id = None
        self.channel_id = 999
        self.user = SimpleNamespace(id=user_id)
        self.locale = discord.Locale.american_english
        self.said: list[str] = []
        self.response = SimpleNamespace(is_done=lambda: False, send_message=self.send)

    async def send(self, content: str, **kwargs: object) -> None:
        self.said.append(content)


async def test_a_dm_click_of_someone_who_left_is_refused_and_the_seat_stays_for_the_owner():
    from cogs.kit import codec

    bot = RemoteBot(members={7})
    games = StubGames(Shards(2, (0,)))
    taken: list[int] = []

    async def lost_access(game: GameRow, seat: int) -> None:
        taken.append(seat)

    seats = SimpleNamespace(lost_access=lost_access)
    game = game_on_shard_1()

    async def read(game_id: int) -> GameRow:
        return game

    games.game = read  # type: ignore[attr-defined]
    access = Access(bot, None, games, seats)  # type: ignore[arg-type]
    parsed = codec.Parsed("br", game.id, game.version, "x", codec.nonce(game))
    assert await access.admit(DMClick(7), parsed) is game  # a member: admitted
    refused = DMClick(8)
    assert await access.admit(refused, parsed) is None and refused.said  # left: told so
    assert taken == []  # the seat is the owner's to hand over, not this process's

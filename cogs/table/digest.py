"""The daily digest DM (issue 19, `/game prefs digest:True`): players who opt in get at most one
DM a day listing their running games in every server (the same lines as `/game mine`: whose
move, the deadline, a link to the table), and only when at least one of them waits for them.

A loop looks every `TICK` seconds for players whose last digest is a day old (or who never had
one). Each digest is claimed in the store before it is sent (`Store.claim_digest`: the time is
written only if the last one is at least `DAY` old), so a restart, a retry or a second process
never sends a second one within the day; a DM that fails is not retried before the next day.
"""

from __future__ import annotations

import asyncio
import logging
import discord

from locales import Translator
from locales.format import join_list
from play import settings as settings_mod
from play.plan import Planner, owing
from play.ports import Clock
from store import Store, StoreUnavailable

from cogs.access import Members
from cogs.kit.layout import panel_view
from cogs.kit.names import text_names
from cogs.kit.panel import Panel

from . import bank as bank_words
from .dm import jump

log = logging.getLogger(__name__)

#: At most one digest per player in this many seconds.
DAY = 24 * 3600
#: How often the loop looks for digests due (a digest goes out within this of being due).
TICK = 3600
#: Lines in one digest (a player in more games sees the first ones, theirs to move first).
MAX_LINES = 20


class Digest:
    def __init__(self, bot: discord.Client, store: Store, planner: Planner, clock: Clock, members: Members) -> None:
        self.bot = bot
        self.members = members
        self.store = store
        self.planner = planner
        self.clock = clock
        self.closed = False
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run(), name="boardroom-digest")

    async def stop(self) -> None:
        self.closed = True
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while not self.closed:
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the next tick tries again; nothing was claimed for the failure
                if not isinstance(exc, StoreUnavailable):  # the store logs its own refusals
                    log.exception("the daily digest round failed")
            await asyncio.sleep(TICK)

    async def round(self) -> int:
        """Send the digests that are due; how many went out."""
        sent = 0
        t = self.clock()
        for user_id, lang in await self.store.digest_users(t - DAY):
            if self.closed:
                break
            tr = Translator(lang)
            lines, waiting = await self.lines(user_id, tr)
            if not waiting:  # nothing waits for them: no DM today (they are looked at again next tick)
                continue
            if not await self.store.claim_digest(user_id, t, DAY):
                continue  # another process (or an earlier round) sent it
            panel = Panel(title=tr("core.digest.title"), description="\n".join([tr("core.digest.intro"), *lines]))
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(view=panel_view(0, 0, panel))
                sent += 1
            except discord.HTTPException as exc:  # DMs closed, user gone: tomorrow, maybe
                log.info("no daily digest for user %s (%s)", user_id, exc)
        return sent

    async def lines(self, user_id: int, t: Translator) -> tuple[list[str], bool]:
        """The user's running games in every server, and whether any waits for them."""
        lines, waiting = await game_lines(self.bot, self.store, self.planner, await self.store.games_of_user(user_id),
                                          user_id, t, servers=True, members=self.members)
        return lines[:MAX_LINES], waiting


async def game_lines(bot: discord.Client, store: Store, planner: Planner, game_ids: list[int], user_id: int,
                     t: Translator, *, servers: bool = False, members: Members) -> tuple[list[str], bool]:
    """One line per running game in which the user holds a seat, theirs to move first (🔔):
    where (the channel; with `servers`, the server's name, for a DM), whose move, the
    deadline, a link to the table; and whether any waits for them. `/game mine` and the
    digest say the same. Only games whose channel the user can still reach: a member who left
    a server is not told its name, its games or their links (and when Discord cannot say now,
    the line is left out: it fails closed)."""
    mine, others = [], []
    servers_seen: dict[int, str] = {}
    for game_id in game_ids:
        game = await store.get(game_id)  # not cached: a digest's games may be another shard's
        if game is None or game.status != "active" or game.state is None:
            continue
        reaches = await members.reaches(game, user_id)
        if not reaches:
            if reaches is False and (seat := game.seat_of(user_id)) is not None:
                await members.lost(game, seat)
            continue
        seat = game.seat_of(user_id)
        owed = owing(game)
        names = text_names(game.names)
        waiting_for = join_list((names[s] for s in owed), t.lang) or "—"
        if servers:
            server = await _server_name(bot, game.guild_id, servers_seen)
            who = t("core.digest.your_move") if seat in owed else t("core.digest.waiting", who=waiting_for)
            line = t("core.digest.line", title=t(f"{game.title}.name"), server=server,
                     who=who, link=jump(game, game.table_message_id))
        else:
            line = t("core.mine.line", title=t(f"{game.title}.name"), channel=f"<#{game.channel_id}>",
                     who=t("core.mine.you") if seat in owed else waiting_for,
                     link=jump(game, game.table_message_id))
        deadline = await planner.deadline(game, [seat] if seat in owed else owed)
        if deadline:
            line += " · " + t("core.table.deadline", when=f"<t:{int(deadline)}:R>")
        if seat is not None and (bank := bank_words.tag(game, seat, settings_mod.merged(game.settings), t)):
            line += " · " + bank  # what is left of their own time bank
        (mine if seat in owed else others).append(("🔔 " if seat in owed else "▫️ ") + line)
    return mine + others, bool(mine)


async def lobby_lines(store: Store, game_ids: list[int], user_id: int, t: Translator, *,
                      members: Members) -> list[str]:
    """One line per open lobby in which the user is seated, with a link to the lobby message:
    `/game mine` says them after the running games, since a lobby opened in a new thread (the
    channel was busy) is otherwise found only by scrolling to that thread. Only lobbies the
    user can still reach (failing closed, as `game_lines`)."""
    lines = []
    for game_id in game_ids:
        game = await store.get(game_id)
        if game is None or game.status != "lobby" or not await members.reaches(game, user_id):
            continue
        lines.append("🪑 " + t("core.mine.lobby", title=t(f"{game.title}.name"), channel=f"<#{game.channel_id}>",
                                n=len(game.seats), link=jump(game, game.lobby_message_id)))
    return lines


async def _server_name(bot: discord.Client, guild_id: int | None, seen: dict[int, str]) -> str:
    """A server's name for a DM: from the cache, or asked of Discord once (with shards, this
    process may not hold the server)."""
    if not guild_id:
        return "—"
    if guild_id not in seen:
        guild = bot.get_guild(guild_id)
        if guild is None:
            try:
                guild = await bot.fetch_guild(guild_id)
            except discord.HTTPException:
                guild = None
        seen[guild_id] = guild.name if guild is not None else "—"
    return seen[guild_id]

"""`/game`: the commands every player uses, from the lobby to the results, and the events that
change who may reach a game (a member banned or leaving, a channel's permissions, the channel or
the table message deleted). Clicks and forms go to the router (`click/router.py`); what only
the host or a channel manager does sits in `/game-admin` (`cogs/admin.py`).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _l
from discord.ext import commands

from locales import Translator, tr
from locales.format import join_list
from play.games import GameCache
from play.house import House
from play.lobby import Lobbies
from play.quiet import parse_quiet, zone
from store import GameRow, Store

from .access import Access
from .after.looks import After
from .click.router import Router
from .kit.layout import panel_view
from .kit.names import text_name
from .kit.panel import Panel
from .kit.replies import reply, say, tr_for, with_file
from .lobby import learn as learn_mod, lobby as lobby_mod
from .manage import away_menu
from .table import pages
from .table.digest import Digest, game_lines, lobby_lines
from .table.keeper import TableKeeper
from .table.pause import Pauser
from .titles.contract import uis

log = logging.getLogger(__name__)


def title_choices() -> list[app_commands.Choice[str]]:
    # The default name (what Discord shows where no translation applies) is the English one, not the id.
    return [app_commands.Choice(name=_l(tr("en", f"{title}.name"), key=f"{title}.name"), value=title) for title in uis()]


class GameCog(commands.Cog):
    game = app_commands.Group(name=_l("game", key="core.cmd.game.name"),
                              description=_l("Board games at this table", key="core.cmd.game.description"),
                              guild_only=True, allowed_contexts=app_commands.AppCommandContext(guild=True),
                              allowed_installs=app_commands.AppInstallationType(guild=True))

    def __init__(self, bot: commands.Bot, *, store: Store, games: GameCache, house: House, lobbies: Lobbies,
                 keeper: TableKeeper, access: Access, pauser: Pauser, router: Router, digest: Digest,
                 after: After) -> None:
        self.bot = bot
        self.store = store
        self.games = games
        self.house = house
        self.lobbies = lobbies
        self.keeper = keeper
        self.access = access
        self.pauser = pauser
        self.router = router
        self.lobby = router.lobby
        self.digest = digest
        self.after = after

    async def cog_load(self) -> None:
        self.digest.start()

    async def cog_unload(self) -> None:
        await self.digest.stop()

    async def _live(self, interaction: discord.Interaction) -> GameRow | None:
        game = await self.games.live_in(interaction.channel_id or 0)
        if game is None:
            await say(interaction, "core.error.no_game")
        return game

    # -- the commands -----------------------------------------------------------------------

    @game.command(name=_l("new", key="core.cmd.new.name"),
                  description=_l("Open a lobby for a new game in this channel", key="core.cmd.new.description"))
    @app_commands.describe(title=_l("Which game", key="core.cmd.new.title"))
    @app_commands.rename(title=_l("title", key="core.cmd.new.title_name"))
    @app_commands.choices(title=title_choices())
    async def new(self, interaction: discord.Interaction, title: app_commands.Choice[str]) -> None:
        if interaction.guild is None:  # a command registered before it became guild-only
            await say(interaction, "core.error.guild_only")
            return
        await self.lobby.open(interaction, title.value, interaction.channel)

    @game.command(name=_l("learn", key="core.cmd.learn.name"),
                  description=_l("Learn a game: a guided first game against seat-fillers, in your language",
                                 key="core.cmd.learn.description"))
    @app_commands.describe(title=_l("Which game", key="core.cmd.new.title"))
    @app_commands.rename(title=_l("title", key="core.cmd.new.title_name"))
    @app_commands.choices(title=title_choices())
    async def learn(self, interaction: discord.Interaction, title: app_commands.Choice[str]) -> None:
        if interaction.guild is None:  # a command registered before it became guild-only
            await say(interaction, "core.error.guild_only")
            return
        await learn_mod.learn(interaction, self.lobbies, title.value, interaction.channel)

    @game.command(name=_l("hand", key="core.cmd.hand.name"),
                  description=_l("Open your private panel for the game here", key="core.cmd.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        game = await self._live(interaction)
        if game is not None:
            await self.router.open_panel(interaction, game)

    @game.command(name=_l("status", key="core.cmd.status.name"),
                  description=_l("Show the table again at the bottom of the channel", key="core.cmd.status.description"))
    async def status(self, interaction: discord.Interaction) -> None:
        game = await self._live(interaction)
        if game is None:
            return
        if game.status == "lobby":
            await interaction.response.send_message(view=lobby_mod.lobby_message(game, Translator(game.lang)))
            message = await interaction.original_response()
            await self.lobbies.posted(game, message.id)
            return
        await say(interaction, "core.status.reposted")
        self.keeper.refresh(game.id, repost=True)

    @game.command(name=_l("log", key="core.cmd.log.name"),
                  description=_l("What happened so far in the game here", key="core.cmd.log.description"))
    @app_commands.describe(page=_l("Page (1 is the first; without it, the latest)", key="core.cmd.log.page"))
    @app_commands.rename(page=_l("page", key="core.cmd.log.page_name"))
    async def log_cmd(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] | None = None) -> None:
        game = await self.store.latest_in(interaction.channel_id or 0)
        if game is None or game.status == "lobby":
            await say(interaction, "core.error.no_game")
            return
        view = await pages.log_page(self.store, game, None if page is None else page - 1, tr_for(interaction))
        await interaction.response.send_message(view=view, ephemeral=True)

    @game.command(name=_l("rules", key="core.cmd.rules.name"),
                  description=_l("Read the rules of a game", key="core.cmd.rules.description"))
    @app_commands.describe(title=_l("Which game", key="core.cmd.new.title"))
    @app_commands.rename(title=_l("title", key="core.cmd.new.title_name"))
    @app_commands.choices(title=title_choices())
    async def rules(self, interaction: discord.Interaction, title: app_commands.Choice[str] | None = None) -> None:
        t = tr_for(interaction)
        chosen = title.value if title else None
        if chosen is None and interaction.channel_id:
            game = await self.store.latest_in(interaction.channel_id)
            chosen = game.title if game else None
        view = pages.rules_menu(t) if chosen is None else pages.rules_page(chosen, 0, t)
        await interaction.response.send_message(view=view, ephemeral=True)

    @game.command(name=_l("leave", key="core.cmd.leave.name"),
                  description=_l("Leave the game here (the AI takes your seat)", key="core.cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        game = await self._live(interaction)
        if game is None:
            return
        if game.status == "lobby":
            await self.lobby.leave_by_command(interaction, game)
            return
        await self.router.admin.ask_leave(interaction, game, tr_for(interaction))

    @game.command(name=_l("mine", key="core.cmd.mine.name"),
                  description=_l("Your games in this server: whose move, the deadline, a link",
                                 key="core.cmd.mine.description"))
    async def mine(self, interaction: discord.Interaction) -> None:
        t = tr_for(interaction)
        lines, _ = await game_lines(self.bot, self.store, self.house.planner,
                                    await self.store.games_of_member(interaction.guild_id or 0, interaction.user.id),
                                    interaction.user.id, t, members=self.access.members)
        lines += await lobby_lines(self.store, await self.store.games_of_member(interaction.guild_id or 0,
                                                                                 interaction.user.id, "lobby"),
                                   interaction.user.id, t, members=self.access.members)
        panel = Panel(title=t("core.mine.title"), description="\n".join(lines) or t("core.mine.none"))
        await interaction.response.send_message(view=panel_view(0, 0, panel), ephemeral=True)

    @game.command(name=_l("history", key="core.cmd.history.name"),
                  description=_l("Finished games in this server", key="core.cmd.history.description"))
    async def history(self, interaction: discord.Interaction) -> None:
        t = tr_for(interaction)
        games = await self.store.history(guild_id=interaction.guild_id, limit=10)
        if not games:
            await reply(interaction, t("core.history.none"))
            return
        lines = []
        for g in games:
            places = (g.result or {}).get("places") or []
            winners = [text_name(g.seats[i].name) for i, p in enumerate(places) if p == 1 and i < len(g.seats)]
            lines.append(t("core.history.line", id=g.id, title=t(f"{g.title}.name"), when=f"<t:{int(g.finished_at or 0)}:d>",
                           winners=join_list(winners, t.lang) or "—", channel=f"<#{g.channel_id}>"))
        await interaction.response.send_message(view=panel_view(0, 0, Panel(title=t("core.history.title"),
                                                                            description="\n".join(lines))),
                                                ephemeral=True)

    @game.command(name=_l("stats", key="core.cmd.stats.name"),
                  description=_l("Games played and won in this server", key="core.cmd.stats.description"))
    @app_commands.describe(member=_l("Whose record (without it, yours)", key="core.cmd.stats.member"))
    @app_commands.rename(member=_l("member", key="core.cmd.stats.member_name"))
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        t = tr_for(interaction)
        who = member or interaction.user
        stats = await self.store.user_stats(who.id, guild_id=interaction.guild_id)
        name = text_name(who.display_name)
        if not stats:
            await reply(interaction, t("core.stats.none", user=name))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # the chart is drawn in a worker
        lines = [t("core.stats.line", title=t(f"{title}.name"), played=s["played"], won=s["won"])
                 for title, s in sorted(stats.items())]
        ratings, chart = await self.after.stats(who, interaction.guild_id, t)
        panel = Panel(title=t("core.stats.title", user=name), description="\n".join(lines + [""] + ratings))
        image = chart.filename if chart is not None else None
        await interaction.followup.send(**with_file(chart, view=panel_view(0, 0, panel, image=image), ephemeral=True))

    @game.command(name=_l("leaderboard", key="core.cmd.leaderboard.name"),
                  description=_l("The best players of a game, in this server or in all",
                                 key="core.cmd.leaderboard.description"))
    @app_commands.describe(title=_l("Which game", key="core.cmd.new.title"))
    @app_commands.rename(title=_l("title", key="core.cmd.new.title_name"))
    @app_commands.choices(title=title_choices())
    async def leaderboard(self, interaction: discord.Interaction,
                          title: app_commands.Choice[str] | None = None) -> None:
        await self.after.leaderboard(interaction, title.value if title else None)

    @game.command(name=_l("replay", key="core.cmd.replay.name"),
                  description=_l("Step through a finished game of this server, move by move",
                                 key="core.cmd.replay.description"))
    @app_commands.describe(game=_l("The game's number (#12 in /game history; without it, the last one here)",
                                   key="core.cmd.replay.game"))
    @app_commands.rename(game=_l("game", key="core.cmd.replay.game_name"))
    async def replay(self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
        await self.after.replay(interaction, game)

    @game.command(name=_l("export", key="core.cmd.export.name"),
                  description=_l("Download a finished game as a file (JSON) that replays to the same result",
                                 key="core.cmd.export.description"))
    @app_commands.describe(game=_l("The game's number (#12 in /game history; without it, the last one here)",
                                   key="core.cmd.replay.game"))
    @app_commands.rename(game=_l("game", key="core.cmd.replay.game_name"))
    async def export(self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
        await self.after.export(interaction, game)

    @game.command(name=_l("prefs", key="core.cmd.prefs.name"),
                  description=_l("Your DM panel, turn pings and daily digest", key="core.cmd.prefs.description"))
    @app_commands.describe(dm_panel=_l("Keep your private panel in a DM", key="core.cmd.prefs.dm_panel"),
                           pings=_l("Mention you when it is your move", key="core.cmd.prefs.pings"),
                           digest=_l("At most one DM a day listing your games that wait for you",
                                     key="core.cmd.prefs.digest"),
                           quiet=_l("Quiet hours, when your clock stops (23:00-07:00; off for none)",
                                    key="core.cmd.prefs.quiet"),
                           timezone=_l("Your time zone (Europe/Madrid, Asia/Tokyo, America/Mexico_City…)",
                                       key="core.cmd.prefs.timezone"))
    @app_commands.rename(dm_panel=_l("dm_panel", key="core.cmd.prefs.dm_panel_name"),
                         pings=_l("pings", key="core.cmd.prefs.pings_name"),
                         digest=_l("digest", key="core.cmd.prefs.digest_name"),
                         quiet=_l("quiet", key="core.cmd.prefs.quiet_name"),
                         timezone=_l("timezone", key="core.cmd.prefs.timezone_name"))
    async def prefs(self, interaction: discord.Interaction, dm_panel: bool | None = None, pings: bool | None = None,
                    digest: bool | None = None, quiet: str | None = None, timezone: str | None = None) -> None:
        t = tr_for(interaction)
        if quiet is not None or timezone is not None:
            problem = await self.set_quiet(interaction.user.id, quiet, timezone)
            if problem is not None:
                await reply(interaction, t(problem))
                return
        changes: dict[str, bool] = {}
        if dm_panel is not None:
            changes["dm_panel"] = dm_panel
            changes["dm_closed"] = False
        if pings is not None:
            changes["pings"] = pings
        prefs = await self.store.set_prefs(interaction.user.id, **changes) if changes else \
            await self.store.prefs(interaction.user.id)
        if digest is not None:  # written in the language the player uses now
            prefs = await self.store.set_digest(interaction.user.id, digest, t.lang)
        text = t("core.prefs.now", dm=t("core.on" if prefs["dm_panel"] else "core.off"),
                 pings=t("core.on" if prefs["pings"] else "core.off"),
                 digest=t("core.on" if prefs["digest"] else "core.off"))
        text += "\n" + await self.quiet_line(interaction.user.id, t)
        text += "\n" + away_menu.status(t, await away_menu.until_of(self.house, interaction.user.id))
        await reply(interaction, text)
        if dm_panel and interaction.channel_id:
            game = await self.games.live_in(interaction.channel_id)
            seat = game.seat_of(interaction.user.id) if game is not None and game.status == "active" else None
            if game is not None and seat is not None:
                ok = await self.keeper.dms.send(game, seat, interaction.user.id, fresh=True)
                if not ok:
                    await reply(interaction, t("core.dm.closed_you"))

    async def set_quiet(self, user_id: int, quiet: str | None, timezone: str | None) -> str | None:
        """Keep the player's quiet hours and time zone; the catalogue key of what was wrong."""
        current = (await self.store.quiet([user_id])).get(user_id, (None, None))
        hours = current[0]
        if quiet is not None:
            off = quiet.strip().lower() in ("off", "none", "no", "0", "-", "なし", "解除", "ninguna")
            if not off and parse_quiet(quiet) is None:
                return "core.prefs.bad_quiet"
            hours = None if off else quiet.strip()
        if timezone is not None and zone(timezone) is None:
            return "core.prefs.bad_tz"
        await self.house.set_quiet(user_id, hours, timezone.strip() if timezone else None)
        return None

    async def quiet_line(self, user_id: int, t: Translator) -> str:
        hours, tz = (await self.store.quiet([user_id])).get(user_id, (None, None))
        if not hours or parse_quiet(hours) is None:
            return t("core.prefs.no_quiet")
        return t("core.prefs.quiet", hours=hours, tz=tz or "UTC")

    @game.command(name=_l("away", key="core.cmd.away.name"),
                  description=_l("Away for a while: your deadlines wait, or the AI plays for you",
                                 key="core.cmd.away.description"))
    @app_commands.describe(until=_l("How long (3d, 12h, 1d12h) or until when (2026-12-24 18:00 UTC); back: you are back",
                                    key="core.cmd.away.until"))
    @app_commands.rename(until=_l("until", key="core.cmd.away.until_name"))
    async def away(self, interaction: discord.Interaction, until: str | None = None) -> None:
        await away_menu.command(self.house, interaction, until)

    # -- who may reach a game ---------------------------------------------------------------

    @commands.Cog.listener()
    async def on_member_ban(self, guild: discord.Guild, user: discord.User | discord.Member) -> None:
        await self.access.member_gone(guild.id, user.id)
        await self.lobby.member_gone(guild.id, user.id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        # Delivered only with the members intent (which Boardroom does not ask for); when it
        # comes, it is the quickest way to know. Without it, the click check does the work.
        await self.access.member_gone(payload.guild_id, payload.user.id)
        await self.lobby.member_gone(payload.guild_id, payload.user.id)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        if before.overwrites != after.overwrites:
            await self.access.recheck_channel(after.id)
        await self.pauser.check_guild(after.guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        # Raw: an archived thread may leave the cache, and its update is the one that matters.
        meta = payload.data.get("thread_metadata") or {}
        await self.pauser.thread_changed(payload.thread_id,
                                               closed=bool(meta.get("archived") or meta.get("locked")))

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self.pauser.check_guild(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.pauser.check_guild(guild.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.pauser.guild_lost(guild.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self._channel_gone(thread.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A game's table message was deleted (by a moderator, a clean-up bot): put it back at
        once, so its buttons are there for whoever moves next."""
        game = await self.games.live_in(payload.channel_id)
        if game is not None and game.status == "active" and game.table_message_id == payload.message_id:
            self.keeper.refresh(game.id)

    async def _channel_gone(self, channel_id: int) -> None:
        game = await self.store.live_in(channel_id)
        if game is not None:
            await self.keeper.lost_channel(game)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        # Without the message content intent messages still arrive, empty: enough to know how
        # far the table has drifted up and whether the turn message is still the latest.
        if message.guild is not None:
            self.keeper.seen(message)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.router.on_interaction(interaction)


async def setup(bot: commands.Bot) -> None:
    b: Any = bot  # the parts app.py composed before loading the extensions
    await bot.add_cog(GameCog(bot, store=b.store, games=b.house.games, house=b.house, lobbies=b.lobbies,
                              keeper=b.keeper, access=b.access, pauser=b.pauser, router=b.router, digest=b.digest,
                              after=b.after))

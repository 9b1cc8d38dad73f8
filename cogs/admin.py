"""`/game-admin`: running the games of a server. A group of its own, with default member
permissions (Manage Server), so a server's admins decide in Server Settings > Integrations who
sees it; every command still checks the right on the game's own channel (the host of a game, or
a member who can manage that channel; server defaults need Manage Server). Hosts and channel
managers reach a game's settings and its end from the table's ⚙️ menu as well."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _l
from discord.ext import commands

from locales import languages

from play import settings as settings_mod
from play.games import GameCache
from store import Store

from .kit.replies import reply, say, tr_for
from .manage.settings_menu import Admin


class AdminCog(commands.Cog):
    admin = app_commands.Group(name=_l("game-admin", key="core.cmd.admin.name"),
                               description=_l("Run the games of this server (hosts and managers)",
                                              key="core.cmd.admin.description"),
                               guild_only=True, default_permissions=discord.Permissions(manage_guild=True),
                               allowed_contexts=app_commands.AppCommandContext(guild=True),
                               allowed_installs=app_commands.AppInstallationType(guild=True))

    def __init__(self, bot: commands.Bot, store: Store, games: GameCache, admin: Admin) -> None:
        self.bot = bot
        self.store = store
        self.games = games
        self.flow = admin

    @admin.command(name=_l("settings", key="core.cmd.settings.name"),
                   description=_l("Deadlines, reminders and pace of the game here", key="core.cmd.settings.description"))
    async def settings_cmd(self, interaction: discord.Interaction) -> None:
        game = await self.games.live_in(interaction.channel_id or 0)
        if game is None:
            await say(interaction, "core.error.no_game")
            return
        await self.flow.open_settings(interaction, game, tr_for(interaction))

    @admin.command(name=_l("end", key="core.cmd.end.name"),
                   description=_l("End the game here (host or channel managers)", key="core.cmd.end.description"))
    async def end(self, interaction: discord.Interaction) -> None:
        game = await self.games.live_in(interaction.channel_id or 0)
        if game is None:
            await say(interaction, "core.error.no_game")
            return
        await self.flow.ask_end(interaction, game, tr_for(interaction))

    @admin.command(name=_l("defaults", key="core.cmd.defaults.name"),
                   description=_l("Server defaults for new games (managers)", key="core.cmd.defaults.description"))
    @app_commands.describe(language=_l("Language of new games", key="core.cmd.defaults.language"),
                           pace=_l("Live or slow deadlines", key="core.cmd.defaults.pace"),
                           on_deadline=_l("What happens at a deadline", key="core.cmd.defaults.on_deadline"),
                           ai_level=_l("How strongly the seat-filling AI plays", key="core.cmd.defaults.ai_level"),
                           story=_l("Post a picture story of each finished game with its results",
                                    key="core.cmd.defaults.story"))
    @app_commands.rename(language=_l("language", key="core.cmd.defaults.language_name"),
                         pace=_l("pace", key="core.cmd.defaults.pace_name"),
                         on_deadline=_l("on_deadline", key="core.cmd.defaults.on_deadline_name"),
                         ai_level=_l("ai_level", key="core.cmd.defaults.ai_level_name"),
                         story=_l("story", key="core.cmd.defaults.story_name"))
    @app_commands.choices(
        language=[app_commands.Choice(name=_l(code, key=f"core.lang.{code}"), value=code) for code in languages()],
        pace=[app_commands.Choice(name=_l(p, key=f"core.pace.{p}"), value=p) for p in settings_mod.PACES],
        on_deadline=[app_commands.Choice(name=_l(m, key=f"core.on_deadline.{m}"), value=m)
                     for m in settings_mod.ON_DEADLINE],
        ai_level=[app_commands.Choice(name=_l(level, key=f"core.ai_level.{level}"), value=level)
                  for level in settings_mod.LEVELS],
    )
    async def defaults(self, interaction: discord.Interaction, language: app_commands.Choice[str] | None = None,
                       pace: app_commands.Choice[str] | None = None,
                       on_deadline: app_commands.Choice[str] | None = None,
                       ai_level: app_commands.Choice[str] | None = None, story: bool | None = None) -> None:
        t = tr_for(interaction)
        perms = interaction.permissions
        if not (perms.manage_guild or perms.administrator):
            await reply(interaction, t("core.error.manager_only"))
            return
        current = await self.store.guild_settings(interaction.guild_id)
        for key, choice in (("lang", language), ("pace", pace), ("on_deadline", on_deadline), ("ai_level", ai_level)):
            if choice is not None:
                current[key] = choice.value
        if story is not None:  # read by the results (cogs/table/standing.py), not a game setting
            current["story"] = story
        await self.store.set_guild_settings(interaction.guild_id or 0, current)
        conf = settings_mod.merged(current)
        await reply(interaction, t("core.defaults.now", lang=t(f"core.lang.{current.get('lang', 'en')}")
                                   if current.get("lang") else t("core.defaults.host_locale"),
                                   pace=t(f"core.pace.{conf['pace']}"), mode=t(f"core.on_deadline.{conf['on_deadline']}"),
                                   level=t(f"core.ai_level.{conf['ai_level']}"))
                    + "\n" + t("core.defaults.story", state=t("core.on" if current.get("story", True) else "core.off")))


async def setup(bot: commands.Bot) -> None:
    b: Any = bot  # the parts app.py composed before loading the extensions
    await bot.add_cog(AdminCog(bot, b.store, b.house.games, b.router.admin))


"""`/local`: what only the local stand-in offers, typed in the page's command box like every
other command: fast-forward the clock (to see reminders and deadlines), and the language one's
interactions carry (what Discord takes from the app's settings). Loaded only by `--local`."""

from __future__ import annotations

from datetime import timedelta

import discord
from discord import app_commands
from discord.app_commands import locale_str as _l
from discord.ext import commands
from discord.utils import format_dt

from locales import Translator, language_of, tr

from local.clock import STEPS
from local.world import LOCALES


class LocalCog(commands.Cog):
    local = app_commands.Group(name=_l("local", key="local.cmd.name"),
                               description=_l("Only in the local stand-in for Discord", key="local.cmd.description"),
                               guild_only=True)

    def __init__(self, bot: commands.Bot, session) -> None:
        self.bot = bot
        self.session = session  # run.Session: the world, the clock, the store

    @local.command(name=_l("clock", key="local.cmd.clock.name"),
                   description=_l("Move the clock forward (AI seats, reminders and deadlines run as if that time "
                                  "passed)", key="local.cmd.clock.description"))
    @app_commands.describe(forward=_l("How far", key="local.cmd.clock.forward"))
    @app_commands.rename(forward=_l("forward", key="local.cmd.clock.forward_name"))
    @app_commands.choices(forward=[app_commands.Choice(name=_l(tr("en", f"local.step.{step}"), key=f"local.step.{step}"),
                                                       value=step)
                                   for step in STEPS])
    async def clock(self, interaction: discord.Interaction, forward: app_commands.Choice[str]) -> None:
        seconds = STEPS[forward.value]
        clock = self.session.clock
        clock.forward(seconds)
        t = Translator(language_of(interaction.locale))
        when = clock.now() + timedelta(seconds=seconds)
        await interaction.response.send_message(
            t("local.clock.moving", amount=t(f"local.step.{forward.value}"), when=format_dt(when, "F")), ephemeral=True)

    @local.command(name=_l("language", key="local.cmd.language.name"),
                   description=_l("The language your commands, panels and replies are in",
                                  key="local.cmd.language.description"))
    @app_commands.describe(language=_l("Language", key="local.cmd.language.language"))
    @app_commands.rename(language=_l("language", key="local.cmd.language.language_name"))
    @app_commands.choices(language=[app_commands.Choice(name=_l(tr("en", f"local.language.{lang}"),
                                                                           key=f"local.language.{lang}"), value=lang)
                                    for lang in LOCALES])
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        await self.session.set_language(interaction.user.id, language.value)
        t = Translator(language.value)
        await interaction.response.send_message(t("local.language.set", language=t(f"local.language.{language.value}")),
                                                ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LocalCog(bot, bot.local))

"""The commands and clicks of the after-game wing: `/game leaderboard`, `/game replay`,
`/game export`, the rating in `/game stats`, and the leaderboard's and replay's buttons (which
belong to no game's channel: the router hands them here)."""

from __future__ import annotations

import io
import json
from typing import Any

import discord

from locales import Translator
from play.export import log_of, record
from play.replays import Replays
from render.chart import rating_chart
from render.pool import pictures_of
from store import GameRow, Store
from store.ratings import Player

from cogs.kit.replies import reply, tr_for
from cogs.kit.views import image_file
from cogs.titles.contract import uis

from . import board, replay

#: Finished games of a channel looked through for "the last one here".
RECENT = 50


class After:
    def __init__(self, bot: discord.Client, store: Store, replays: Replays) -> None:
        self.bot = bot
        self.store = store
        self.replays = replays

    # -- the leaderboard ----------------------------------------------------------------------

    async def leaderboard(self, interaction: discord.Interaction, title: str | None) -> None:
        if title is None and interaction.channel_id:
            latest = await self.store.latest_in(interaction.channel_id)
            title = latest.title if latest else None
        view = await board.page(self.store, tr_for(interaction), title=title or next(iter(uis())), scope="s",
                                number=0, guild_id=interaction.guild_id, user_id=interaction.user.id)
        await interaction.response.send_message(view=view, ephemeral=True)

    async def board_click(self, interaction: discord.Interaction, arg: str) -> None:
        parsed = board.parse(arg)
        if parsed is None:
            await reply(interaction, tr_for(interaction)("core.error.bad_action"))
            return
        number, scope, title = parsed
        view = await board.page(self.store, tr_for(interaction), title=title, scope=scope, number=number,
                                guild_id=interaction.guild_id, user_id=interaction.user.id)
        await interaction.response.edit_message(view=view)

    # -- replays and exports ------------------------------------------------------------------

    async def chosen(self, interaction: discord.Interaction, game_id: int | None) -> GameRow | None:
        """The finished game asked for (this server's), or the last one of this channel; the
        asker is told when there is none."""
        t = tr_for(interaction)
        if game_id is None:
            recent = await self.store.history(guild_id=interaction.guild_id, limit=RECENT)
            game = next((g for g in recent if g.channel_id == interaction.channel_id), None)
            if game is None:
                await reply(interaction, t("core.replay.none_here"))
            return game
        game = await replay.finished_game(self.store, interaction.guild_id, game_id)
        if game is None:
            await reply(interaction, t("core.replay.not_found", id=game_id))
        return game

    async def replay(self, interaction: discord.Interaction, game_id: int | None) -> None:
        game = await self.chosen(interaction, game_id)
        if game is not None:
            await self.show(interaction, game, 0, False, new=True)

    async def replay_click(self, interaction: discord.Interaction, arg: str) -> None:
        t = tr_for(interaction)
        parsed = replay.parse(arg)
        game = None if parsed is None else await replay.finished_game(self.store, interaction.guild_id, parsed[0],
                                                                       parsed[1])
        if parsed is None or game is None:
            await reply(interaction, t("core.error.gone"))
            return
        await self.show(interaction, game, parsed[2], parsed[3], new=False)

    async def show(self, interaction: discord.Interaction, game: GameRow, n: int, everything: bool, *,
                   new: bool) -> None:
        t = tr_for(interaction)
        await interaction.response.defer(ephemeral=True, thinking=new)
        shown = await replay.step(self.bot, self.replays, game, n, everything, t)
        if shown is None:
            await interaction.followup.send(t("core.replay.archived", id=game.id), ephemeral=True)
            return
        view, file = shown
        if new:
            await interaction.followup.send(view=view, file=file, ephemeral=True)
        else:
            await interaction.edit_original_response(view=view, attachments=[file])

    async def export(self, interaction: discord.Interaction, game_id: int | None) -> None:
        t = tr_for(interaction)
        game = await self.chosen(interaction, game_id)
        if game is None:
            return
        entries = await log_of(self.store, game)
        if entries is None:
            await reply(interaction, t("core.replay.archived", id=game.id))
            return
        name = f"boardroom-{game.title}-{game.id}.json"
        data = json.dumps(record(game, entries), ensure_ascii=False, indent=1).encode("utf-8")
        await interaction.response.defer(ephemeral=True, thinking=True)  # files go with a followup
        await interaction.followup.send(t("core.export.done", id=game.id, file=name),
                                        file=discord.File(io.BytesIO(data), filename=name), ephemeral=True)

    # -- /game stats ----------------------------------------------------------------------------

    async def stats(self, who: Any, guild_id: int | None, t: Translator) -> tuple[list[str], discord.File | None]:
        """The member's ratings in this server, a line per title, and the chart of the first."""
        scope = int(guild_id or 0)
        player = Player(who.id)
        lines, file = [], None
        for title in await self.store.rated_titles(scope, player):
            mine = await self.store.standing(scope, title, player)
            if mine is None:
                continue
            _, total = await self.store.leaderboard(scope, title, limit=1)
            lines.append(t("core.stats.rating", title=t(f"{title}.name"), points=mine.skill.points, rank=mine.rank,
                           of=total, games=mine.games))
            if file is None:
                points = [s.points for s in await self.store.rating_history(scope, title, player)]
                if len(points) > 1:
                    caption = t("core.stats.chart_alt", user=who.display_name, title=t(f"{title}.name"))
                    data = await pictures_of(self.bot).png(rating_chart, points, caption)
                    file = image_file(data, f"rating-{title}.png")
        return lines or [t("core.stats.unrated")], file


"""The lobby's clicks: opening a lobby, joining and leaving, AI seats, the host's options, the
start, and starting elsewhere (a thread) when the channel is busy.

Lobby buttons carry the lobby's version (a digest of its seats, options and settings), like the
table's: a double click on Add AI adds one seat, and Start never starts a lobby that changed
under the host's finger.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from engine.core import RuleError
from locales import Translator, language_of, languages
from locales.format import join_list
from play import settings as settings_mod
from play.games import GameCache
from play.lobby import Lobbies
from play.names import clean_name
from play.result import error_key
from store import ChannelBusy, GameRow, Seat, Store

from cogs.access import Access
from cogs.kit.codec import Verb, house
from cogs.kit import codec
from cogs.kit.panel import Button, parse_amount
from cogs.kit.replies import reply, say, tr_for
from cogs.kit.views import build_view, form_values
from cogs.titles.contract import ui_for, uis
from cogs.titles import variants

from . import lobby as lobby_mod

log = logging.getLogger(__name__)

#: What the bot needs in a channel to host a game there.
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
HOST_ONLY = {"addai", "rmai", "opts", "form", "start", "level"}


def missing_permissions(interaction: discord.Interaction, channel: Any) -> list[str]:
    perms = interaction.app_permissions
    if channel is not None and channel.id != interaction.channel_id and interaction.guild is not None:
        me = interaction.guild.me
        perms = channel.permissions_for(me) if me else perms
    needed = list(NEEDED)
    if isinstance(channel, discord.Thread):
        needed[1] = "send_messages_in_threads"
    return [p for p in needed if not getattr(perms, p, False)]


class LobbyFlow:
    def __init__(self, bot: discord.Client, store: Store, games: GameCache, lobbies: Lobbies, access: Access) -> None:
        self.bot = bot
        self.store = store  # read only: every write is the lobbies'
        self.games = games
        self.lobbies = lobbies
        self.access = access

    # -- opening ----------------------------------------------------------------------------

    async def open(self, interaction: discord.Interaction, title: str, channel: Any) -> None:
        t = tr_for(interaction)
        missing = missing_permissions(interaction, channel)
        if missing:
            await reply(interaction, t("core.error.bot_permissions", perms=join_list((t(f"core.perm.{p}") for p in missing), t.lang)))
            return
        defaults = await self.store.guild_settings(interaction.guild_id)
        # The host's own language unless the server chose one with /game defaults: a server's
        # locale is en-US on every non-Community server, whatever its members speak.
        lang = defaults.get("lang") or language_of(interaction.locale)
        conf = {k: v for k, v in defaults.items() if k in ("pace", "on_deadline", "reminder", "ai_level")}
        conf["nonce"] = codec.new_nonce()
        try:
            game = await self.lobbies.open(guild_id=interaction.guild_id, channel_id=channel.id, title=title,
                                           host_id=interaction.user.id, host_name=interaction.user.display_name,
                                           lang=lang, settings=conf)
        except ChannelBusy:
            busy = await self.store.live_in(channel.id)
            view = None
            if not isinstance(channel, discord.Thread) and hasattr(channel, "create_thread"):
                view = build_view(0, 0, [Button(t("core.lobby.open_thread"), house(Verb.THREAD, title), "primary",
                                                emoji="🧵", any_version=True)])
            await reply(interaction, t("core.error.channel_busy", title=t(f"{busy.title}.name") if busy else "?"),
                        **({"view": view} if view else {}))
            return
        view = lobby_mod.lobby_message(game, Translator(game.lang))
        if channel.id == interaction.channel_id and not interaction.response.is_done():
            await interaction.response.send_message(view=view)
            message = await interaction.original_response()
        else:
            message = await channel.send(view=view)
            await reply(interaction, t("core.lobby.opened_in", channel=channel.mention))
        await self.lobbies.posted(game, message.id)

    async def rematch(self, interaction: discord.Interaction, old: GameRow) -> None:
        """The results' Rematch: a new lobby in the same channel with the same seats (those who
        still hold them, and the AI seats) and options; whoever pressed it hosts."""
        t = tr_for(interaction)
        if old.status == "active" or old.seat_of(interaction.user.id) is None and \
                not await self.access.can_manage(interaction, old):
            await reply(interaction, t("core.error.not_seated"))
            return
        settings = {k: v for k, v in (old.settings or {}).items() if k not in ("paused", "layout", "nonce")}
        settings["nonce"] = codec.new_nonce()
        me = Seat(0, interaction.user.id, interaction.user.display_name)
        others = [Seat(0, s.user_id, s.name, is_ai=s.is_ai) for s in old.seats
                  if (s.is_ai or (s.left_at is None and s.user_id is not None)) and s.user_id != interaction.user.id]
        # Only those who can still reach the channel keep their seat: asked of Discord, since
        # nobody tells the bot who left (no members intent). A look-up that fails refuses the
        # whole rematch ("try again", the router), never seats someone who may be gone.
        others = [s for s in others if s.is_ai or await self.access.member(old, s.user_id or 0) is not None]
        offered = {o.key for o in variants.lobby_options(ui_for(old.title).game)}
        try:
            game = await self.lobbies.rematch(old, host_id=interaction.user.id, host_name=interaction.user.display_name,
                                              seats=[me, *others], settings=settings,
                                              options={k: v for k, v in old.options.items() if k in offered})
        except ChannelBusy:
            await reply(interaction, t("core.error.channel_busy", title=t(f"{old.title}.name")))
            return
        await interaction.response.send_message(view=lobby_mod.lobby_message(game, Translator(game.lang)))
        message = await interaction.original_response()
        await self.lobbies.posted(game, message.id)

    async def thread(self, interaction: discord.Interaction, title: str) -> None:
        """The channel is busy: the new game opens in a fresh public thread of it."""
        t = tr_for(interaction)
        channel = interaction.channel
        if title not in uis() or channel is None or not hasattr(channel, "create_thread"):
            await say(interaction, "core.error.bad_action")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            thread = await channel.create_thread(  # type: ignore[union-attr]
                name=f"{t(f'{title}.name')} · {clean_name(interaction.user.display_name)}"[:100],
                type=discord.ChannelType.public_thread, auto_archive_duration=10080,
            )
        except discord.Forbidden:
            await reply(interaction, t("core.error.bot_permissions", perms=t("core.perm.create_public_threads")))
            return
        await self.open(interaction, title, thread)

    # -- clicks -----------------------------------------------------------------------------

    async def click(self, interaction: discord.Interaction, game: GameRow, version: int | None, verb: str,
                    values: list[str]) -> None:
        t = tr_for(interaction)
        async with self.games.lock(game.id):
            game = await self.store.get(game.id) or game
            if game.status != "lobby":
                await reply(interaction, t("core.lobby.closed"))
                return
            if version is not None and version != lobby_mod.lobby_version(game):
                await reply(interaction, t("core.lobby.stale"))
                await self.edit(interaction, game)
                return
            user = interaction.user
            is_host = user.id == game.host_id
            g = ui_for(game.title).game
            seats = list(game.seats)
            mine = next((s for s in seats if s.user_id == user.id), None)
            if verb.split(":")[0] in HOST_ONLY and not is_host:
                await reply(interaction, t("core.error.host_only"))
                return
            if verb == "cancel" and not await self.access.can_manage(interaction, game):
                await reply(interaction, t("core.error.host_only"))
                return
            if verb == "join":
                if mine is not None:
                    await reply(interaction, t("core.lobby.already"))
                    return
                if len(seats) >= g.max_players:
                    await reply(interaction, t("core.lobby.full", hi=g.max_players))
                    return
                seats.append(Seat(len(seats), user.id, user.display_name))
            elif verb == "leave":
                if mine is None:
                    await reply(interaction, t("core.lobby.not_in"))
                    return
                seats.remove(mine)
                if mine.user_id == game.host_id:
                    heir = next((s for s in seats if not s.is_ai), None)
                    if heir is None:
                        await self.lobbies.cancel(game)
                        game.status = "cancelled"
                        await self.edit(interaction, game)
                        return
                    game.host_id = heir.user_id or game.host_id
                    await self.lobbies.set_host(game, game.host_id)
            elif verb == "addai":
                if len(seats) >= g.max_players:
                    await reply(interaction, t("core.lobby.full", hi=g.max_players))
                    return
                seats.append(Seat(len(seats), None, lobby_mod.ai_name(seats), is_ai=True))
            elif verb.split(":")[0] == "rmai":
                which = verb.partition(":")[2]
                ai = [s for s in seats if s.is_ai and (not which or str(s.seat) == which)]
                if not ai:
                    await reply(interaction, t("core.lobby.no_ai"))
                    return
                seats.remove(ai[-1])
            elif verb == "opts":
                await interaction.response.send_modal(lobby_mod.options_form(game, t))
                return
            elif verb == "form":
                await self.options(interaction, game, form_values(interaction), t)
                return
            elif verb == "level":
                await self.level(interaction, game, values, t)
                return
            elif verb == "cancel":
                await self.lobbies.cancel(game)
                game.status = "cancelled"
                await self.edit(interaction, game)
                return
            elif verb == "start":
                await self.start(interaction, game, t)
                return
            else:
                await reply(interaction, t("core.error.bad_action"))
                return
            game.seats = await self.lobbies.seat(game, seats)
            await self.edit(interaction, game)

    async def leave_by_command(self, interaction: discord.Interaction, game: GameRow) -> None:
        await self.click(interaction, game, None, "leave", [])

    async def edit(self, interaction: discord.Interaction, game: GameRow) -> None:
        """Redraw the lobby message (in place when the click came from it)."""
        view = lobby_mod.lobby_message(game, Translator(game.lang))
        if interaction.message is not None and interaction.message.id == game.lobby_message_id \
                and not interaction.response.is_done():
            await interaction.response.edit_message(view=view)
            return
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True)
        await self.redraw(game, view)

    async def redraw(self, game: GameRow, view: discord.ui.LayoutView | None = None) -> None:
        """The lobby message drawn again where it is (posted again if it was deleted)."""
        view = view or lobby_mod.lobby_message(game, Translator(game.lang))
        channel: Any = self.bot.get_channel(game.channel_id)
        if channel is None:
            return
        if game.lobby_message_id:
            try:
                await channel.get_partial_message(game.lobby_message_id).edit(view=view)
                return
            except discord.NotFound:
                pass
        msg = await channel.send(view=view)
        await self.lobbies.posted(game, msg.id)

    async def member_gone(self, guild_id: int, user_id: int) -> None:
        """The user was banned or left the server: out of every lobby of that server (the next
        person becomes host when it was theirs; a lobby left with nobody is cancelled)."""
        for game_id in await self.store.games_of_member(guild_id, user_id, "lobby"):
            async with self.games.lock(game_id):
                game = await self.store.get(game_id)
                mine = game.seat_of(user_id) if game is not None and game.status == "lobby" else None
                if game is None or mine is None:
                    continue
                seats = [s for s in game.seats if s.seat != mine]
                if user_id == game.host_id:
                    heir = next((s for s in seats if not s.is_ai and s.user_id is not None), None)
                    if heir is None:
                        await self.lobbies.cancel(game)
                        game.status = "cancelled"
                        await self.redraw(game)
                        continue
                    game.host_id = heir.user_id or game.host_id
                    await self.lobbies.set_host(game, game.host_id)
                game.seats = await self.lobbies.seat(game, seats)
                await self.redraw(game)

    async def options(self, interaction: discord.Interaction, game: GameRow, values: dict[str, Any],
                      t: Translator) -> None:
        """The host's options form, submitted: every value checked before anything is kept."""
        g = ui_for(game.title).game
        options = dict(game.options)
        offered = variants.offered(g, len(game.seats))
        chosen = values.get("variants")
        if isinstance(chosen, list):
            known = {o.key for o in offered if o.kind == "bool"}
            if not set(chosen) <= known:
                await reply(interaction, t("core.error.bad_action"))
                return
            options.update({key: key in chosen for key in known})
        for spec in (o for o in offered if o.kind == "choice"):
            given = values.get(f"opt:{spec.key}")
            if given is None:
                continue
            match = next((c for c in spec.choices if [str(c)] == given), None)
            if match is None:
                await reply(interaction, t("core.error.bad_action"))
                return
            options[spec.key] = match
        for spec in (o for o in offered if o.kind == "int"):
            given = values.get(f"opt:{spec.key}")
            if given is None:
                continue
            number = parse_amount(given, spec.lo, spec.hi) if str(given).strip() else None
            if number is None and str(given).strip():
                await reply(interaction, t("core.error.bad_option", option=t(f"{game.title}.option.{spec.key}.label")))
                return
            options[spec.key] = spec.default if number is None else number
        lang = values.get("lang")
        lang = lang[0] if isinstance(lang, list) and lang else game.lang
        settings = dict(game.settings)
        for key in ("pace", "on_deadline", "away"):
            value = values.get(key)
            if value is not None:
                if not settings_mod.validate(key, value):
                    await reply(interaction, t("core.error.bad_action"))
                    return
                settings[key] = value
        if lang not in languages():
            await reply(interaction, t("core.error.bad_action"))
            return
        game.options, game.lang, game.settings = options, lang, settings
        await self.lobbies.configure(game, options=options, lang=lang, settings=settings)
        await self.edit(interaction, game)

    async def level(self, interaction: discord.Interaction, game: GameRow, values: list[str], t: Translator) -> None:
        """The host chose the seat-filler's strength in the lobby's select."""
        value = values[0] if len(values) == 1 else None
        if not settings_mod.validate("ai_level", value):
            await reply(interaction, t("core.error.bad_action"))
            return
        game.settings = {**game.settings, "ai_level": value}
        await self.lobbies.configure(game, options=game.options, lang=game.lang, settings=game.settings)
        await self.edit(interaction, game)

    async def start(self, interaction: discord.Interaction, game: GameRow, t: Translator) -> None:
        g = ui_for(game.title).game
        n = len(game.seats)
        if not g.min_players <= n <= g.max_players:
            await reply(interaction, t("core.lobby.count", lo=g.min_players, hi=g.max_players, n=n))
            return
        if not any(not s.is_ai for s in game.seats):
            await reply(interaction, t("core.lobby.need_human"))
            return
        offered = {o.key for o in variants.offered(g, n)}
        chosen = {k: v for k, v in game.options.items() if k in offered}
        try:
            state, options = self.lobbies.setup(
                game, {**chosen, **lobby_mod.house_options(g, settings_mod.merged(game.settings))})
        except RuleError as err:
            await reply(interaction, t(error_key(game.title, err), **err.params))
            return
        await interaction.response.defer()
        started = await self.lobbies.start(game, state, options)  # lobby clicks hold the game's lock
        if started is None:
            await reply(interaction, t("core.lobby.closed"))
            return
        try:
            await interaction.edit_original_response(view=lobby_mod.lobby_message(started, Translator(started.lang)))
        except discord.HTTPException:
            pass

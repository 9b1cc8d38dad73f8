"""The bot and its composition: the Discord client (`Boardroom`), its command tree and
translator, and `create_bot` for `--local`, the tests and the tools. `setup_hook` builds the house
from its parts (constructor injection, as discord.py's `examples/advanced_startup.py` does): the
store, the clock, the game runtime (`play/`), the table keeper as the runtime's notifier, and the
router every click goes to. `bot.py` is only the command line.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from cogs.access import Access, Members
from cogs.after.looks import After
from cogs.click.panel import PanelClicks
from cogs.click.router import Router
from cogs.click.undo import UndoButton
from cogs.kit.replies import say
from cogs.kit.views import DYNAMIC_ITEMS
from cogs.lobby.flow import LobbyFlow
from cogs.manage.settings_menu import Admin
from cogs.table.digest import Digest
from cogs.table.keeper import TableKeeper
from cogs.table.pause import Pauser
from cogs.titles.contract import uis
from config import Config
from locales import catalogue, language_of
from play.house import House
from play.runtime import Parts, Runtime
from render.pool import Pictures
from service import build, metrics
from service.endpoint import Endpoint
from service.stop import InFlight, graceful_stop, track
from store import Shards, Store, StoreUnavailable, open_store

log = logging.getLogger("boardroom")

EXTENSIONS = ("cogs.game", "cogs.admin")


def intents() -> discord.Intents:
    """Only the gateway events the code listens to (cogs/game.py, service/endpoint.py): every
    other flag of `Intents.default()` (typing, reactions, voice states, presences of scheduled
    events, polls, invites, emojis, webhooks, integrations, DMs...) is traffic for nothing.
    Interactions (commands, clicks, forms) need no intent. READY, RESUMED and disconnects come
    whatever the intents."""
    wanted = discord.Intents.none()
    # Guilds, channels, threads and roles: the cache the bot reads (channels, permissions) and
    # on_guild_join/remove, on_guild_channel_update/delete, on_raw_thread_update/delete,
    # on_guild_role_update (games pause when the bot loses a channel).
    wanted.guilds = True
    # Messages in guild channels (without their content, which is privileged): on_message counts
    # how far the table drifted up; on_raw_message_delete puts a deleted table back.
    wanted.guild_messages = True
    # Bans: on_member_ban takes a banned member out of their games at once.
    wanted.moderation = True
    return wanted


def use_api(base: str | None) -> None:
    """Send every REST call (webhook-style interaction follow-ups included) to `base` instead of
    Discord: discord.py builds every request's URL from `discord.http.Route.BASE`, a public
    class attribute, process-wide. None leaves Discord's own."""
    if base is not None:
        Route.BASE = base


def discord_clock() -> float:
    """The bot's wall clock: Discord's, which the test harness (SimCord) drives virtually."""
    return discord.utils.utcnow().timestamp()


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and choices in the user's Discord language, from the same
    catalogue as every other string (`locale_str(..., key="core.cmd...")`)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        key = string.extras.get("key")
        lang = language_of(locale)
        if not key or lang == "en":
            return None
        value = catalogue(lang).get(key)
        return value if isinstance(value, str) and value else None


class BoardroomTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # Runs in the command's own task, before every slash command: the stop waits for it and
        # its answer time is measured (clicks and forms are tracked by the game cog's router).
        track(interaction, "command")
        return True


class Boardroom(commands.AutoShardedBot):
    """Sharded from the start: one process runs `config.shard_ids` of `config.shard_count` shards
    (all of Discord's recommended count when unset); several processes on one PostgreSQL split
    them, and each keeps the games of its guilds (docs/SCALING.md)."""

    def __init__(self, config: Config, *, force_sync: bool = False, store: Store | None = None,
                 extensions: tuple[str, ...] = ()) -> None:
        use_api(config.discord_api)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(), help_command=None,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
                         tree_cls=BoardroomTree, http_trace=metrics.http_trace(),
                         shard_count=config.shard_count,
                         shard_ids=list(config.shard_ids) if config.shard_ids is not None else None)
        self.config = config
        self.force_sync = force_sync
        self.store = store
        self.cog_modules = EXTENSIONS + extensions  # `--local` adds its own `/local` commands
        #: The parts `compose` builds at start-up (the extensions take theirs from here).
        self.house: House | None = None
        self.keeper: TableKeeper | None = None
        self.router: Router | None = None
        self.inflight = InFlight()
        self.endpoint: Endpoint | None = None
        #: Where pictures are drawn (worker processes, started on the first picture).
        self.pictures = Pictures(config.render_processes)
        self._stopping: asyncio.Future | None = None

    async def setup_hook(self) -> None:
        if self.store is None:
            self.store = await open_store(self.config.database)
        self.compose(self.store)
        await self.tree.set_translator(CatalogueTranslator())
        self.tree.on_error = self.on_command_error
        for ext in self.cog_modules:
            await self.load_extension(ext)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.sync_commands()
        self.house.start()
        if self.config.metrics_port:
            self.endpoint = await Endpoint.start(self, self.config.metrics_host, self.config.metrics_port)

    def compose(self, store: Store) -> None:
        """The house from its parts, each given what it uses (the extensions take theirs from
        here): the runtime's lower floor, the table keeper on it as the runtime's notifier, the
        runtime's upper floor (play/runtime.py), then the Discord side's clicks and events."""
        parts = Parts.build(store, shards=shares(self.config), clock=discord_clock)
        metrics.known(tuple(uis()))  # every title's counters start at 0
        members = Members(self, parts.games)  # who can reach a game: the keeper's DMs and digests, Access
        keeper = TableKeeper(self, parts, members)
        runtime = Runtime.build(parts, keeper, self.wait_until_ready)
        house = runtime.house
        access = Access(self, store, parts.games, runtime.seats, members)
        admin = Admin(self, store, house, runtime.seats, keeper, access)
        lobby = LobbyFlow(self, store, parts.games, runtime.lobbies, access)
        self.house, self.keeper, self.lobbies, self.access = house, keeper, runtime.lobbies, access
        self.pauser = Pauser(self, store, parts.pauses, keeper)
        self.digest = Digest(self, store, parts.planner, parts.clock, members)
        self.after = After(self, store, keeper.replays)
        self.router = Router(store, parts.games, keeper, access, lobby, admin, PanelClicks(house, keeper.panels),
                             UndoButton(house, keeper.panels), self.after)

    async def on_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """A slash command that failed answers politely, as clicks do; the trace goes to the log."""
        if isinstance(error, app_commands.NoPrivateMessage):
            key = "core.error.guild_only"
        elif isinstance(error, (app_commands.MissingPermissions, app_commands.CheckFailure)):
            key = "core.error.not_allowed"
        elif isinstance(getattr(error, "original", None), StoreUnavailable):
            key = "core.error.store_unavailable"  # the database refuses for now; the store logged it once
        else:
            log.error("command /%s failed", interaction.command.qualified_name if interaction.command else "?",
                      exc_info=error)
            key = "core.error.command"
        try:
            await say(interaction, key)
        except discord.HTTPException:
            pass

    async def command_fingerprint(self) -> str:
        translator = self.tree.translator
        payload = [await cmd.get_translated_payload(self.tree, translator) for cmd in self.tree.get_commands()]  # type: ignore[arg-type]
        return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    async def sync_commands(self) -> bool:
        """Register the commands with Discord only when they changed since the last
        registration (or when forced): registration is rate-limited and slow to spread."""
        assert self.store is not None
        guild = discord.Object(id=self.config.dev_guild) if self.config.dev_guild else None
        scope = f"commands:{guild.id if guild else 'global'}"
        fingerprint = await self.command_fingerprint()
        if not self.force_sync and await self.store.meta(scope) == fingerprint:
            log.info("slash commands unchanged; not registering")
            return False
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await self.store.set_meta(scope, fingerprint)
        log.info("slash commands registered (%s)", scope)
        return True

    @property
    def stopping(self) -> bool:
        """True from the moment the stop began (a signal, or `close()`)."""
        return self._stopping is not None

    async def close(self) -> None:
        """The graceful stop (service/stop.py), then the gateway, the HTTP session and the
        store. A second call waits for the first."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        try:
            await graceful_stop(self)
        finally:
            if self.endpoint is not None:
                await self.endpoint.stop()
            await self.pictures.close()
            await super().close()
            if self.store is not None:
                await self.store.close()
                self.store = None
            log.info("stopped")


def startup_line(config: Config, store: Store) -> str:
    """The line an operator reads first in the log: what runs, on what, how."""
    before, after = store.schema
    schema = f"schema {after} (up to date)" if before == after else f"schema {before} -> {after}"
    if config.shard_count is None:
        shards = "shards: Discord's recommended count, all in this process"
    elif config.shard_ids is None:
        shards = f"shards: all {config.shard_count} in this process"
    else:
        shards = f"shards: {','.join(map(str, config.shard_ids))} of {config.shard_count}"
    workers = (f"{config.render_processes} picture worker processes" if config.render_processes
               else "pictures drawn in threads")
    api = f", Discord API via {config.discord_api}" if config.discord_api else ""
    return (f"Boardroom {build.version()} (revision {build.revision()}) starting: {store.backend} database "
            f"{store.where}, {schema}, {shards}, {workers}{api}")


def shares(config: Config) -> Shards | None:
    """The games this process keeps (their timers, cache, table updates): None when it runs
    every shard, as a lone process does."""
    if config.shard_count is None or config.shard_ids is None or len(config.shard_ids) == config.shard_count:
        return None
    return Shards(config.shard_count, tuple(config.shard_ids))


def create_bot(database: str | Path, *, dev_guild: int | None = None, force_sync: bool = False,
               metrics_port: int | None = None, shard_count: int = 1, shard_ids: tuple[int, ...] | None = None,
               render_processes: int = 0, store: Store | None = None,
               extensions: tuple[str, ...] = ()) -> Boardroom:
    """A bot ready to start (used by `--local`, the tests and tools); `database` is an SQLite file
    path or a postgresql:// URL (`store`, when given, is that database already open). One shard
    unless told: SimCord needs the count up front."""
    config = Config(token=None, database=str(database), dev_guild=dev_guild, log_level="INFO",
                    metrics_port=metrics_port, shard_count=shard_count, shard_ids=shard_ids,
                    render_processes=render_processes)
    return Boardroom(config, force_sync=force_sync, store=store, extensions=extensions)

"""Boardroom: start-up. Reads the configuration, opens the database (migrations run here, before
Discord is contacted: a database the bot cannot use stops it at once with one line), loads the
cogs, registers the slash commands with Discord only when they changed, and runs the client.

    python bot.py            run (the token comes from DISCORD_TOKEN or a .env file)
    python bot.py --sync     also re-register the slash commands even if they did not change
    python bot.py --local    no Discord, no token: the same bot and cogs against a local stand-in,
                             played in a browser on 127.0.0.1 (local/; --db FILE, --port N)

SIGTERM and SIGINT stop it gracefully (service/stop.py) and it exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import sys
from pathlib import Path

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from config import NO_TOKEN, Config, ConfigError
from locales import catalogue, language_of
from render.pool import Pictures
from service import metrics
from service.endpoint import Endpoint, EndpointError
from service.stop import InFlight, graceful_stop, stop_on_signals, track
from store import Shards, StartupError, Store, StoreUnavailable

log = logging.getLogger("boardroom")

EXTENSIONS = ("cogs.game", "cogs.admin")


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
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
                         tree_cls=BoardroomTree, http_trace=metrics.http_trace(),
                         shard_count=config.shard_count,
                         shard_ids=list(config.shard_ids) if config.shard_ids is not None else None)
        self.config = config
        self.force_sync = force_sync
        self.store = store
        self.cog_modules = EXTENSIONS + extensions  # `--local` adds its own `/local` commands
        self.house = None
        self.inflight = InFlight()
        self.endpoint: Endpoint | None = None
        #: Where pictures are drawn (worker processes, started on the first picture).
        self.pictures = Pictures(config.render_processes)
        self._stopping: asyncio.Future | None = None

    async def setup_hook(self) -> None:
        from cogs.shared.house import House
        from cogs.shared.views import DYNAMIC_ITEMS

        if self.store is None:
            self.store = await Store.open(self.config.database)
        self.house = House(self, self.store)
        self.house.shards = shares(self.config)
        await self.tree.set_translator(CatalogueTranslator())
        self.tree.on_error = self.on_command_error
        for ext in self.cog_modules:
            await self.load_extension(ext)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.sync_commands()
        self.house.start_scheduler()
        if self.config.metrics_port:
            self.endpoint = await Endpoint.start(self, self.config.metrics_host, self.config.metrics_port)

    async def on_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """A slash command that failed answers politely, as clicks do; the trace goes to the log."""
        from cogs.shared.replies import say

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the Boardroom Discord bot.")
    parser.add_argument("--sync", action="store_true", help="register the slash commands even if unchanged")
    parser.add_argument("--local", action="store_true",
                        help="no Discord: play every game in a browser on 127.0.0.1 (a local stand-in for Discord)")
    parser.add_argument("--db", metavar="FILE", help=f"with --local: the SQLite file games are kept in "
                                                     f"(default {LOCAL_DB} in the working directory)")
    parser.add_argument("--port", type=int, metavar="N", help=f"with --local: the page's port on 127.0.0.1 "
                                                              f"(default {LOCAL_PORT}; 0 picks a free one)")
    args = parser.parse_args(argv)
    if (args.db is not None or args.port is not None) and not args.local:
        parser.error("--db and --port go with --local (the bot on Discord reads BOARDROOM_DB)")
    if args.local:
        return local_main(args.db or LOCAL_DB, LOCAL_PORT if args.port is None else args.port)
    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"Boardroom cannot start: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    quiet_voice_warning()
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        if sys.stdin.isatty() and sys.stdout.isatty() and _yes("Start the local version now? [Y/n] "):
            return local_main(LOCAL_DB, LOCAL_PORT)
        return 2
    try:
        asyncio.run(_run(config, config.token, force_sync=args.sync))
    except EndpointError as error:
        print(f"Boardroom cannot start: {error}", file=sys.stderr)
        return 2
    except StartupError as error:
        # A database the bot cannot use (not a database, written by a newer version, a failed
        # migration, another bot on the same file): one line, nothing changed, no traceback.
        print(f"Boardroom cannot start: {error}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN: it is wrong or was reset. Copy a fresh one from the "
              "developer portal (Bot page, Reset Token).", file=sys.stderr)
        return 2
    except (aiohttp.ClientConnectionError, OSError) as error:
        # No network, DNS failure, firewall: say so in one line instead of a traceback.
        print(f"Cannot reach Discord ({error.__class__.__name__}: {error}). Check the network connection and "
              "try again; games are safe in the database.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


LOCAL_DB = "boardroom-local.db"
LOCAL_PORT = 8765


def local_main(database: str, port: int) -> int:
    """`--local` (local/run.py): imported only here, so the bot on Discord never loads SimCord."""
    logging.basicConfig(level="WARNING", format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    quiet_voice_warning()
    # SimCord builds connection states of its own without intents (the bot's have the guilds
    # intent): their warning says nothing about the bot.
    logging.getLogger("discord.state").addFilter(lambda record: "Guilds intent seems" not in record.getMessage())
    path = Path(database).expanduser()
    if path.is_dir() or not path.resolve().parent.is_dir():
        print(f"Boardroom cannot start: --db {database!r} must name a file in a folder that exists.", file=sys.stderr)
        return 2
    try:
        from local.run import main as serve_locally
    except ImportError as error:
        print(f"`--local` needs SimCord and its page ({error.name} is missing): pip install -r requirements.txt "
              f"(requirements-runtime.txt is only what the bot on Discord needs).", file=sys.stderr)
        return 2
    try:
        return serve_locally(str(path), port)
    except StartupError as error:
        print(f"Boardroom cannot start: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"Boardroom cannot start: {error}", file=sys.stderr)
        return 1


def quiet_voice_warning() -> None:
    """A board-game bot never joins voice: discord.py's warning about voice support only confuses admins."""
    logging.getLogger("discord.client").addFilter(lambda record: "voice will NOT be supported" not in record.getMessage())


def _yes(question: str) -> bool:
    try:
        return input(question).strip().lower() in ("", "y", "yes")
    except EOFError:
        return False


async def _run(config: Config, token: str, *, force_sync: bool = False) -> None:
    store = await Store.open(config.database)  # before Discord: a bad database stops us here
    bot = Boardroom(config, force_sync=force_sync, store=store)
    stop_on_signals(bot)
    try:
        async with bot:
            await bot.start(token)
    finally:
        if bot.store is not None:  # closed by bot.close() unless the start failed before it
            await bot.store.close()


if __name__ == "__main__":
    sys.exit(main())

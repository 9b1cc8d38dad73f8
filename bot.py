"""Boardroom's command line. Reads the configuration, opens the database (migrations run here,
before Discord is contacted: a database the bot cannot use stops it at once with one line) and
runs the bot (`app.py` builds it), or hands `--local` to local/.

    python bot.py            run (the token comes from DISCORD_TOKEN or a .env file)
    python bot.py --sync     also re-register the slash commands even if they did not change
    python bot.py --new-database
                             start with an empty database although the SQLite file that held
                             games is missing (otherwise that stops the start: store/sqlite/marker.py)
    python bot.py --local    no Discord, no token: the same bot and cogs against a local stand-in,
                             played in a browser on 127.0.0.1 (local/; --db FILE, --port N)

SIGTERM and SIGINT stop it gracefully (service/stop.py) and it exits 0.
"""

from __future__ import annotations

import os
import signal


def _stopped_while_starting(signum: int, frame: object) -> None:
    # The process ends here, not by an exception: a SystemExit raised in a signal handler lands in
    # whatever code runs at that moment, and in a weakref callback of the import machinery Python
    # prints "Exception ignored" and goes on (CI: the start then hung on a silent database).
    # Before the event loop runs nothing is open or written, so there is nothing to clean up.
    os.write(2, b"Boardroom stopped during start-up (signal); nothing was changed.\n")
    os._exit(0)


if __name__ == "__main__":
    # First thing, before the imports below (a second or more on a cold start): as PID 1 of a
    # container without an init, a signal with no handler is ignored, and `docker stop` would
    # wait for its SIGKILL. `_stop_starting` takes over once the event loop runs.
    signal.signal(signal.SIGTERM, _stopped_while_starting)

import argparse  # noqa: E402  (after the handler above, on purpose)
import asyncio  # noqa: E402
import logging  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import aiohttp  # noqa: E402
import discord  # noqa: E402

from app import Boardroom, startup_line  # noqa: E402
from config import NO_TOKEN, Config, ConfigError  # noqa: E402
from local import DEFAULT_DB, DEFAULT_PORT  # noqa: E402
from service.endpoint import EndpointError  # noqa: E402
from service import collector  # noqa: E402
from service.stop import stop_on_signals  # noqa: E402
from store import StartupError, open_store  # noqa: E402

log = logging.getLogger("boardroom")

#: `--local`'s defaults (from local/'s face, which does not import SimCord).
LOCAL_DB, LOCAL_PORT = DEFAULT_DB, DEFAULT_PORT


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the Boardroom Discord bot.")
    parser.add_argument("--sync", action="store_true", help="register the slash commands even if unchanged")
    parser.add_argument("--new-database", action="store_true",
                        help="start an empty database although the SQLite file that held games is missing")
    parser.add_argument("--local", action="store_true",
                        help="no Discord: play every game in a browser on 127.0.0.1 (a local stand-in for Discord)")
    parser.add_argument("--db", metavar="FILE", help=f"with --local: the SQLite file games are kept in "
                                                     f"(default {LOCAL_DB} in the working directory)")
    parser.add_argument("--port", type=int, metavar="N", help=f"with --local: the page's port on 127.0.0.1 "
                                                              f"(default {LOCAL_PORT}; 0 picks a free one)")
    args = parser.parse_args(argv)
    collector.tune()  # the process keeps every running game in memory (service/collector.py)
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
        asyncio.run(_run(config, config.token, force_sync=args.sync, new_database=args.new_database))
    except asyncio.CancelledError:  # a signal during start-up (`_stop_starting`)
        print("Boardroom stopped during start-up (signal); nothing was changed.", file=sys.stderr)
        return 0
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


def local_main(database: str, port: int) -> int:
    """`--local` (local/run.py): imported only here, so the bot on Discord never loads SimCord."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the start-up's handler is not the local page's
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


def _stop_starting() -> None:
    """Until the bot's own graceful stop is in place, SIGTERM or SIGINT end the start at once
    (a hung PostgreSQL, a slow migration): as PID 1 in a container without an init, a signal
    with no handler would be ignored and `docker stop` would wait for its SIGKILL."""
    loop = asyncio.get_running_loop()
    starting = asyncio.current_task()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, starting.cancel)  # type: ignore[union-attr]
        except (NotImplementedError, RuntimeError):
            return


async def _run(config: Config, token: str, *, force_sync: bool = False, new_database: bool = False) -> None:
    _stop_starting()
    store = await open_store(config.database, new_database=new_database)  # before Discord: a bad database stops here
    log.info("%s", startup_line(config, store))
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

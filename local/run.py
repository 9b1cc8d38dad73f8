"""Run the real bot against SimCord and serve the page: `python bot.py --local`.

The bot is bot.py's own `Boardroom`, with its cogs and a store in a local SQLite file (`--db`);
SimCord plays Discord (its REST API, gateway and interactions), and SimCord's preview serves the
channel on 127.0.0.1 in a page that looks and reads like Discord: messages, embeds, Components V2,
buttons, selects, forms, ephemeral replies, the command box, pictures. "Viewing as" switches the
member one acts as (hot-seat); a second tab can open as another member.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import simcord

from local import DEFAULT_PORT
from local.clock import LocalClock
from local.page import install, page_key
from local.world import LOCALES, MEMBERS, World, build_world

log = logging.getLogger("boardroom.local")

BOT_NAME = "Boardroom"
LANGUAGE_KEY = "local.language.{}"
#: SimCord's deadline (seconds of wall time) for the bot to finish what a click or a tick set
#: off. SimCord also fires the bot's timers as wall time passes while it waits, so a game whose
#: AI seats keep moving (E-Wars' dice time) never "finishes": past this the click is answered
#: and the rest goes on at the next ticks.
SETTLE_TIMEOUT = 20.0


class Session:
    """What the `/local` commands and the page share while the local bot runs."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.env: simcord.Env | None = None
        self.world: World | None = None
        self.clock: LocalClock | None = None
        self.preview: Any = None

    @property
    def url(self) -> str:
        return self.preview.url

    async def set_language(self, user_id: int, language: str) -> None:
        assert self.world is not None and language in LOCALES
        self.world.set_language(user_id, language)
        await self.store.set_meta(LANGUAGE_KEY.format(user_id), language)

    async def load_languages(self) -> None:
        assert self.world is not None
        for member in self.world.viewers:
            language = await self.store.meta(LANGUAGE_KEY.format(member.id))
            if language in LOCALES:
                self.world.set_language(member.id, language)


async def serve(database: str | Path, *, port: int = DEFAULT_PORT, members: tuple[str, ...] = MEMBERS,
                ready: Callable[[Session], None] | None = None, stop: asyncio.Event | None = None) -> None:
    """Run until `stop` is set (SIGINT/SIGTERM set it when run from `main`) or the page's
    "End preview session" is pressed. `ready` receives the session once the page is served
    (`session.url` is its address)."""
    from app import create_bot
    from store import open_store

    store = await open_store(str(database))  # a database the bot cannot use stops us here
    # Force the registration: SimCord's Discord is new each run, whatever the database remembers.
    bot = create_bot(database, force_sync=True, store=store, extensions=("local.cog",))
    session = bot.local = Session(store)  # read by local.cog's setup, in the bot's setup_hook
    stop = stop or asyncio.Event()
    # What `simcord.run` does, with the bot's user named before it logs in (SimCord calls every
    # bot "TestBot").
    env = simcord.Env(bot, check_errors=False, settle_timeout=SETTLE_TIMEOUT)
    env.backend.bot_user.name = BOT_NAME
    try:
        await env.start()
        try:
            with env.time_context():
                session.env, session.clock = env, LocalClock(env, store)
                await _play(env, bot, session, page_key(database), port, members, ready, stop)
        finally:
            await env.shutdown()
    finally:
        await _close(bot)


async def _play(env, bot, session: Session, key: str, port: int, members, ready, stop: asyncio.Event) -> None:
    session.world = build_world(env, members)
    try:
        await _serve_page(env, bot, session, key, port, ready, stop)
    finally:
        session.world.release()


async def _serve_page(env, bot, session: Session, key: str, port: int, ready, stop: asyncio.Event) -> None:
    await session.load_languages()
    await env.settle()
    await session.clock.start()
    await _show_tables(bot)
    world = session.world
    preview = env.preview(world.channel, viewers=world.viewers, layout="channel", width=1100, height=800, port=port)
    # SimCord's page with Boardroom's fixes, under the key kept beside the database (local/page).
    install(preview, port=port, key=key, now=session.clock.now)
    async with preview:
        session.preview = preview
        session.clock.attach(preview)
        await preview.refresh()
        if ready is not None:
            ready(session)
        ticking = asyncio.create_task(session.clock.run(), name="local-clock")
        ended = asyncio.create_task(preview.wait_closed())
        stopped = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait({ended, stopped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (ticking, ended, stopped):
                task.cancel()
            await asyncio.gather(ticking, ended, stopped, return_exceptions=True)
            async with session.clock.lock:
                await session.clock.save()


async def _show_tables(bot) -> None:
    """The channel is new each run, so the tables of the games that survived in the database
    are posted again (the table keeper would otherwise wait for the next move)."""
    for game_id, _ in await bot.store.active_games():
        bot.keeper.refresh(game_id, repost=True)
    await bot.keeper.idle()


async def _close(bot) -> None:
    """SimCord detaches the bot without closing it: stop its timers, then its store."""
    if bot.house is not None:
        await bot.house.stop()
        await bot.keeper.stop()
    if bot.store is not None:
        await bot.store.close()
        bot.store = None


def main(database: str | Path, port: int) -> int:
    """Serve until Ctrl+C; 0 when stopped, as the real bot."""
    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C raises instead
                loop.add_signal_handler(sig, stop.set)

        def ready(session: Session) -> None:
            print(f"\nBoardroom is running locally (no Discord, no network). Open this address in your browser:\n\n"
                  f"    {session.url}\n\nThe part after # is the key to the page: keep it to yourself. Games are kept "
                  f"in {database}.\nStop with Ctrl+C.\n", flush=True)

        await serve(database, port=port, ready=ready, stop=stop)

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except simcord.SetupError as error:  # the port is taken, or SimCord's page is missing a package
        hint = " Choose another port with --port N." if "port" in str(error) else ""
        print(f"Boardroom cannot start the local page: {error}{hint}", file=sys.stderr)
        return 1
    return 0

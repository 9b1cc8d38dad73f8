"""The real bot against SimCord in a process of its own, with the signal handlers `python bot.py`
installs (`service.stop.stop_on_signals`); people click through games without pause until a
signal stops the bot. `test_stop.py` sends SIGTERM or SIGINT and checks the process exits 0 with
nothing lost.

    python -m tests.service.stop_driver DB GAMES [--self SIGNAL] [--discord-down]

With `--self`, the driver sends the signal to itself while the fourth burst of clicks is being
handled (so the stop certainly finds interactions in flight). With `--discord-down`, Discord
refuses every channel message and edit from the second burst on (a 500): clicks are still
answered, but table updates wait for a retry, which the stop leaves to the restart's catch-up.

Output, one line each, flushed at once:
    ready                        the games run; the signal may come
    clicks <delivered>           after each burst, the clicks delivered so far
    stopped                      bot.close() returned
    unanswered <n>               clicks that got no answer at all
Log lines (stderr) say what the stop found and did.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

import simcord

from app import create_bot
from cogs.table import keeper as table_mod
from cogs.titles.contract import ui_for
from service.stop import stop_on_signals
from store import Store, open_store
from tests.support.bot_games import Click, at_once, start_game
from tests.support import toy
from tests.support.sim import Sim, button, clickable, panel_of, reply_text


def say(*words: object) -> None:
    sys.stdout.write(" ".join(str(w) for w in words) + "\n")
    sys.stdout.flush()


async def burst(sim: Sim, reader: Store, tables: list[tuple[object, list]], results: list,
                kill: int | None = None) -> None:
    """Every game's player to move opens My hand, all at once; then each clicks the first move
    of their panel (Take 1 or OK), all at once. Who is to move is read through the driver's own
    store (`reader`), as people read the table: the bot's store closes when it stops, and a
    signal arriving during a read of it failed a run on "the database is closed". With `kill`,
    that signal comes while the moves are being handled."""
    opens = []
    for channel, people in tables:
        if sim.bot.stopping:
            return
        game = await reader.live_in(channel.id)
        if game is None or game.status != "active":
            continue
        table = next((m for m in channel.history() if m.id == game.table_message_id), None)
        for seat in ui_for("toy").game.to_act(game.state)[:1] if table is not None else ():
            opens.append(Click(people[seat], table, button(table, code_suffix=":Hhand")))
    if sim.bot.stopping or not opens:
        return
    answered = await at_once(sim, opens)
    results.extend(answered)
    moves = []
    for click, result in zip(opens, answered):
        if not result.followups and result.response is None:
            continue
        panel = panel_of(result)
        choice = next((c.custom_id for c in clickable(panel) if getattr(c, "label", None) in ("Take 1", "OK")), None)
        if choice is not None:
            moves.append(Click(click.member, panel, choice))
    if sim.bot.stopping or not moves:
        return
    if kill is not None:
        # Runs at the loop's next turn: after the clicks below are delivered (at_once hands them
        # to the bot before it first waits), as their handlers begin.
        asyncio.get_running_loop().call_soon(os.kill, os.getpid(), kill)
    results.extend(await at_once(sim, moves))


async def main(db: Path, games: int, self_signal: str | None, discord_down: bool = False) -> None:
    toy.install()
    bot = create_bot(db)
    env = simcord.Env(bot)
    await env.start()
    with env.time_context():
        stop_on_signals(bot)  # exactly what `python bot.py` installs
        sim = Sim(env, db)
        tables = []
        for g in range(games):
            channel = sim.guild.create_text_channel(f"table-{g}")
            people = [sim.player(f"p{g}-{i}") for i in range(3)]
            await start_game(sim, people[0], "toy", others=tuple(people[1:]), channel=channel,
                             settings={"ai_delay": 10, "reminder": 0})
            tables.append((channel, people))
        say("ready")
        reader = await open_store(db)
        results: list = []
        rounds = 0
        while not bot.stopping:
            if discord_down and rounds == 1:
                # The retries then wait beyond this run (on the virtual clock, as in test_faults).
                table_mod.RETRY_FIRST = 30.0
                env.inject_error("*", "/channels/*/messages*", status=500, times=None)
            kill = getattr(signal, self_signal) if self_signal and rounds == 3 else None
            await burst(sim, reader, tables, results, kill)
            rounds += 1
            say("clicks", len(results))
            if rounds > 2000:
                raise SystemExit("no signal came")
        await bot.close()  # the stop the signal began: wait until it is done
        await reader.close()
        say("stopped")
        say("unanswered", sum(1 for r in results if not r.acknowledged or not reply_text(r)))
    await env.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("db", type=Path)
    parser.add_argument("games", type=int)
    parser.add_argument("--self", dest="self_signal", choices=("SIGTERM", "SIGINT"))
    parser.add_argument("--discord-down", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(relativeCreated)7.0fms %(levelname)s %(name)s: %(message)s")
    logging.getLogger("service").setLevel(logging.INFO)
    logging.getLogger("boardroom").setLevel(logging.INFO)
    asyncio.run(main(args.db, args.games, args.self_signal, args.discord_down))

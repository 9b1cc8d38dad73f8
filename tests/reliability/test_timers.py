"""Timers decide on the database, never on a cached copy, and say what they did only once it is
committed (SimCord, virtual time, both backends).

- A process whose cached copy of a game is stale (another process moved it) fires the game's new
  deadline on the game as it is in the database: it used to judge the stale copy, find the
  window gone and delete the live deadline, and the game never moved again.
- A claim of a process that died is taken over once its lease runs out: the deadline fires once.
- While the database refuses writes (for real: the SQLite file deleted, the PostgreSQL database
  made read-only), players who click are told so, the log says it once, the timer loop backs off
  with growing delays, and when writes work again the deadline is played and announced once.
- A deadline or reminder whose write is refused is announced only when it finally commits.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path

import pytest

from cogs.kit.clock import now
from play.timer_loop import OUTAGE_FIRST, OUTAGE_MAX
from cogs.titles.contract import ui_for
from engine.core import copy_json
from tests.support.bot_games import first_deadline, log_problems, start_game, timer_problems
from tests.support import postgres
from tests.support.sim import button, channel_text, reply_text
from play.plan import plan_timers

pytestmark = pytest.mark.both_backends

SETTINGS = {"ai_delay": 10, "on_deadline": "skip", "reminder": 0, "pace": "live"}


def _count(text: str, needle: str) -> int:
    return text.count(needle)


async def test_a_stale_cached_copy_never_deletes_a_live_deadline(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    game = await start_game(sim, ann, "toy", others=[bob], settings=SETTINGS)
    assert (await sim.house.games.game(game.id)).version == 0  # cached by this process
    # The timer loop sleeps until the turn's deadline (nobody tells it of another process's move).
    wakes = min(x.due_at for x in await sim.store.timers(game.id))
    # Another process moves the game: its move is committed to the database with the timers it
    # plans (a nod window and its deadline), and this process's cached copy stays at version 0.
    g = ui_for("toy").game
    state = copy_json(game.state)
    seat = g.to_act(state)[0]
    action = {"type": "take", "n": 1}
    events = g.apply(state, seat, action)
    t = now()
    assert await sim.store.commit_action(game.id, expected_version=0, seat=seat, user_id=None, action=action,
                                         events=events, state=state, now=t,
                                         timers=plan_timers(game, state, [], t))
    assert (await sim.house.games.game(game.id)).version == 0
    deadline, end, window = await first_deadline(sim.store, game.id)
    assert deadline.ref.startswith("nod:") and deadline.version == 1 and end < wakes
    await sim.advance(wakes - now() + 1)
    game = await sim.store.get(game.id)
    actions = await sim.store.actions(game.id)
    assert game.version == 2 and actions[-1]["action"] == {"type": "timeout", "id": window}, (
        game.version, await sim.store.timers(game.id))
    assert await timer_problems(sim.store, game.id) == []
    assert await log_problems(sim.store, game.id) == []


async def test_a_dead_owners_claim_is_taken_over_after_its_lease(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    game = await start_game(sim, ann, "toy", others=[bob], settings=SETTINGS)
    deadline, end, window = await first_deadline(sim.store, game.id)
    await sim.house.stop()  # this process is down while the deadline passes...
    await sim.advance(end - now() + 1)
    # ...and another one claimed it, then died before firing it.
    (claimed,) = await sim.store.claim_timers(now(), owner="dead-process", lease=120)
    assert claimed.id == deadline.id
    await sim.restart()
    await sim.advance(100)
    assert (await sim.store.get(game.id)).version == 0  # still the dead process's
    await sim.advance(30)
    game = await sim.store.get(game.id)
    assert game.version == 1 and (await sim.store.actions(game.id))[-1]["action"]["type"] == "timeout"
    assert _count(channel_text(sim), "Deadline passed") == 1


async def _refuse_writes(sim) -> None:
    """Make the bot's database refuse writes for real: the SQLite file deleted under the bot
    (kept aside, to be put back), or PostgreSQL's server made read-only (existing sessions too,
    at their next transaction; the test runs alone on the session's server)."""
    if sim.database.startswith("postgresql://"):
        await postgres.admin("ALTER SYSTEM SET default_transaction_read_only = on", "SELECT pg_reload_conf()")
        await asyncio.to_thread(time.sleep, 0.3)  # every backend takes the new default in
    else:
        path = Path(sim.database)
        os.link(path, path.with_name(path.name + ".kept"))
        os.unlink(path)


async def _allow_writes(sim) -> None:
    if sim.database.startswith("postgresql://"):
        await postgres.admin("ALTER SYSTEM RESET default_transaction_read_only", "SELECT pg_reload_conf()")
        await asyncio.to_thread(time.sleep, 0.3)
    else:
        path = Path(sim.database)
        kept = path.with_name(path.name + ".kept")
        os.link(kept, path)
        os.unlink(kept)


async def test_a_database_refusing_writes_is_said_once_backed_off_and_never_double_announced(sim, caplog):
    caplog.set_level(logging.INFO)
    ann, bob = sim.player("ann"), sim.player("bob")
    members = [ann, bob]
    game = await start_game(sim, ann, "toy", others=[bob], settings=SETTINGS)
    deadline, end, window = await first_deadline(sim.store, game.id)
    seat = ui_for("toy").game.to_act(game.state)[0]
    panel = await sim.hand(members[seat])
    attempts: list[float] = []
    real_claim = sim.store.claim_timers

    async def claim(*args, **kwargs):
        attempts.append(now())
        return await real_claim(*args, **kwargs)

    sim.store.claim_timers = claim
    await _refuse_writes(sim)
    # Time lands exactly where the loop tries again (the deadline, then each back-off), so that
    # no short sleep is left running at the end of an advance.
    await sim.advance(end - now())
    # The player to move clicks: told the database refuses, nothing changed.
    clicked = await members[seat].click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    assert "not accepting changes" in reply_text(clicked), reply_text(clicked)
    waits = [min(OUTAGE_FIRST * 2 ** k, OUTAGE_MAX) for k in range(7)]
    for wait in waits[:-1]:
        await sim.advance(wait)
    assert (await sim.store.get(game.id)).version == 0
    assert "Deadline passed" not in channel_text(sim)
    gaps = [b - a for a, b in zip(attempts, attempts[1:])]
    assert len(attempts) >= 5 and gaps == sorted(gaps) and gaps[-1] >= 8 * gaps[0], (gaps, attempts)
    await _allow_writes(sim)
    await sim.advance(waits[-1])
    game = await sim.store.get(game.id)
    assert game.version == 1 and (await sim.store.actions(game.id))[-1]["action"]["type"] == "timeout"
    assert _count(channel_text(sim), "Deadline passed") == 1
    said = [r for r in caplog.records if r.levelno >= logging.ERROR and "refuses writes" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("accepts writes again" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR and r not in said], [
        (r.getMessage(), r.exc_text) for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("mode", ["skip", "remind"])
async def test_a_deadline_whose_write_is_refused_is_announced_once(sim, mode):
    """The deadline's write (the title's timeout; or, in remind mode, consuming the deadline) is
    refused twice, then goes through: the channel hears of the deadline once. It used to be
    announced before the write, and again at every retry."""
    ann, bob = sim.player("ann"), sim.player("bob")
    game = await start_game(sim, ann, "toy", others=[bob], settings={**SETTINGS, "on_deadline": mode})
    store = sim.store
    name = "commit_action" if mode == "skip" else "consume_timer"
    real = getattr(store, name)
    calls = {"n": 0}

    async def refusing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] <= 2:
            raise store.refused("the disk is full")
        return await real(*args, **kwargs)

    setattr(store, name, refusing)
    deadline, end, window = await first_deadline(store, game.id)
    await sim.advance(end - now() + 1)  # refused
    await sim.advance(61)  # retried after a minute: refused again
    assert calls["n"] == 2 and "Deadline passed" not in channel_text(sim)
    await sim.advance(121)  # retried after two more: it goes through
    assert calls["n"] == 3
    text = channel_text(sim)
    assert _count(text, "Deadline passed") == 1, text
    if mode == "remind":
        assert _count(text, "your deadline has passed") == 1, text
        assert (await store.get(game.id)).version == 0
    else:
        assert (await store.get(game.id)).version == 1


async def test_a_reminder_whose_write_is_refused_pings_once(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    # An hour to answer: the reminder's retries (a minute, then two) come well before the deadline.
    game = await start_game(sim, ann, "toy", others=[bob],
                            settings={**SETTINGS, "on_deadline": "remind", "reminder": 20, "deadlines": {"turn": 3600}})
    store = sim.store
    real = store.consume_timer
    calls = {"n": 0}

    async def refusing(timer, **kwargs):
        if timer.kind == "duty" and kwargs.get("payload", {}).get("n"):  # a reminder's count
            calls["n"] += 1
            if calls["n"] <= 2:
                raise store.refused("the disk is full")
        return await real(timer, **kwargs)

    store.consume_timer = refusing
    reminder = next(x for x in await store.timers(game.id) if x.kind == "duty")  # due at its first reminder
    await sim.advance(reminder.due_at - now() + 1)
    await sim.advance(61)
    assert _count(channel_text(sim), "Reminder:") == 0  # refused twice: nothing said yet
    await sim.advance(121)
    assert calls["n"] >= 3 and _count(channel_text(sim), "Reminder:") == 1, channel_text(sim)

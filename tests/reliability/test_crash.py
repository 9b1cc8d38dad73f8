"""Restarts and crashes: nothing lost.

- A game restarted after any action continues exactly: same snapshot, log and timers, the old
  buttons still work, the timers fire where they would have (SimCord, every title).
- A process killed hard (SIGKILL) while it commits actions, many times over, leaves a database
  that passes `PRAGMA integrity_check`, whose every game replays from its log to its snapshot, and
  whose games resume at the last committed action (`crash_driver.py` in a subprocess).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from store import open_store
from tests.reliability.durability import TITLES, durability_rounds
from tests.support.bot_games import first_deadline, log_problems, snapshot, start_game, timer_problems
from tests.support.sim import button, labels, panel_of, text_of

ROOT = Path(__file__).resolve().parents[2]
SLOW = bool(os.environ.get("BOARDROOM_SLOW"))


# -- restarts in SimCord ---------------------------------------------------------------------------

@pytest.mark.parametrize("title", TITLES)
@pytest.mark.both_backends
async def test_restarts_continue_exactly_and_deadlines_are_never_lost(sim, title):
    """One person who never clicks and two AI seats: every move of the person's seat comes from
    a deadline (the AI plays late seats). The bot restarts every few moves; across each restart
    nothing changes, and after every step each open window still has its deadline."""
    ann = sim.player("ann")
    game = await start_game(sim, ann, title, ai=2, seed=4242)
    restarts = 0
    for step in range(30):
        if step % 6 == 5:
            before = await snapshot(sim.store, game.id)
            await sim.restart()
            restarts += 1
            assert await snapshot(sim.store, game.id) == before
            assert (await sim.house.games.game(game.id)).version == before["version"]
        if not await sim.next_timer(game.id):
            break
        assert await timer_problems(sim.store, game.id) == []
    game = await sim.store.get(game.id)
    assert restarts >= 2 and game.version >= 8, (restarts, game.version)
    assert await log_problems(sim.store, game.id) == []
    # A deadline moved the person's seat at least once (the case where a deadline was lost).
    actions = await sim.store.actions(game.id)
    assert any(a["seat"] == 0 or a["seat"] is None for a in actions)


@pytest.mark.both_backends
async def test_buttons_drawn_before_a_restart_work_after_it(sim):
    """The table's buttons and a private panel opened before the restart still work after it."""
    from cogs.titles.contract import ui_for

    ann, bob = sim.player("ann"), sim.player("bob")
    members = [ann, bob]
    game = await start_game(sim, ann, "toy", others=[bob], settings={"ai_delay": 10})
    seat = ui_for("toy").game.to_act(game.state)[0]
    panel = await sim.hand(members[seat])
    second = await sim.hand(members[seat])  # the same player opened My hand twice
    table = await sim.table_message()
    await sim.restart()
    clicked = await members[seat].click(panel, custom_id=button(panel, label="Take 2"))
    await sim.settle()
    assert clicked.acknowledged
    game = await sim.store.get(game.id)
    assert game.version == 1 and game.state["pile"] == 5
    # The table message was edited in place, and its My hand still opens a panel.
    assert (await sim.table_message()).id == table.id
    other = members[1 - seat]
    opened = await other.click(table, custom_id=button(table, code_suffix=":Hhand"))
    assert "OK" in labels(panel_of(opened))
    # The panel drawn before the restart is now for an earlier moment: said so, never applied.
    again = await members[seat].click(second, custom_id=button(second, label="Take 1"))
    assert "earlier moment" in text_of(panel_of(again))
    assert (await sim.store.get(game.id)).version == 1


@pytest.mark.both_backends
async def test_a_deadline_due_while_the_bot_was_down_fires_after_the_restart(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    game = await start_game(sim, ann, "toy", others=[bob], settings={"ai_delay": 10, "on_deadline": "skip"})
    deadline, end, window = await first_deadline(sim.store, game.id)
    await sim.settle()
    await sim.house.stop()  # the bot is down: nothing fires while the deadline passes
    await sim.advance(end - sim.env.now().timestamp() + 600)
    assert (await sim.store.get(game.id)).version == 0
    await sim.restart()
    await sim.settle()
    game = await sim.store.get(game.id)
    actions = await sim.store.actions(game.id)
    assert game.version == 1 and actions[0]["action"] == {"type": "timeout", "id": window}
    assert await log_problems(sim.store, game.id) == []
    assert "Deadline passed" in "\n".join(m.content for m in sim.channel.history())


async def _nod_window(sim):
    """Three people at the toy; the one to move takes a coin: two owe a nod, under a deadline."""
    from cogs.titles.contract import ui_for

    people = [sim.player(n) for n in ("ann", "bob", "cy")]
    game = await start_game(sim, people[0], "toy", others=people[1:], settings={"ai_delay": 10})
    seat = ui_for("toy").game.to_act(game.state)[0]
    panel = await sim.hand(people[seat])
    await people[seat].click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    game = await sim.store.get(game.id)
    assert len(game.state["owed"]) == 2
    return game


@pytest.mark.parametrize("fail_at", [1, 2])
@pytest.mark.both_backends
async def test_a_deadline_whose_work_fails_midway_is_not_lost(sim, fail_at):
    """The deadline of the nod window makes the AI nod for both late seats. The database refuses
    the `fail_at`-th of those commits (busy, full disk): the deadline must fire again and finish
    the window, never vanish (the game would then wait for ever). The second case is the one
    where the replanned deadline row gets the fired row's id back from SQLite (today the row
    keeps its id and its claim, and is consumed only while the game is at its version)."""
    game = await _nod_window(sim)
    store = sim.store
    real = store.commit_action
    calls = {"n": 0}

    async def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == fail_at:
            raise store.refused("the database is locked")
        return await real(*args, **kwargs)

    store.commit_action = flaky
    deadline, end, window = await first_deadline(store, game.id)
    await sim.advance(end - sim.env.now().timestamp() + 1)
    game = await store.get(game.id)
    assert calls["n"] >= fail_at
    for _ in range(4):  # the failed part is retried within minutes
        if game.state["owed"] == [] and game.version >= 3:
            break
        assert await timer_problems(store, game.id) == []
        await sim.advance(61)
        game = await store.get(game.id)
    assert game.state["owed"] == [] and game.version >= 3, (game.version, await store.timers(game.id))
    assert await log_problems(store, game.id) == []


@pytest.mark.both_backends
async def test_a_failing_seat_filler_does_not_stall_the_table(sim, monkeypatch):
    """The AI raises when asked to nod for the late seats: at the deadline the window closes by
    the title's timeout instead."""
    from cogs.titles.contract import ui_for

    game = await _nod_window(sim)

    def broken(*args, **kwargs):
        raise RuntimeError("seat-filler bug")

    monkeypatch.setattr(ui_for("toy").game, "ai_action", broken)
    deadline, end, window = await first_deadline(sim.store, game.id)
    await sim.advance(end - sim.env.now().timestamp() + 1)
    game = await sim.store.get(game.id)
    actions = await sim.store.actions(game.id)
    assert game.state["owed"] == [] and actions[-1]["action"] == {"type": "timeout", "id": window}


async def test_random_games_of_every_title_survive_restarts_faults_and_double_clicks():
    """The randomized part, small: one game per title with restarts at random moments, random
    Discord faults and double clicks, each compared with the same game played undisturbed."""
    result = await durability_rounds(4, seed=7, max_steps=30)
    problems = result.pop("problems")
    print(json.dumps(result))
    assert problems == []
    assert result["lost"] == 0 and result["diverging"] == 0 and result["stalled"] == 0 and result["unanswered"] == 0
    assert result["restarts"] >= 4 and result["actions"] >= 60
    assert set(result["per_title"]) == set(TITLES)


@pytest.mark.slow
@pytest.mark.slow
async def test_many_random_games_survive_restarts_faults_and_double_clicks():
    result = await durability_rounds(24, seed=2026, max_steps=120)
    problems = result.pop("problems")
    print(json.dumps(result))
    assert problems == []
    assert result["lost"] == 0 and result["diverging"] == 0 and result["stalled"] == 0 and result["unanswered"] == 0


# -- a process killed while it commits ----------------------------------------------------------------

def _driver(db: Path, seed: int, *extra: str) -> subprocess.Popen:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "tests.reliability.crash_driver", str(db), str(seed), *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)


def _committed(lines: list[str]) -> dict[int, int]:
    """The newest version the driver saw committed, per game (it prints after each commit)."""
    out: dict[int, int] = {}
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[0] == "committed":
            out[int(parts[1])] = max(out.get(int(parts[1]), 0), int(parts[2]))
    return out


async def _check_database(db: Path, acknowledged: dict[int, int]) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        game_ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE status != 'lobby'")]
        (actions,) = conn.execute("SELECT COUNT(*) FROM actions").fetchone()
    conn.close()
    store = await open_store(db)
    try:
        assert await store.integrity() == "ok"
        for game_id in game_ids:
            assert await log_problems(store, game_id) == []
            game = await store.get(game_id)
            # Every commit the driver saw return is there (a committed action is never lost).
            assert game.version >= acknowledged.get(game_id, 0), (game_id, game.version, acknowledged[game_id])
        return {"games": len(game_ids), "actions": actions}
    finally:
        await store.close()


def _run_and_kill(db: Path, seed: int, rng: random.Random, *extra: str) -> tuple[list[str], str]:
    proc = _driver(db, seed, *extra)
    assert proc.stdout is not None
    head = []
    while not head or head[-1] != "ready":  # "resume ..." lines, then "ready" once it commits
        line = proc.stdout.readline()
        if not line:
            proc.kill()
            raise AssertionError("the driver stopped before it was ready:\n" + proc.communicate()[1])
        head.append(line.strip())
    time.sleep(rng.uniform(0.05, 0.6))
    proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, err
    return head + out.splitlines(), err


async def test_killed_while_committing_the_database_stays_whole_and_games_resume(tmp_path):
    """SIGKILL at random moments while a process commits actions of games of every title through
    the house, again and again on the same database."""
    rounds = 40 if SLOW else 8
    rng = random.Random(11)
    db = tmp_path / "crash.db"
    acknowledged: dict[int, int] = {}
    resumed = kills = 0
    for r in range(rounds):
        lines, err = _run_and_kill(db, 1000 + r, rng)
        kills += 1
        for line in lines:
            parts = line.split()
            if len(parts) == 3 and parts[0] == "resume" and int(parts[1]) in acknowledged:
                # The driver found the game at (at least) its last acknowledged commit.
                assert int(parts[2]) >= acknowledged[int(parts[1])], line
                resumed += 1
        for game_id, version in _committed(lines).items():
            acknowledged[game_id] = max(acknowledged.get(game_id, 0), version)
        figures = await _check_database(db, acknowledged)
    titles = {row for row in sqlite3.connect(db).execute("SELECT DISTINCT title FROM games")}
    print(f"kills={kills} games={figures['games']} actions={figures['actions']} resumed={resumed}")
    assert {t for (t,) in titles} == set(TITLES)
    assert resumed >= rounds - 1 and figures["actions"] > 100

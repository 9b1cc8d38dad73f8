"""The graceful stop: SIGTERM or SIGINT to a running bot process (the real bot against SimCord,
`stop_driver.py`, with the signal handlers `python bot.py` installs). The process exits 0; every
click it received was answered; every move committed is in the log and replays; the tables were
updated (or, when Discord refused, left to the restart's catch-up); the store was closed (SQLite
removed its write-ahead log)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from service.stop import InFlight, wait_until
from store import open_store
from tests.support.bot_games import log_problems

ROOT = Path(__file__).resolve().parents[2]
GAMES = 3


def _driver(db: Path, *extra: str) -> subprocess.Popen:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "tests.service.stop_driver", str(db), str(GAMES), *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)


def _wait_for(proc: subprocess.Popen, word: str) -> list[str]:
    assert proc.stdout is not None
    lines = []
    while not lines or lines[-1].split(" ")[0] != word:
        line = proc.stdout.readline()
        if not line:
            proc.kill()
            raise AssertionError(f"the driver ended before {word!r}:\n" + proc.communicate()[1])
        lines.append(line.strip())
    return lines


def _finish(proc: subprocess.Popen, head: list[str]) -> tuple[list[str], str, float]:
    started = time.monotonic()
    out, err = proc.communicate(timeout=60)
    return head + out.splitlines(), err, time.monotonic() - started


async def _check_database(db: Path) -> list[tuple[int, int, int]]:
    """Whole, every game replays from its log, and the store was closed cleanly. The games'
    (id, version, told_version)."""
    assert not Path(f"{db}-wal").exists(), "the database was not closed (its write-ahead log is still there)"
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = conn.execute("SELECT id, version, told_version FROM games ORDER BY id").fetchall()
    conn.close()
    store = await open_store(db)
    try:
        for game_id, version, _told in games:
            assert await log_problems(store, game_id) == []
            assert await store.action_count(game_id) == version
    finally:
        await store.close()
    return games


def _in_flight(err: str) -> tuple[int, int]:
    """What the stop found: (interactions in flight, table updates queued), from its log line."""
    line = next(x for x in err.splitlines() if "stopping:" in x and "in flight" in x)
    words = line.split("stopping:")[1].split()
    return int(words[0]), int(words[4])


def _assert_clean(lines: list[str], err: str, elapsed: float) -> None:
    assert "stopped" in lines and "unanswered 0" in lines, lines[-5:]
    assert "Traceback" not in err and "ERROR" not in err, err
    assert elapsed < 25, elapsed  # within the stop's bound (20 s), with room for the process to end


async def test_sigterm_from_outside_stops_the_bot_cleanly(tmp_path):
    sig = signal.SIGTERM
    db = tmp_path / "stop.db"
    proc = _driver(db)
    head = _wait_for(proc, "ready")
    head += _wait_for(proc, "clicks")  # people are clicking
    await asyncio.sleep(random.Random(sig).uniform(0.05, 0.4))
    proc.send_signal(sig)
    lines, err, elapsed = _finish(proc, head)
    assert proc.returncode == 0, err
    _assert_clean(lines, err, elapsed)
    games = await _check_database(db)
    assert len(games) == GAMES and all(version >= 1 for _, version, _ in games)
    # Every move was told in its channel before the bot went away.
    assert all(told == version for _, version, told in games), games


async def test_sigint_while_clicks_are_handled_waits_for_their_answers_and_the_tables(tmp_path):
    db = tmp_path / "stop.db"
    proc = _driver(db, "--self", "SIGINT")
    lines, err, elapsed = _finish(proc, _wait_for(proc, "ready"))
    assert proc.returncode == 0, err
    _assert_clean(lines, err, elapsed)
    in_flight, _queued = _in_flight(err)
    assert in_flight >= 1, err  # the stop found clicks being handled, and they were all answered
    games = await _check_database(db)
    assert all(told == version for _, version, told in games), games


async def test_table_updates_discord_refuses_are_left_to_the_catch_up(tmp_path):
    """Discord refuses channel messages (500): the table updates wait for a retry when the signal
    comes. The stop does not wait for them: their games' told_version stays behind, so the next
    start tells the channels (House.catch_up), and the process still exits 0 at once."""
    db = tmp_path / "stop.db"
    proc = _driver(db, "--self", "SIGTERM", "--discord-down")
    lines, err, elapsed = _finish(proc, _wait_for(proc, "ready"))
    assert proc.returncode == 0, err
    _assert_clean(lines, err, elapsed)
    assert "will be told after the restart" in err, err
    games = await _check_database(db)
    assert any(told < version for _, version, told in games), games


async def test_a_stuck_handler_is_waited_for_only_until_the_bound():
    inflight = InFlight()
    stuck = asyncio.Event()

    async def handler():
        inflight.track("click")
        await stuck.wait()

    task = asyncio.create_task(handler())
    await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await inflight.drain(loop.time() + 0.2) == 1
    assert 0.15 < loop.time() - started < 1.0
    # A second signal hurries: no more waiting at all.
    inflight.hurry.set()
    started = loop.time()
    assert await inflight.drain(loop.time() + 30) == 1
    assert not await wait_until(stuck.wait(), loop.time() + 30, inflight.hurry)
    assert loop.time() - started < 0.5
    stuck.set()
    await task
    assert len(inflight) == 0

"""Backups, restores and pruning (issue 27), with people playing through SimCord.

A backup taken with `python -m store backup` while the bot runs and a move lands at the same
moment restores (`python -m store restore`) to exactly the games as they were before or after
that move, never a mix, on SQLite (the online backup API, the WAL included) and on PostgreSQL
(pg_dump and pg_restore of the test server's own version). Pruning archives finished games' logs
to a compressed file and deletes them; `/game history` and `/game stats` answer as before."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cogs.titles.contract import ui_for
from store import open_store
from store.prune import prune, read_archive
from tests.support import postgres
from tests.support.sim import custom_ids, reply_text

pytestmark = pytest.mark.both_backends
ROOT = Path(__file__).resolve().parents[2]


def store_cli(database: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if database.startswith("postgresql://"):  # the server's own client tools (pg_dump's version >= the server's)
        env["PATH"] = f"{postgres.bin_dir()}{os.pathsep}{env['PATH']}"
    return subprocess.run([sys.executable, "-m", "store", "--db", database, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


async def contents(store, game_id: int) -> dict:
    game = await store.get(game_id)
    return {"status": game.status, "version": game.version, "state": game.state, "seed": game.seed,
            "seats": [(s.seat, s.user_id, s.name) for s in game.seats], "actions": await store.actions(game_id)}


async def move(sim, ann, bob) -> None:
    game = await sim.game()
    seat = ui_for("toy").game.to_act(game.state)[0]
    member = [ann, bob][seat]
    panel = await sim.hand(member)
    cid = next(c for c in custom_ids(panel) if ":!" in c or c.endswith(":#0"))
    await member.click(panel, custom_id=cid)
    await sim.settle()


async def test_a_backup_taken_during_play_restores_to_the_same_games(sim, tmp_path, backend):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob], options={"pile": 40})
    for _ in range(4):
        await move(sim, ann, bob)
    game_id = (await sim.game()).id
    before = await contents(sim.store, game_id)
    if backend == "sqlite":  # the situation `cp` gets wrong: the newest moves are still in the WAL
        assert Path(sim.database + "-wal").stat().st_size > 0
    dest = tmp_path / ("backup.db" if backend == "sqlite" else "backup.dump")
    # The backup runs in another process while a move is being made here.
    backing_up = asyncio.create_task(asyncio.to_thread(store_cli, sim.database, "backup", str(dest)))
    await move(sim, ann, bob)
    done = await backing_up
    after = await contents(sim.store, game_id)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {dest}") and "\n" == done.stdout[-1] and done.stdout.count("\n") == 1
    assert dest.stat().st_mode & 0o777 == 0o600
    await move(sim, ann, bob)  # play goes on after the backup

    target = str(tmp_path / "restored.db") if backend == "sqlite" else postgres.create_database()
    try:
        restored = store_cli(target, "restore", str(dest))
        assert restored.returncode == 0, restored.stderr
        store = await open_store(target)
        try:
            assert await contents(store, game_id) in (before, after)
            assert await store.integrity() == "ok"
        finally:
            await store.close()
    finally:
        if backend == "postgres":
            postgres.drop_database(target)


async def test_pruning_archives_finished_logs_and_history_and_stats_still_answer(sim, tmp_path):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob], options={"pile": 6})
    while (await sim.game()).status == "active":
        await move(sim, ann, bob)
    game = await sim.game()
    assert game.status == "finished"
    logged = await sim.store.actions(game.id)
    history = reply_text(await ann.slash(sim.channel, "game history"))
    stats = reply_text(await ann.slash(sim.channel, "game stats"))

    too_soon = await prune(sim.store, game.finished_at - 1, tmp_path)  # finished after the cut: kept
    assert too_soon.games == 0 and await sim.store.actions(game.id) == logged
    pruned = await prune(sim.store, sim.env.now().timestamp() + 1, tmp_path)
    assert pruned.games == 1 and pruned.actions == len(logged) > 0
    assert pruned.archive is not None and pruned.archive.stat().st_mode & 0o777 == 0o600
    (line,) = read_archive(pruned.archive)
    assert line["game"]["id"] == game.id and line["actions"] == logged and "state" not in line["game"]
    assert await sim.store.actions(game.id) == []
    assert await sim.store.integrity() == "ok"
    assert reply_text(await ann.slash(sim.channel, "game history")) == history
    assert reply_text(await ann.slash(sim.channel, "game stats")) == stats
    again = await prune(sim.store, time.time() + 86400 * 365, tmp_path)
    assert again.games == 0  # pruned once

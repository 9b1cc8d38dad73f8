"""The files beside an SQLite database (issue 25, finding 6; issue 27): the database, its WAL
and shared memory, its lock file, its marker, backups and archives are readable by their owner
only, whatever the umask; an older database left 0644 is made private at start-up. The store
command line refuses what it must, in one line."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from store import open_store
from store.sqlite.backup import BackupError, backup, restore
from store.sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def loose_umask():
    old = os.umask(0o022)  # the usual one: files 0644 unless created otherwise
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


async def test_every_file_beside_the_database_is_private(tmp_path, loose_umask):
    path = tmp_path / "games.db"
    store = await open_store(path)
    try:
        await store.create_lobby(guild_id=1, channel_id=5, title="toy", host_id=7, host_name="ann", lang="en",
                                 seed=1, settings={}, now=1.0)
        names = {p.name: mode(p) for p in tmp_path.iterdir()}
        assert names == {"games.db": 0o600, "games.db-wal": 0o600, "games.db-shm": 0o600, "games.db.lock": 0o600,
                         "games.db.held": 0o600}, names
        copy = backup(path, tmp_path / "copy.db")
        assert mode(copy.path) == 0o600 and copy.games == 1
    finally:
        await store.close()


async def test_an_older_world_readable_database_and_lock_are_made_private(tmp_path, loose_umask, caplog):
    path = tmp_path / "games.db"
    sqlite3.connect(path).close()
    (tmp_path / "games.db.lock").touch()
    os.chmod(path, 0o644)
    os.chmod(tmp_path / "games.db.lock", 0o644)
    store = await open_store(path)
    await store.close()
    assert mode(path) == 0o600 and mode(tmp_path / "games.db.lock") == 0o600
    assert any("now private" in r.getMessage() for r in caplog.records)


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "store", *args], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)


def one_line(done: subprocess.CompletedProcess) -> str:
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    assert done.returncode == 1 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


async def test_restoring_while_the_bot_runs_is_refused_and_changes_nothing(tmp_path):
    path, other = tmp_path / "games.db", tmp_path / "other.db"
    for p in (path, other):
        store = await open_store(p)
        await store.close()
    running = await open_store(path)  # the bot holds the database
    try:
        line = one_line(cli("--db", str(path), "restore", str(other)))
        assert "already using the database" in line and "stop the bot first" in line
    finally:
        await running.close()
    assert not list(tmp_path.glob("games.db.before-restore-*"))


def test_what_is_not_a_boardroom_backup_is_refused(tmp_path):
    notes = tmp_path / "notes.db"
    notes.write_text("not a database")
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE x (y)")
    target = tmp_path / "games.db"
    assert "as an SQLite database" in one_line(cli("--db", str(target), "restore", str(notes)))
    assert "not Boardroom's" in one_line(cli("--db", str(target), "restore", str(foreign)))
    assert "does not exist" in one_line(cli("--db", str(target), "backup", str(tmp_path / "b.db")))
    assert not target.exists()


async def test_a_backup_from_a_newer_version_is_refused(tmp_path):
    path = tmp_path / "games.db"
    store = await open_store(path)
    await store.close()
    newer = backup(path, tmp_path / "newer.db").path
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 999")
    with pytest.raises(BackupError, match="newer than this Boardroom knows"):
        restore(newer, tmp_path / "target.db", SQLiteStore.migrations)


async def test_restoring_keeps_the_database_as_it_was(tmp_path):
    path = tmp_path / "games.db"
    store = await open_store(path)
    await store.create_lobby(guild_id=1, channel_id=5, title="toy", host_id=7, host_name="ann", lang="en", seed=1,
                             settings={}, now=1.0)
    await store.close()
    empty = tmp_path / "empty.db"
    store = await open_store(empty)
    await store.close()
    done = cli("--db", str(path), "restore", str(empty))
    assert done.returncode == 0 and "restored" in done.stdout and "kept as" in done.stdout, done.stderr
    (kept,) = tmp_path.glob("games.db.before-restore-*")
    with sqlite3.connect(kept) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 0

"""Starting, as an operator watches it (issue 27, issue 25 finding 8): the start-up line and a
line per migration in the log, an automatic backup before migrating, an unresponsive PostgreSQL
reported in seconds with a clear line, a SIGTERM during a hung start-up obeyed at once even as a
container's PID 1, and a database that held games and went missing stopping the start unless
`--new-database`. `python bot.py` runs for real; Discord is a closed local port
(BOARDROOM_DISCORD_API), so a start that gets past the database ends at "Cannot reach Discord"."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from app import startup_line
from config import Config
from store import MIGRATIONS, StartupError, open_store
from store.postgres import conn as pg_conn
from store.sqlite import conn as sqlite_conn

ROOT = Path(__file__).resolve().parents[2]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bot(database: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "BOARDROOM_DB": database, "DISCORD_TOKEN": "not-a-real-token", "PYTHONPATH": str(ROOT),
           "BOARDROOM_DISCORD_API": f"http://127.0.0.1:{closed_port()}/api/v10", "BOARDROOM_RENDER_PROCESSES": "0"}
    return subprocess.run([sys.executable, "bot.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def old_database(path: Path) -> None:
    """A database as schema 2 made it, holding a game."""
    conn = sqlite3.connect(path)
    for script in sorted((MIGRATIONS / "sqlite").glob("*.sql"))[:2]:
        conn.executescript(script.read_text(encoding="utf-8"))
    conn.execute("PRAGMA user_version = 2")
    conn.execute("INSERT INTO games (id, channel_id, title, status, host_id, seed, state, version, created_at,"
                 " updated_at) VALUES (1, 100, 'toy', 'active', 7, 1234567, '{}', 3, 1.0, 1.0)")
    conn.commit()
    conn.close()


def test_the_start_up_line_and_each_migration_are_logged_after_a_backup(tmp_path):
    path = tmp_path / "games.db"
    old_database(path)
    done = bot(str(path))
    log = done.stderr
    assert done.returncode == 1 and "Cannot reach Discord" in log, log
    latest = max(int(p.name[:4]) for p in (MIGRATIONS / "sqlite").glob("*.sql"))
    assert f"backed up the database before migrating it from schema 2: {path}.before-v{latest}-" in log
    for script in sorted((MIGRATIONS / "sqlite").glob("*.sql"))[2:]:
        assert f"migration {script.name} applied to {path}" in log, script.name
    line = next(x for x in log.splitlines() if "starting:" in x)
    assert "Boardroom 0.1.0 (revision " in line and f"SQLite database {path}" in line
    assert f"schema 2 -> {latest}" in line and "shards:" in line and "pictures drawn in threads" in line
    backups = list(tmp_path.glob(f"games.db.before-v{latest}-*"))
    assert len(backups) == 1 and backups[0].stat().st_mode & 0o777 == 0o600
    with sqlite3.connect(backups[0]) as copy:  # the database as it was, game and schema
        assert copy.execute("SELECT seed, version FROM games").fetchall() == [(1234567, 3)]
        assert copy.execute("PRAGMA user_version").fetchone()[0] == 2
    again = bot(str(path))  # nothing to migrate: no second backup, the line says so
    assert f"schema {latest} (up to date)" in again.stderr and "migration 0" not in again.stderr
    assert len(list(tmp_path.glob("games.db.before-*"))) == 1


def test_the_start_up_line_redacts_a_postgres_password():
    config = Config(token=None, database="postgresql://bob:hunter2@db:5432/games", dev_guild=None, log_level="INFO",
                    shard_count=4, shard_ids=(0, 1), render_processes=2)

    class Store:
        backend, schema = "PostgreSQL", (5, 7)
        where = pg_conn.redacted(config.database)

    line = startup_line(config, Store())  # type: ignore[arg-type]
    assert "hunter2" not in line and "postgresql://bob@db:5432/games" in line
    assert "schema 5 -> 7" in line and "shards: 0,1 of 4" in line and "2 picture worker processes" in line


async def silent_server() -> tuple[asyncio.Server, int]:
    """A PostgreSQL that accepts connections and never says a word (a hung server)."""
    held: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)
        await reader.read()

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def test_an_unresponsive_postgres_fails_fast_with_a_clear_line(monkeypatch):
    monkeypatch.setattr(pg_conn, "CONNECT_TIMEOUT", 0.5)
    server, port = await silent_server()
    started = time.monotonic()
    try:
        with pytest.raises(StartupError) as caught:
            await open_store(f"postgresql://bob:hunter2@127.0.0.1:{port}/games")
    finally:
        server.close()
    message = str(caught.value)
    assert time.monotonic() - started < 5
    assert "did not answer within 0 s" in message or "did not answer within 1 s" in message, message
    assert "hunter2" not in message and "(TimeoutError: )" not in message and "\n" not in message


def catches_sigterm(pid: int) -> bool:
    """Whether the process has a handler for SIGTERM (its SigCgt mask in /proc)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return bool(caught & (1 << (signal.SIGTERM - 1)))


@pytest.mark.parametrize("when", ["importing", "waiting on the database"])
def test_sigterm_during_a_hung_start_is_obeyed_at_once_even_as_pid_1(when):
    """The bot as PID 1 of its own PID namespace, as in a container without an init: a signal
    with no handler would be ignored there (the kernel's rule for a namespace's init). Sent as
    soon as the process can take it (it is still importing), or once it waits on a silent
    PostgreSQL."""
    listener = socket.create_server(("127.0.0.1", 0))  # accepts (the kernel does) and never answers
    port = listener.getsockname()[1]
    env = {**os.environ, "BOARDROOM_DB": f"postgresql://bob@127.0.0.1:{port}/games", "DISCORD_TOKEN": "x",
           "PYTHONPATH": str(ROOT)}
    outer = subprocess.Popen(["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "bot.py"], cwd=ROOT,
                             env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        inner = None
        while time.monotonic() < deadline and (inner is None or not catches_sigterm(inner.pid)):
            children = psutil.Process(outer.pid).children()
            inner = children[0] if children else None
            time.sleep(0.01)
        assert inner is not None and catches_sigterm(inner.pid)
        if when == "waiting on the database":
            time.sleep(4)  # imported, and waiting on the silent server (it would wait 10 s)
        assert outer.poll() is None
        sent = time.monotonic()
        inner.send_signal(signal.SIGTERM)
        _, err = outer.communicate(timeout=8)
        assert time.monotonic() - sent < 3, err
    finally:
        if outer.poll() is None:
            outer.kill()
        listener.close()
    assert "stopped during start-up" in err and outer.returncode == 0, err


async def test_a_missing_database_that_held_games_stops_the_start_unless_new_database(tmp_path):
    path = tmp_path / "games.db"
    first = await asyncio.to_thread(bot, str(path))  # a first run: no database, no marker, it starts
    assert "starting:" in first.stderr and "Cannot reach Discord" in first.stderr, first.stderr
    assert not (tmp_path / "games.db.held").exists()  # an empty database held no games
    store = await open_store(path)
    await store.create_lobby(guild_id=1, channel_id=5, title="toy", host_id=7, host_name="ann", lang="en", seed=1,
                             settings={}, now=1.0)
    await store.close()
    assert (tmp_path / "games.db.held").stat().st_mode & 0o777 == 0o600
    for leftover in tmp_path.glob("games.db*"):
        if leftover.name in ("games.db", "games.db-wal", "games.db-shm"):
            leftover.unlink()
    refused = await asyncio.to_thread(bot, str(path))
    lines = [x for x in refused.stderr.splitlines() if x.strip()]
    assert refused.returncode == 1 and len(lines) == 1, refused.stderr
    assert lines[0].startswith("Boardroom cannot start: ") and "is missing, but it held games" in lines[0]
    assert "--new-database" in lines[0] and not path.exists()
    fresh = await asyncio.to_thread(bot, str(path), "--new-database")
    assert "starting:" in fresh.stderr and "schema 0 ->" in fresh.stderr, fresh.stderr
    assert path.exists() and not (tmp_path / "games.db.held").exists()


async def test_a_database_this_user_cannot_write_says_who_and_what_to_do(tmp_path, monkeypatch):
    # (The tests run as root, who may write anything but a read-only file system: the check is
    # made to answer no, as it does for a service user on another user's file.)
    monkeypatch.setattr(sqlite_conn, "writable", lambda path: False)
    with pytest.raises(StartupError) as caught:
        await open_store(tmp_path / "games.db")
    message = str(caught.value)
    assert "Cannot write the database" in message and "Boardroom runs as" in message and "(uid " in message
    assert "chown" in message and "StateDirectory=boardroom" in message and "\n" not in message


def test_startup_logs_go_to_the_store_logger(caplog, tmp_path):
    caplog.set_level(logging.INFO, logger="store")

    async def go():
        store = await open_store(tmp_path / "x.db")
        await store.close()

    asyncio.run(go())
    assert any("migration 0001_init.sql applied" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_postgres_role_without_rights_is_told_what_to_grant(database):
    from tests.support import postgres

    name = postgres.name_of(database)
    await postgres.admin("DROP ROLE IF EXISTS boardroom_weak", "CREATE ROLE boardroom_weak LOGIN",
                         f'GRANT CONNECT ON DATABASE "{name}" TO boardroom_weak')
    weak = database.replace("postgresql://postgres", "postgresql://boardroom_weak", 1)
    assert weak != database
    try:
        with pytest.raises(StartupError) as caught:
            await open_store(weak)
    finally:
        await postgres.admin(f'REVOKE ALL ON DATABASE "{name}" FROM boardroom_weak')
    message = str(caught.value)
    assert "may not change the schema" in message and "GRANT CREATE ON SCHEMA public" in message, message
    assert "Restore a backup" not in message and "Migration ?" not in message

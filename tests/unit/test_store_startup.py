"""Start-up on a database the bot cannot use, as an operator meets it: `python bot.py` exits at
once, non-zero, with one clear line (no traceback, no hang) and changes nothing. One writing
process per SQLite file. A database file deleted under a running bot is noticed: writes are
refused (said once in the log) instead of going into a file nobody can find again."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from store import AlreadyRunning, MIGRATIONS, MigrationFailed, SchemaTooNew, StartupError, StoreUnavailable, open_store
from tests.support import postgres

ROOT = Path(__file__).resolve().parents[2]


def _bot(database: str, timeout: float = 60) -> tuple[int, str, float]:
    """`python bot.py` on `database` with a token (never used: the database stops it first)."""
    env = {**os.environ, "BOARDROOM_DB": database, "DISCORD_TOKEN": "not-a-real-token", "PYTHONPATH": str(ROOT)}
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    return done.returncode, done.stderr, time.monotonic() - t0


def _one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    assert lines[0].startswith("Boardroom cannot start: "), lines[0]
    return lines[0]


def _schema_v2(path: Path) -> None:
    """A database as the schema of two migrations ago made it, with a game in it."""
    conn = sqlite3.connect(path)
    for script in sorted((MIGRATIONS / "sqlite").glob("*.sql"))[:2]:
        conn.executescript(script.read_text(encoding="utf-8"))
    conn.execute("PRAGMA user_version = 2")
    conn.execute("INSERT INTO games (id, channel_id, title, status, host_id, seed, state, version, created_at,"
                 " updated_at) VALUES (1, 100, 'toy', 'active', 7, 1234567, '{}', 3, 1.0, 1.0)")
    conn.commit()
    conn.close()


def _dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return list(conn.iterdump()) + [str(conn.execute("PRAGMA user_version").fetchone()[0])]


def test_a_file_that_is_not_a_database(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    code, err, seconds = _bot(str(path))
    line = _one_line(err)
    assert code == 1 and "is not an SQLite database" in line and seconds < 30, (code, err)
    assert path.read_bytes() == b"these are my notes, not a database\n" * 200


def test_a_schema_newer_than_the_code_is_refused_never_downgraded(tmp_path):
    path = tmp_path / "future.db"
    _schema_v2(path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    before = _dump(path)
    code, err, _ = _bot(str(path))
    line = _one_line(err)
    assert code == 1 and "schema version 99, newer than this Boardroom knows" in line
    assert _dump(path) == before


async def test_a_migration_failing_half_way_is_rolled_back_and_closed(tmp_path):
    """Migration 3 rebuilds `games` through a table `games_rebuilt`; a database that already has
    one makes it fail half-way. Nothing changes (not even the migration's first statements), the
    bot says so in one line, and once the obstacle is gone the same file migrates (the failed
    start left no transaction, connection or lock behind)."""
    path = tmp_path / "old.db"
    _schema_v2(path)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games_rebuilt (x TEXT)")
        conn.execute("INSERT INTO games_rebuilt VALUES ('mine')")
    before = _dump(path)
    code, err, _ = _bot(str(path))
    line = _one_line(err)
    assert code == 1 and "0003_big_seeds_and_timer_claims.sql" in line and "rolled back" in line, line
    assert _dump(path) == before
    with pytest.raises(MigrationFailed):  # in-process too, then nothing is held
        await open_store(path)
    assert _dump(path) == before
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE games_rebuilt")
    store = await open_store(path)
    try:
        game = await store.get(1)
        assert game.seed == 1234567 and game.version == 3
    finally:
        await store.close()


def test_a_second_bot_on_the_same_file_exits_at_once(tmp_path):
    """Two processes: one holds the database (a store open, as a running bot has), the second
    `python bot.py` on the same file is refused at once. When the first is gone, the file is free."""
    path = tmp_path / "shared.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import asyncio, sys\nfrom store import open_store\n"
         "async def main():\n    s = await open_store(sys.argv[1])\n    print('open', flush=True)\n"
         "    sys.stdin.readline()\n    await s.close()\nasyncio.run(main())\n", str(path)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        code, err, seconds = _bot(str(path))
        line = _one_line(err)
        assert code == 1 and seconds < 30
        assert f"Another Boardroom process (pid {holder.pid}) is already using the database" in line, line
    finally:
        holder.communicate("\n", timeout=30)
    assert holder.returncode == 0


async def test_a_second_store_in_another_process_is_refused_but_one_process_shares(tmp_path):
    path = tmp_path / "shared.db"
    first = await open_store(path)
    second = await open_store(path)  # the same process (a restart in the tests, a tool): shared
    try:
        code = subprocess.run(
            [sys.executable, "-c", "import asyncio, sys\nfrom store import open_store, AlreadyRunning\n"
             "try:\n    asyncio.run(open_store(sys.argv[1]))\nexcept AlreadyRunning:\n    sys.exit(3)\n", str(path)],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60).returncode
        assert code == 3
    finally:
        await first.close()
        await second.close()
    assert issubclass(AlreadyRunning, StartupError)


async def test_a_database_file_deleted_under_the_bot_refuses_writes_until_it_is_back(tmp_path, caplog):
    """Chosen behaviour: reads go on (the open file still holds every game), every write is
    refused with `StoreUnavailable` and the log says so once, loudly. Putting the file back (the
    same file, linked again) lets writes through again; a different file needs a restart."""
    path = tmp_path / "games.db"
    store = await open_store(path)
    try:
        game = await store.create_lobby(guild_id=1, channel_id=5, title="toy", host_id=7, host_name="ann", lang="en",
                                        seed=1, settings={}, now=1.0)
        kept = tmp_path / "kept.db"
        os.link(path, kept)
        os.unlink(path)
        caplog.set_level(logging.WARNING, logger="store")
        for _ in range(3):
            with pytest.raises(StoreUnavailable, match="was deleted while the bot ran"):
                await store.update_game(game.id, 2.0, lang="ja")
        assert (await store.get(game.id)).lang == "en"  # reads still work
        refusals = [r for r in caplog.records if r.levelno == logging.ERROR and "refuses writes" in r.getMessage()]
        assert len(refusals) == 1, [r.getMessage() for r in caplog.records]
        os.link(kept, path)
        await store.update_game(game.id, 3.0, lang="ja")
        assert (await store.get(game.id)).lang == "ja"
        assert any("accepts writes again" in r.getMessage() for r in caplog.records)
        # A different file at the path: the bot does not write into it, nor into the old one.
        os.unlink(path)
        path.write_bytes(b"")
        with pytest.raises(StoreUnavailable, match="was replaced"):
            await store.set_meta("k", "v")
    finally:
        await store.close()


# -- PostgreSQL ---------------------------------------------------------------------------------

async def _pg(url: str, *statements: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        for sql in statements:
            await conn.execute(sql)
    finally:
        await conn.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_postgres_refuses_a_newer_schema_and_rolls_back_a_failed_migration(database):
    # A schema from the future.
    await _pg(database, "CREATE TABLE schema_version (version INTEGER NOT NULL)",
              "INSERT INTO schema_version VALUES (99)")
    code, err, _ = await asyncio.to_thread(_bot, database)
    assert code == 1 and "schema version 99, newer than this Boardroom knows" in _one_line(err)
    with pytest.raises(SchemaTooNew):
        await open_store(database)
    # A migration that fails half-way: a table of the same name already there.
    await _pg(database, "DROP TABLE schema_version", "CREATE TABLE meta (mine TEXT)", "INSERT INTO meta VALUES ('x')")
    code, err, _ = await asyncio.to_thread(_bot, database)
    line = _one_line(err)
    assert code == 1 and "0001_init.sql" in line and "rolled back" in line, line
    import asyncpg

    conn = await asyncpg.connect(database)
    try:
        tables = {r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert tables == {"meta"} and await conn.fetchval("SELECT mine FROM meta") == "x"  # nothing else was left
    finally:
        await conn.close()


def test_postgres_that_cannot_be_reached_is_one_line(tmp_path):
    postgres.server()  # the same client library and URL shape as a real one, pointed nowhere
    code, err, seconds = _bot(f"postgresql://postgres@/boardroom?host={tmp_path}")
    line = _one_line(err)
    assert code == 1 and "Cannot connect to PostgreSQL" in line and seconds < 30, line

"""A real PostgreSQL for the tests, started by the tests themselves: the `pgserver` wheel ships
the server's binaries, so nothing is installed by hand and nothing leaves the machine (it listens
on a Unix socket only). One server per test session, started on first use (about a second), a
fresh database per test, dropped after it.

If the server cannot start, the tests that asked for it fail with the reason: they never skip.
Run as root (CI), pgserver runs the server as its own unprivileged user `pgserver`, which it
creates: PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

_server: Any = None
_root: Path | None = None
_names = itertools.count(1)


def server() -> Any:
    """The session's server (started on first use)."""
    global _server, _root
    if _server is None:
        with warnings.catch_warnings():  # platformdirs warns that root has no XDG_RUNTIME_DIR: harmless
            warnings.simplefilter("ignore")
            import pgserver  # the tests' requirement; an ImportError here is a failure, never a skip

        _root = Path(tempfile.mkdtemp(prefix="boardroom-pg-"))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _server = pgserver.get_server(_root / "data", cleanup_mode="delete")
        except Exception as exc:
            log = _root / "data" / "log"
            detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"PostgreSQL (pgserver) did not start: {exc!r}\n{detail}") from exc
        # Test databases are thrown away: no need to wait for the disk at every commit.
        _run("ALTER SYSTEM SET fsync = off")
        _run("ALTER SYSTEM SET synchronous_commit = off")
        _run("SELECT pg_reload_conf()")
    return _server


def url(database: str) -> str:
    """A postgresql:// URL for a database of the session's server."""
    return server().get_uri(database)


async def admin(*statements: str) -> None:
    """Run statements as the server's superuser, on its maintenance database."""
    import asyncpg

    conn = await asyncpg.connect(url("postgres"))
    try:
        for sql in statements:
            await conn.execute(sql)
    finally:
        await conn.close()


def _run(sql: str) -> None:
    # Called from synchronous fixtures, sometimes while the test's event loop is already running
    # in this thread: a short loop of its own, on a thread of its own, does it.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, admin(sql)).result()


def create_database() -> str:
    """A new empty database; its URL."""
    name = f"boardroom_{os.getpid()}_{next(_names)}"
    _run(f'CREATE DATABASE "{name}"')
    return url(name)


def name_of(database_url: str) -> str:
    """The database's name in a URL of the session's server (its socket folder follows `?host=`)."""
    return database_url.split("?", 1)[0].rsplit("/", 1)[1]


def drop_database(database_url: str) -> None:
    name = name_of(database_url)
    _run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # FORCE: a detached bot's pool may linger


def bin_dir() -> Path:
    """The folder of the server's own programs (pg_dump, pg_restore, psql) in the pgserver wheel."""
    import pgserver

    return Path(pgserver.__file__).resolve().parent / "pginstall" / "bin"


def pause() -> None:
    """Stop the running server, keeping its files (an outage: `resume` starts it again). Its
    clients lose their connections at once (a fast shutdown)."""
    import pgserver

    srv = server()
    pgserver.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=srv.pgdata, user=srv.system_user)


def resume() -> None:
    """Start the server `pause` stopped, on the same files and socket."""
    server().ensure_postgres_running()


def stop() -> None:
    """Stop the session's server and delete its files."""
    global _server, _root
    if _server is not None:
        _server.cleanup()
        _server = None
    if _root is not None:
        shutil.rmtree(_root, ignore_errors=True)
        _root = None

"""Backups of a PostgreSQL database: PostgreSQL's own `pg_dump` and `pg_restore`, run for the
operator with the URL of BOARDROOM_DB (the password handed over in the environment, never on a
command line that `ps` shows). The dump is the custom format (compressed, restorable table by
table), created 0600 under a temporary name and renamed when complete.

The client tools are not in the bot's image (they would double its size): run this where they
are installed (`apt-get install postgresql-client`), or run `pg_dump` in the PostgreSQL container
(docs/OPERATIONS.md). Their major version must be the server's or newer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from ..files import create_private, size_text


class DumpError(Exception):
    """One line for the operator."""


def split_password(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, and the environment that carries it (PGPASSWORD)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, {}
    user = parts.username or ""
    host = parts.hostname or ""
    netloc = f"{user}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc)), {"PGPASSWORD": unquote(parts.password)}


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise DumpError(f"{name} is not installed here: install PostgreSQL's client tools (Debian: apt-get install "
                        f"postgresql-client), or run {name} in the PostgreSQL container (docs/OPERATIONS.md).")
    return found


def _run(args: list[str], secret: dict[str, str]) -> None:
    done = subprocess.run(args, env={**os.environ, **secret}, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise DumpError(f"{Path(args[0]).name} failed ({last}).")


def dump(url: str, dest: Path) -> str:
    """`pg_dump --format=custom` of the database into `dest` (a file, or a folder for a dated
    file); the line to print."""
    if dest.is_dir():
        dest = dest / f"boardroom-{time.strftime('%Y%m%d-%H%M%S')}.dump"
    started = time.perf_counter()
    bare, secret = split_password(url)
    partial = dest.with_name(f".{dest.name}.partial")
    partial.unlink(missing_ok=True)
    create_private(partial)
    try:
        _run([tool("pg_dump"), "--format=custom", "--no-owner", f"--file={partial}", f"--dbname={bare}"], secret)
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)
    return (f"wrote {dest}: pg_dump of the PostgreSQL database, {size_text(dest.stat().st_size)} in "
            f"{time.perf_counter() - started:.2f} s")


def restore(src: Path, url: str) -> str:
    """`pg_restore --clean` of a dump into the database, in one transaction (all or nothing)."""
    if not src.is_file():
        raise DumpError(f"{src} does not exist (or is not a file).")
    bare, secret = split_password(url)
    started = time.perf_counter()
    _run([tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction",
          f"--dbname={bare}", str(src)], secret)
    return f"restored {src} into the PostgreSQL database in {time.perf_counter() - started:.2f} s"

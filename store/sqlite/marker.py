"""Knowing that a database path once held games (issue 25, finding 8).

SQLite creates a database wherever it is pointed: a restart after the file was deleted (a wrong
clean-up, a volume mounted at the wrong place, a restore gone wrong) would silently start an empty
database and every game would seem lost. The bot therefore keeps a small marker file beside the
database, `<database>.held`, written the first time the database holds a game. At start-up a
missing database with its marker present stops the start with one line; `--new-database` (the
operator's word that an empty database is wanted) removes the marker and goes on. A first run has
neither file, and starts as before.

Why beside the database and not inside it: what is being detected is the database's absence. Why
not in a config folder elsewhere: the marker must follow the database when an operator moves the
whole folder (a volume, `StateDirectory=`), and vanish with it when the folder is deliberately
wiped. What it cannot tell: a folder emptied of both files looks like a first run.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from ..errors import StartupError
from ..files import PRIVATE, open_private

TEXT = ("Boardroom keeps this file beside its database {name}: the database held games (first noted {when}).\n"
        "If the database goes missing, Boardroom refuses to start an empty one in its place;\n"
        "restore a backup (python -m store restore FILE), or start with --new-database to begin afresh.\n")


def marker_path(db: Path) -> Path:
    return db.with_name(db.name + ".held")


def check_missing(db: Path, *, new_database: bool) -> None:
    """Before opening: refuse a missing database that held games, unless told otherwise."""
    marker = marker_path(db)
    if db.exists() or not marker.exists():
        return
    if new_database:
        marker.unlink(missing_ok=True)
        return
    raise StartupError(
        f"The database {db} is missing, but it held games ({marker.name} beside it says so): restore a backup "
        f"(python -m store restore FILE), or start with --new-database to begin with an empty one.")


def note_held(db: Path) -> None:
    """The database holds games: write the marker (once; it is left as it is if present)."""
    marker = marker_path(db)
    if marker.exists():
        return
    fd = open_private(marker, os.O_WRONLY | os.O_TRUNC)
    try:
        os.write(fd, TEXT.format(name=db.name, when=time.strftime("%Y-%m-%d %H:%M:%S %Z")).encode())
    finally:
        os.close(fd)
    os.chmod(marker, PRIVATE)

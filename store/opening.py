"""Opening the database named by `BOARDROOM_DB`: a `postgresql://` URL, or an SQLite file path."""

from __future__ import annotations

from pathlib import Path

from .base import Store


def is_url(database: str | Path) -> bool:
    return str(database).startswith(("postgresql://", "postgres://"))


async def open_store(database: str | Path, *, new_database: bool = False) -> Store:
    """The store for `database`, its schema migrated first; a `StartupError` says why it cannot
    be used. The backends are imported here, so that the contract knows none of them.
    `new_database`: the operator's word that an SQLite file which held games and is now missing
    may start empty (store/sqlite/marker.py)."""
    if is_url(database):
        from .postgres import PostgresStore

        return await PostgresStore.connect(str(database))
    from .sqlite import SQLiteStore

    return await SQLiteStore.connect(Path(database), new_database=new_database)

"""The SQLite backend: `SQLiteStore` (store.py) on one aiosqlite connection (conn.py), one writing
process per file (lock.py)."""

from .store import SQLiteStore

__all__ = ["SQLiteStore"]

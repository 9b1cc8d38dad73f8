"""Persistence: games per channel, the action log, timers, settings and preferences.

`Store` is the contract (store/base.py); `open_store(BOARDROOM_DB)` (store/opening.py) returns the
SQLite backend for a file path (the default) or the PostgreSQL one for a `postgresql://` URL.
"""

from .base import Listening, Store
from .errors import AlreadyRunning, ChannelBusy, MigrationFailed, SchemaTooNew, StartupError, StoreError, StoreUnavailable
from .opening import is_url, open_store
from .rows import LIVE, GameRow, Seat, Shards, Timer
from .schema import MIGRATIONS

__all__ = [
    "LIVE", "MIGRATIONS", "AlreadyRunning", "ChannelBusy", "GameRow", "Listening", "MigrationFailed", "SchemaTooNew",
    "Seat", "Shards", "StartupError", "Store", "StoreError", "StoreUnavailable", "Timer", "is_url", "open_store",
]

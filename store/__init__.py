"""Persistence: games per channel, the action log, timers, settings and preferences.

`Store` is the contract (store/base.py); `Store.open(BOARDROOM_DB)` returns the SQLite backend
for a file path (the default) or the PostgreSQL one for a `postgresql://` URL.
"""

from .base import (
    MIGRATIONS, AlreadyRunning, ChannelBusy, MigrationFailed, SchemaTooNew, StartupError, Store, StoreError,
    StoreUnavailable, is_url,
)
from .rows import LIVE, GameRow, Seat, Shards, Timer

__all__ = [
    "LIVE", "MIGRATIONS", "AlreadyRunning", "ChannelBusy", "GameRow", "MigrationFailed", "SchemaTooNew", "Seat",
    "Shards", "StartupError", "Store", "StoreError", "StoreUnavailable", "Timer", "is_url",
]

"""Everything the store raises, for both backends."""

from __future__ import annotations


class StoreError(Exception):
    """Something the store could not do."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or running."""


class StoreUnavailable(StoreError):
    """The database refuses to do this for now (full disk, read-only file, a deleted database
    file, the server gone). Nothing was changed; the same call may work later."""


class StartupError(StoreError):
    """The bot cannot start on this database. `str()` is one line that says why and what to do."""


class AlreadyRunning(StartupError):
    """Another process already writes this database file."""


class SchemaTooNew(StartupError):
    """The database was written by a newer Boardroom (its schema is ahead of this code's)."""


class MigrationFailed(StartupError):
    """A migration failed; it was rolled back and the database is as it was."""


class Duplicate(StoreError):
    """A unique index refused a row (each backend turns its own error into this one)."""


class Lost(StoreError):
    """A compare-and-swap lost inside a transaction: it rolls back, and the caller reports False."""

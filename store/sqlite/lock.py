"""One writing process per SQLite file: an exclusive `flock` on `<db>.lock`, held while any
store of this process has the file open (a bot holds it for its whole life).

SQLite would let two processes write the same file, each with its own cache of games and its own
timer loop: both would fire the same deadlines and decide on stale copies. The second process to
start is refused at once instead. `flock` locks belong to an open file, so the kernel drops the
lock when the process dies, however it dies: no stale lock file to clean up after a crash.
Within one process, stores on the same file share the lock (a restart in the tests, a tool
opening the file beside the bot's store).
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

from ..errors import AlreadyRunning, StartupError
from ..files import open_private, permission_hint

_held: dict[str, list[int]] = {}  # lock path -> [fd, stores holding it]
_guard = threading.Lock()


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


def acquire(db: Path) -> str:
    """Take (or share, within this process) the writer's lock of `db`; the key to release it."""
    path = lock_path(db.resolve())
    key = str(path)
    with _guard:
        if key in _held:
            _held[key][1] += 1
            return key
        try:
            fd = open_private(path, os.O_RDWR)  # 0600: it names the database's folder and the pid
        except OSError as exc:
            raise StartupError(f"Cannot create the lock file {key} beside the database ({exc.strerror}). "
                               f"{permission_hint(path)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise AlreadyRunning(
                f"Another Boardroom process (pid {other}) is already using the database {db}: only one process may "
                "write an SQLite file. Stop that one first, or give this one its own BOARDROOM_DB.") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)  # who holds it, for the message above
        _held[key] = [fd, 1]
        return key


def release(key: str) -> None:
    with _guard:
        entry = _held.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            del _held[key]
            os.close(entry[0])  # closing the only descriptor drops the flock

"""Files the store writes beside an SQLite database (the database itself, its lock file, its
marker, backups, archives): created readable by their owner only (0600), whatever the umask.

The database holds every hand, every seed and every deck order: anyone who can read the file can
read every game (issue 25, finding 6). SQLite creates its `-wal` and `-shm` files with the mode of
the database file, so a database created 0600 keeps its journal private too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE = 0o600


def create_private(path: Path) -> bool:
    """Create `path` empty and 0600 if it does not exist (True if it was created here)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:
        return False
    os.close(fd)
    os.chmod(path, PRIVATE)  # O_CREAT's mode passes through the umask, which only removes bits
    return True


def open_private(path: Path, flags: int) -> int:
    """`os.open` with O_CREAT, the file 0600 when it is created here."""
    fd = os.open(path, flags | os.O_CREAT, PRIVATE)
    if stat.S_IMODE(os.fstat(fd).st_mode) & 0o077 and os.fstat(fd).st_uid == os.geteuid():
        os.fchmod(fd, PRIVATE)
    return fd


def tighten(path: Path) -> bool:
    """Make an existing file of ours 0600 if others could read it (True if it changed). A file
    owned by someone else is left alone: the operator chose that arrangement."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    if stat.S_IMODE(st.st_mode) & 0o077 and st.st_uid == os.geteuid():
        os.chmod(path, PRIVATE)
        return True
    return False


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def size_text(n: int) -> str:
    """A byte count as an operator reads it (1.2 MB)."""
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{n} B"


def whoami() -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(os.geteuid()).pw_name} (uid {os.geteuid()})"
    except (ImportError, KeyError):
        return f"uid {os.geteuid()}"


def permission_hint(path: Path) -> str:
    """Why this process may not write `path` (or create it in its folder), and what to do: the
    one line an operator needs when a service user, a volume or a unit's sandbox does not match."""
    target = path if path.exists() else path.parent
    try:
        st = os.stat(target)
        owner = f"belongs to uid {st.st_uid} with mode {stat.S_IMODE(st.st_mode):04o}"
    except OSError:
        owner = "cannot be examined"
    what = "the file" if target == path else "its folder"
    return (f"Boardroom runs as {whoami()}, and {what} {target} {owner}: give it to that user (chown) or run the "
            "bot as its owner; under systemd, StateDirectory=boardroom makes /var/lib/boardroom the bot's, and "
            "ProtectSystem=strict makes every other path read-only.")


def writable(path: Path) -> bool:
    """Whether this process may write `path`, or create it in its folder."""
    if path.exists():
        return os.access(path, os.R_OK | os.W_OK)
    return os.access(path.parent, os.W_OK | os.X_OK)

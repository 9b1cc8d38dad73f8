"""The numbered migrations of each backend (store/migrations/<backend>/NNNN_name.sql)."""

from __future__ import annotations

from pathlib import Path

from .errors import SchemaTooNew

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def known_version(folder: Path) -> int:
    """The newest migration number in a backend's folder."""
    return max((int(p.name.split("_")[0]) for p in folder.glob("*.sql")), default=0)


def pending_migrations(folder: Path, current: int, where: str) -> list[tuple[int, Path]]:
    """The migrations newer than `current`, in order; `SchemaTooNew` if the database is ahead."""
    known = known_version(folder)
    if current > known:
        raise SchemaTooNew(
            f"{where} has schema version {current}, newer than this Boardroom knows ({known}): it was written by "
            "a newer version. Run that version (or restore a backup made for this one); nothing was changed.")
    return sorted((int(p.name.split("_")[0]), p) for p in folder.glob("*.sql") if int(p.name.split("_")[0]) > current)

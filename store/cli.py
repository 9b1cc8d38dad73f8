"""`python -m store`: the operator's commands for the database named by BOARDROOM_DB (or --db).

    python -m store backup DEST                   a consistent copy while the bot runs (SQLite's
                                                  online backup API; PostgreSQL: pg_dump)
    python -m store restore SRC                   put a backup back (the bot stopped; the database
                                                  as it was is kept beside it first)
    python -m store prune --finished-before DAYS  archive finished games' logs to a compressed
                                                  file, then delete them from the database
    python -m store rerate                        rebuild every rating from the stored results,
                                                  in the order the games ended (store/ratings/)

Each prints one line and exits 0, or prints one line saying why not and exits 1 (2: a usage
error). It lives in store/ and knows nothing above it: it reads BOARDROOM_DB itself (and the
`.env` beside bot.py, as the bot does), with the bot's default file when unset.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

from .errors import StartupError
from .opening import is_url, open_store

ROOT = Path(__file__).resolve().parents[1]
#: The bot's default database (config.py's `database_setting`): boardroom.db beside bot.py.
DEFAULT_DB = ROOT / "boardroom.db"


def database(given: str | None) -> str:
    if given:
        return given
    try:
        from dotenv import load_dotenv

        load_dotenv(ROOT / ".env")
    except ImportError:
        pass
    return (os.environ.get("BOARDROOM_DB") or "").strip() or str(DEFAULT_DB)


def foreign_owner(db: Path) -> str | None:
    """Root working on a file the bot's user owns would leave files (`-shm`, `-wal`, the lock)
    that user cannot open: the next start would fail. Say so instead."""
    if os.geteuid() != 0 or not db.exists():
        return None
    owner = db.stat().st_uid
    if owner == 0:
        return None
    return (f"{db} belongs to uid {owner}, and this runs as root: run it as the bot's user "
            f"(sudo -u '#{owner}' python -m store ...), so that the files it creates stay usable by the bot.")


def backup(db: str, dest: Path) -> str:
    if is_url(db):
        from .postgres.dump import dump

        return dump(db, dest)
    from .sqlite.backup import backup as sqlite_backup

    return sqlite_backup(Path(db), dest).line("wrote")


def restore(db: str, src: Path) -> str:
    if is_url(db):
        from .postgres.dump import restore as pg_restore

        return pg_restore(src, db)
    from .sqlite import SQLiteStore
    from .sqlite.backup import restore as sqlite_restore
    from .sqlite.marker import note_held

    copy, kept = sqlite_restore(src, Path(db), SQLiteStore.migrations)
    if copy.games:
        note_held(Path(db))
    line = copy.line("restored")
    return line + (f"; the database as it was is kept as {kept}" if kept else "")


async def prune(db: str, days: float, where: Path) -> str:
    from .prune import prune as run_prune

    store = await open_store(db)
    try:
        return (await run_prune(store, time.time() - days * 86400, where)).line()  # type: ignore[arg-type]
    finally:
        await store.close()


async def rerate(db: str) -> str:
    from .ratings.rebuild import rerate as run_rerate

    store = await open_store(db)
    try:
        return (await run_rerate(store)).line()  # type: ignore[arg-type]
    finally:
        await store.close()


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m store", description="Back up, restore, prune and "
                                  "rerate Boardroom's database (BOARDROOM_DB, or --db).")
    top.add_argument("--db", help="the SQLite file or postgresql:// URL (default: BOARDROOM_DB)")
    verbs = top.add_subparsers(dest="verb", required=True)
    b = verbs.add_parser("backup", help="a consistent copy, while the bot runs")
    b.add_argument("dest", type=Path, help="a file, or a folder to put a dated file in")
    r = verbs.add_parser("restore", help="put a backup back (stop the bot first)")
    r.add_argument("src", type=Path, help="the backup file")
    p = verbs.add_parser("prune", help="archive and delete finished games' logs")
    p.add_argument("--finished-before", type=float, required=True, metavar="DAYS",
                   help="games finished more than DAYS days ago")
    p.add_argument("--archive-dir", type=Path, help="where the archive goes (default: beside the database)")
    verbs.add_parser("rerate", help="rebuild every rating from the stored results, in order")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    db = database(args.db)
    from .postgres.dump import DumpError
    from .sqlite.backup import BackupError

    try:
        if not is_url(db):
            problem = foreign_owner(Path(db))
            if problem:
                raise StartupError(problem)
        if args.verb == "backup":
            line = backup(db, args.dest)
        elif args.verb == "restore":
            line = restore(db, args.src)
        elif args.verb == "rerate":
            line = asyncio.run(rerate(db))
        else:
            if args.finished_before < 0:
                raise StartupError("--finished-before takes a number of days, 0 or more.")
            where = args.archive_dir or (Path(db).resolve().parent if not is_url(db) else Path.cwd())
            if not where.is_dir():
                raise StartupError(f"The archive folder {where} does not exist.")
            line = asyncio.run(prune(db, args.finished_before, where))
    except (BackupError, DumpError, StartupError) as error:
        print(f"python -m store {args.verb}: {error}", file=sys.stderr)
        return 1
    print(line)
    return 0

"""The backup commands of the command line: ``earmark backups`` and ``earmark restore-backup``. They work on the
library file itself, so they run even when the library cannot be opened (that is when a backup is needed).
``earmark compact`` gives the library's free space back (a VACUUM), as the window does after an upgrade."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

from earmark.cli.common import print_json
from earmark.core.db.backups import daily_backup, list_backups, make_backup, restore_backup
from earmark.core.db.compaction import compact, compaction_due
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.errors import BackupError, LibraryError
from earmark.core.settings import get_setting


def backups_command(listing: argparse.ArgumentParser) -> None:
    """list the library's automatic backups, newest first"""
    listing.add_argument("--now", action="store_true", help="make a backup first (kept until you delete it)")
    listing.add_argument("--json", action="store_true", help="print a JSON array of {path, created, kind, size}")
    listing.set_defaults(run_on_path=_backups)


def restore_backup_command(restore: argparse.ArgumentParser) -> None:
    """replace the library with a backup (the current one is moved aside, not deleted)"""
    restore.add_argument("backup", metavar="BACKUP", help="a number from `earmark backups` (1: the newest) or a file")
    restore.set_defaults(run_on_path=_restore_backup)


def compact_command(compacting: argparse.ArgumentParser) -> None:
    """give the library's free space back to the disk (the window does it by itself after an upgrade)"""
    compacting.add_argument("--json", action="store_true", help="print {before, after, was_due} (bytes)")
    compacting.set_defaults(run_on_path=_compact)


def daily_backup_for(db: Database, args: argparse.Namespace) -> None:
    """``refresh`` is what cron runs: it keeps the daily backup too (when none was made today). A failure is
    said on stderr and the refresh goes on."""
    if args.read_only:
        return
    try:
        daily_backup(args.library, int(get_setting(db, "backups.keep")))  # type: ignore[call-overload]
    except (LibraryError, OSError, sqlite3.Error) as exc:
        print(f"earmark: the daily backup was not made: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)


def _backups(library: Path, args: argparse.Namespace) -> int:
    if args.now:
        made = make_backup(library)
        print(f"Backed up the library to {made.path}.", file=sys.stderr if args.json else sys.stdout)
    backups = list_backups(library)
    if args.json:
        print_json([backup.as_json() for backup in backups])
        return 0
    if not backups:
        print(f"There are no backups of {library} yet.")
    for number, backup in enumerate(backups, start=1):
        print(f"{number:>3}  {backup.created:%Y-%m-%d %H:%M}  {backup.kind:<16}  {backup.size / 1e6:8.1f} MB  "
              f"{backup.path}")
    return 0


def _compact(library: Path, args: argparse.Namespace) -> int:
    db = open_library(library)  # upgraded first, when it is older
    due = compaction_due(db.conn)
    db.close()
    result = compact(library, None if args.json else _progress_on_stderr())
    if args.json:
        print_json({"before": result.before, "after": result.after, "was_due": due})
    else:
        print(f"Compacted {library}: {result.before / 1e6:.1f} MB -> {result.after / 1e6:.1f} MB.")
    return 0


def compact_if_due(db: Database, library: Path) -> None:
    """A refresh or import run in a terminal that left a compaction due (10,000 items or more, a page split at a
    time) compacts the library before it ends, progress on stderr: the file it leaves is the size it stays."""
    if compaction_due(db.conn):
        result = compact(library, _progress_on_stderr())
        print(f"Compacted the library: {result.before / 1e6:.1f} MB -> {result.after / 1e6:.1f} MB.",
              file=sys.stderr)


def _progress_on_stderr() -> Callable[[float], None]:
    """Progress in steps of 10 %, on stderr."""
    shown = [-1]

    def progress(share: float) -> None:
        if int(share * 10) > shown[0]:
            shown[0] = int(share * 10)
            print(f"Compacting the library: {shown[0] * 10} %", file=sys.stderr, flush=True)

    return progress


def _restore_backup(library: Path, args: argparse.Namespace) -> int:
    chosen = _chosen(library, args.backup)
    aside = restore_backup(library, chosen)
    open_library(library).close()  # upgrades an older backup now, with its own backup first
    print(f"Restored {chosen} as the library {library}.")
    if aside is not None:
        print(f"The library as it was is kept as {aside}.")
    return 0


def _chosen(library: Path, text: str) -> Path:
    if text.isdigit():
        backups = list_backups(library)
        number = int(text)
        if not 1 <= number <= len(backups):
            raise BackupError(f"There is no backup number {number}: `earmark backups` lists {len(backups)}.")
        return backups[number - 1].path
    return Path(text).expanduser()

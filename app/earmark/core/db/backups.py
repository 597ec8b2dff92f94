"""Copies of the library file in ``backups/`` beside it: daily (the newest N kept), on request, and the
library as it was before a restore; plus the copies made before each migration (``library.db.vN.bak``).
Restoring one puts a checked copy in the library's place and moves the current library aside, never deleting
it. (``earmark backup``'s JSON export is core/notes/backup.py.)"""

from __future__ import annotations

import os
import re
import sqlite3
from datetime import datetime
from pathlib import Path

from earmark.core.db.backup_files import backups_folder, restoring_path
from earmark.core.db.connection import copy_database, library_error, read_only_uri
from earmark.core.db.schema import SCHEMA_VERSION
from earmark.core.db.show_notes_text import add_text_function
from earmark.core.errors import BackupError, LibraryDamagedError, LibraryError
from earmark.core.privacy import private_folder
from earmark.core.records import record

KINDS = ("daily", "manual", "before-restore", "before-migration")
_STAMP = "%Y-%m-%d-%H%M%S"
_SIDE_FILES = ("-wal", "-shm")


@record(frozen=True)
class Backup:
    """One backup file: where, when it was made (local time), why (one of KINDS) and its size in bytes."""

    path: Path
    created: datetime
    kind: str
    size: int

    def as_json(self) -> dict[str, object]:
        """The object ``earmark backups --json`` prints (a contract: add fields, never rename them)."""
        return {"path": str(self.path), "created": self.created.isoformat(timespec="seconds"), "kind": self.kind,
                "size": self.size}

    def label(self) -> str:
        """How the window lists it: ``2024-05-20 03:15, daily, 12.3 MB``."""
        return f"{self.created:%Y-%m-%d %H:%M}, {self.kind.replace('-', ' ')}, {self.size / 1e6:.1f} MB"


def list_backups(library: Path) -> list[Backup]:
    """The library's backups, newest first (a folder that cannot be read has none)."""
    found = []
    pattern = re.compile(rf"{re.escape(library.stem)}-(\d{{4}}-\d\d-\d\d-\d{{6}})-({'|'.join(KINDS)})(?:-\d+)?"
                         rf"{re.escape(library.suffix)}")
    try:
        candidates = list(backups_folder(library).iterdir())
    except OSError:
        candidates = []
    for path in candidates:
        match = pattern.fullmatch(path.name)
        if match and path.is_file():
            found.append(Backup(path, datetime.strptime(match[1], _STAMP), match[2], path.stat().st_size))
    migration = re.compile(rf"{re.escape(library.name)}\.v\d+\.bak")
    try:
        beside = list(library.parent.iterdir())
    except OSError:
        beside = []
    for path in beside:
        if migration.fullmatch(path.name) and path.is_file():
            stat = path.stat()
            found.append(Backup(path, datetime.fromtimestamp(stat.st_mtime), "before-migration", stat.st_size))
    return sorted(found, key=lambda b: (b.created, b.path.name), reverse=True)


def make_backup(library: Path, kind: str = "manual", now: datetime | None = None) -> Backup:
    """Copy the library into the backups folder through SQLite's backup API (others may keep writing) and
    check the copy. A damaged library is not copied: LibraryDamagedError, and nothing is removed."""
    target = _new_name(library, kind, now or datetime.now())
    try:
        copy_database(library, target, check=True)
    except LibraryDamagedError as exc:
        raise LibraryDamagedError(f"The library is damaged ({_detail(exc)}), so it was not backed up; the earlier "
                                  "backups were kept. Restore one of them (File → Restore from Backup…, or "
                                  "earmark restore-backup).") from exc
    except sqlite3.DatabaseError as exc:
        if isinstance(library_error(exc), LibraryDamagedError):
            raise LibraryDamagedError(f"The library is damaged ({exc}), so it was not backed up; the earlier "
                                      "backups were kept.") from exc
        raise LibraryError(f"The backup {target} could not be written ({exc}); the earlier backups were "
                           "kept.") from exc
    except OSError as exc:
        raise LibraryError(f"The backup {target} could not be written ({exc.strerror or exc}); the earlier "
                           "backups were kept.") from exc
    return Backup(target, _stamp_of(target), kind, target.stat().st_size)


def daily_backup(library: Path, keep: int, now: datetime | None = None) -> Backup | None:
    """Make today's backup unless there is one already (none at all when ``keep`` is 0, nor while the library
    holds nothing: a new library's copy would stand for the day while the user's first import went unsaved), then
    delete the daily backups beyond the newest ``keep``. Returns the new backup, if one was made."""
    if keep <= 0 or not library.exists() or _holds_nothing(library):
        return None
    now = now or datetime.now()
    dailies = [b for b in list_backups(library) if b.kind == "daily"]
    if dailies and dailies[0].created.date() >= now.date():
        return None
    made = make_backup(library, "daily", now)  # checked before any older one is deleted
    for old in [made, *dailies][keep:]:
        old.path.unlink(missing_ok=True)
    return made


def _holds_nothing(library: Path) -> bool:
    """Whether the library has no source and no item (settings alone are not worth a copy). A library that cannot
    be read says no: make_backup then says what is wrong with it."""
    try:
        db = sqlite3.connect(read_only_uri(library), uri=True)
        try:
            row = db.execute("SELECT NOT EXISTS (SELECT 1 FROM sources) AND NOT EXISTS (SELECT 1 FROM items)")
            return bool(row.fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return False


def check_backup(path: Path) -> int:
    """Make sure ``path`` is an intact Earmark library this version can open; returns its schema version.
    Raises BackupError with a sentence otherwise."""
    if not path.is_file():
        raise BackupError(f"There is no backup file {path}.")
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True)
        add_text_function(conn)  # its check reads the items' text
    except sqlite3.Error as exc:
        raise BackupError(f"{path} cannot be read ({exc}).") from exc
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not an intact Earmark library ({exc}); nothing was restored.") from exc
    finally:
        conn.close()
    if version == 0 or not {"items", "sources", "notes"} <= tables:
        raise BackupError(f"{path} is not an Earmark library; nothing was restored.")
    if version > SCHEMA_VERSION:
        raise BackupError(f"{path} was written by a newer version of Earmark; nothing was restored.")
    if problems != ["ok"]:
        raise BackupError(f"{path} is damaged ({problems[0].splitlines()[-1]}); nothing was restored.")
    return version


def restore_backup(library: Path, backup: Path, now: datetime | None = None) -> Path | None:
    """Put a copy of ``backup`` in the library's place. The current library (with its -wal, which may hold its
    latest changes) is moved into the backups folder first, never deleted; returns where it went (None when
    there was no library). No connection to the library may be open, in this process or another: a library
    in use is refused (BackupError).

    A copy is made and checked before anything is moved; a restore interrupted between the two renames is
    finished by the next open_library."""
    check_backup(backup)
    if library_in_use(library):
        raise BackupError(f"The library {library} is open in another program (the window, or a refresh); close it "
                          "and try again. Nothing was restored.")
    now = now or datetime.now()
    waiting = restoring_path(library)
    try:
        copy_database(backup, waiting, check=True)
    except (LibraryDamagedError, sqlite3.DatabaseError) as exc:
        raise BackupError(f"{backup} could not be copied ({_detail(exc)}); nothing was restored.") from exc
    except OSError as exc:
        raise BackupError(f"{backup} could not be copied beside the library ({exc.strerror or exc}); nothing "
                          "was restored.") from exc
    aside = None
    if library.exists():
        aside = _new_name(library, "before-restore", now)
        # The -wal (which may hold the latest changes) and -shm go first: a -wal left behind would be taken for
        # the restored library's. Stopped after them, the next open_library finishes the move.
        for suffix in _SIDE_FILES:
            side = library.with_name(library.name + suffix)
            if side.exists():
                side.replace(aside.with_name(aside.name + suffix))
        library.replace(aside)
    waiting.replace(library)
    return aside


# SQLite's lock bytes (unix VFS): each connection that has read a WAL library keeps a read lock on this range.
_SHARED_FIRST = 0x40000000 + 2
_SHARED_SIZE = 510


def library_in_use(library: Path) -> bool:
    """Whether another process has the library open: it then holds a read lock on SQLite's shared-lock bytes,
    so a write lock on them cannot be had. The lock is only tried, never kept, and the file is not opened by
    SQLite (a writing connection to a damaged library would delete its -wal). Locks of this process do not
    count: close its connections first."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system: no way to tell
        return False
    try:
        fd = os.open(library, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, _SHARED_SIZE, _SHARED_FIRST)
    except OSError:
        return True
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, _SHARED_SIZE, _SHARED_FIRST)
        return False
    finally:
        os.close(fd)


def _new_name(library: Path, kind: str, when: datetime) -> Path:
    folder = private_folder(backups_folder(library))
    base = f"{library.stem}-{when:{_STAMP}}-{kind}"
    target = folder / f"{base}{library.suffix}"
    number = 2
    while target.exists():
        target = folder / f"{base}-{number}{library.suffix}"
        number += 1
    return target


def _stamp_of(path: Path) -> datetime:
    match = re.search(r"(\d{4}-\d\d-\d\d-\d{6})", path.name)
    assert match is not None  # our own name
    return datetime.strptime(match[1], _STAMP)


def _detail(exc: BaseException) -> str:
    text = str(exc)
    return text.split("(", 1)[1].rsplit(")", 1)[0] if "(" in text else text


def backup_counts(path: Path) -> dict[str, int]:
    """How many items, notes and sources a backup holds (for the window's confirmation)."""
    conn = sqlite3.connect(read_only_uri(path), uri=True)
    try:
        return {table: int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
                for table in ("items", "notes", "sources")}
    finally:
        conn.close()


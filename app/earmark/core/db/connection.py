"""Opening a library file: checks, pragmas, migrations with a backup first."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from earmark.core.db.migrations import MIGRATIONS, apply_migrations, schema_version
from earmark.core.errors import LibraryError, LibraryTooNewError


def open_library(path: str | Path, *, migrate: bool = True) -> sqlite_utils.Database:
    """Open (creating if missing) the library at ``path`` and bring its schema up to date.

    Raises LibraryError with a plain sentence when the file is not a library this version can use; the
    file is never modified in that case.
    """
    path = Path(path).expanduser()
    _check_is_sqlite(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=15, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise LibraryError(f"The library {path} cannot be opened: {getattr(exc, 'strerror', None) or exc}.") from exc
    try:
        version = schema_version(conn)
        if version > len(MIGRATIONS):
            raise LibraryTooNewError(
                f"The library {path} was written by a newer version of Earmark (schema {version}, this "
                f"version knows up to {len(MIGRATIONS)}). Please update Earmark to open it."
            )
        if version == 0 and _has_tables(conn):
            raise LibraryError(f"{path} is an SQLite database of another program, not an Earmark library; "
                               "it was left untouched.")
        _configure(conn)
        if migrate and version < len(MIGRATIONS):
            if version > 0:
                backup_before_migration(path, version)
            apply_migrations(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if "not a database" in str(exc):
            raise LibraryError(f"{path} is not an Earmark library (it is not an SQLite database); it was left "
                               "untouched.") from exc
        raise LibraryError(f"The library {path} cannot be used: {exc}.") from exc
    except LibraryError:
        conn.close()
        raise
    return sqlite_utils.Database(conn)


def _has_tables(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchone()[0] > 0


_SMALLEST_DATABASE = 512  # bytes: the smallest page size, so the smallest SQLite file that is not empty


def _check_is_sqlite(path: Path) -> None:
    """Refuse folders early. Whether a file is SQLite is left to SQLite itself: reading its header here
    with open()/close() would drop every POSIX lock this process holds on the library (closing any
    descriptor of a file does that), and another process would then take it for unused and reset the WAL
    under our open connections."""
    if path.is_dir():
        raise LibraryError(f"The library path {path} is a folder, not a library file.")
    try:
        size = path.stat().st_size
    except OSError:
        return  # missing (created later) or unreadable (SQLite says so)
    if 0 < size < _SMALLEST_DATABASE:  # SQLite would take such a stub for an empty database and write to it
        raise LibraryError(f"{path} is not an Earmark library (it is not an SQLite database); it was left untouched.")


def _configure(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA busy_timeout = 15000")
    conn.execute("PRAGMA foreign_keys = ON")
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode.lower() != "wal":
        raise LibraryError("The library cannot use write-ahead logging on this file system.")
    conn.execute("PRAGMA synchronous = NORMAL")


def backup_before_migration(path: Path, version: int) -> Path:
    """Copy the library (consistently, through SQLite) before its schema changes."""
    target = path.with_name(f"{path.name}.v{version}.bak")
    source = sqlite3.connect(path)
    try:
        dest = sqlite3.connect(target)
        with dest:
            source.backup(dest)
        dest.close()
    finally:
        source.close()
    return target



@contextmanager
def write_transaction(db: sqlite_utils.Database) -> Iterator[None]:
    """One atomic write. ``BEGIN IMMEDIATE`` takes the write lock up front, so a transaction that reads
    before it writes waits (busy_timeout) instead of failing when another process writes meanwhile.
    Nested use becomes a savepoint. Lock, disk-full and read-only failures become a LibraryError."""
    conn = db.conn
    try:
        if conn.in_transaction:
            with db.atomic():
                yield
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    except sqlite3.OperationalError as exc:
        raise library_error(exc) from exc


def library_error(exc: sqlite3.Error) -> LibraryError:
    """The sentence for a database failure the user can act on."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return LibraryError("The library is busy: another program kept it locked for too long. Nothing was "
                            "changed; please try again.")
    if "full" in text:
        return LibraryError("The disk that holds the library is full; nothing was changed.")
    if "readonly" in text or "read-only" in text:
        return LibraryError("The library is read-only; nothing was changed.")
    return LibraryError(f"The library could not be used: {exc}.")

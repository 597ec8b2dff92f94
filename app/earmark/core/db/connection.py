"""Opening a library file: checks, pragmas, migrations with a backup first, and a read-only mode."""

from __future__ import annotations

import errno
import glob
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from urllib.parse import quote

from earmark.core.db.backup_files import backups_folder, finish_interrupted_restore
from earmark.core.db.database import Database
from earmark.core.db.schema import SCHEMA_VERSION, schema_version
from earmark.core.errors import (
    LibraryBusyError,
    LibraryDamagedError,
    LibraryError,
    LibraryFullError,
    LibraryReadOnlyError,
    LibraryTooNewError,
)
from earmark.core.privacy import make_private, private_folder, tighten_library

BUSY_TIMEOUT_MS = 15000
# Less room than this on the library's disk counts as full: SQLite needs a few pages for its WAL and 32 KiB for
# the shared-memory file before it can even read a library in WAL mode.
FULL_BELOW_BYTES = 1024 * 1024

_batching: ContextVar[sqlite3.Connection | None] = ContextVar("batching", default=None)


def open_library(path: str | Path, *, migrate: bool = True, read_only: bool = False,
                 any_thread: bool = False) -> Database:
    """Open (creating if missing) the library at ``path`` and bring its schema up to date.

    Raises LibraryError with a plain sentence when the file is not a library this version can use; the
    file is never modified in that case. LibraryReadOnlyError (LibraryFullError for a full disk) says the
    library can only be read: ``read_only=True`` then opens it for reading (see open_library_or_read_only).
    With ``any_thread`` the connection may be closed by another thread than the one using it (at shutdown).
    """
    path = Path(path).expanduser()
    _check_is_sqlite(path)
    if read_only:
        return _open_read_only(path, any_thread)
    try:
        if not path.parent.exists():
            private_folder(path.parent)
        finish_interrupted_restore(path)
        _probe(path)
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                               check_same_thread=not any_thread)
    except (OSError, sqlite3.Error) as exc:
        raise _open_failure(path, exc) from exc
    try:
        version = schema_version(conn)
        _check_version(path, conn, version)
        _check_writable(path)
        _configure(conn)
        if migrate and version < SCHEMA_VERSION:
            from earmark.core.db.migrations import apply_migrations

            if version > 0:
                backup_before_migration(path, version)
            apply_migrations(conn)
        tighten_library(path, backups_folder(path))
    except (OSError, sqlite3.Error) as exc:
        conn.close()
        raise _open_failure(path, exc) from exc
    except BaseException:
        conn.close()
        raise
    return Database(conn)


def open_library_or_read_only(path: str | Path) -> tuple[Database, str | None]:
    """Open the library for reading and writing or, when it cannot be written (read-only file, folder or
    disk, or a full disk), for reading only. Returns the library and, when read-only, the sentence saying
    why nothing can be saved."""
    try:
        return open_library(path), None
    except LibraryReadOnlyError as exc:
        try:
            return open_library(path, read_only=True), str(exc)
        except LibraryError:
            raise exc from None  # the first reason is the one to act on (a full disk, a read-only folder)


def read_only_uri(path: Path) -> str:
    """The SQLite URI that opens ``path`` for reading only (``sqlite3.connect(..., uri=True)``)."""
    return f"file:{quote(str(path.absolute()))}?mode=ro"


def _open_read_only(path: Path, any_thread: bool = False) -> Database:
    """Read the library without writing anything: no -wal or -shm is created where the folder is read-only
    (SQLite then reads the file as immutable), no migration, and every write fails as read-only."""
    if not path.exists():
        raise LibraryError(f"The library {path} does not exist, and it cannot be created there.")
    uri = read_only_uri(path)
    try:
        conn = _connect_read_only(uri, any_thread)
    except sqlite3.Error as exc:
        raise _open_failure(path, exc) from exc
    try:
        version = schema_version(conn)
        _check_version(path, conn, version)
        if version < SCHEMA_VERSION:
            raise LibraryReadOnlyError(
                f"The library {path} must be upgraded to this version's format, which cannot happen while it "
                "is read-only; it was left untouched.")
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA query_only = ON")
    except sqlite3.Error as exc:
        conn.close()
        raise _open_failure(path, exc) from exc
    except BaseException:
        conn.close()
        raise
    return Database(conn)


def _connect_read_only(uri: str, any_thread: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=not any_thread)
    try:
        conn.execute("PRAGMA schema_version").fetchone()
    except sqlite3.OperationalError:
        conn.close()
        # A WAL library needs its -shm file even to be read; in a read-only folder or on a read-only or full disk
        # it cannot be made ("unable to open", "attempt to write a readonly database", "disk I/O error"). Then
        # SQLite reads the file as immutable: nothing here can write it (changes that only a -wal holds, after
        # a crash, are not seen until the library can be opened normally again).
        conn = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None, check_same_thread=not any_thread)
    return conn


def _probe(path: Path) -> None:
    """Look at an existing library read-only before opening it for writing: a writing connection to a file that
    is damaged or not a library deletes its -wal when it closes, and that -wal may hold the last changes made
    to it. Only damage, another program's database and a newer schema are refused here; anything else (a
    folder where even reading needs a new -shm file) is left to the real open."""
    try:
        if path.stat().st_size == 0:
            return
    except OSError:
        return
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error:
        return
    try:
        version = schema_version(conn)
        _check_version(path, conn, version)
    except sqlite3.DatabaseError as exc:
        failure = _open_failure(path, exc)
        if isinstance(failure, LibraryDamagedError):
            raise failure from exc
    finally:
        conn.close()


def _check_version(path: Path, conn: sqlite3.Connection, version: int) -> None:
    if version > SCHEMA_VERSION:
        raise LibraryTooNewError(
            f"The library {path} was written by a newer version of Earmark (schema {version}, this "
            f"version knows up to {SCHEMA_VERSION}). Please update Earmark to open it."
        )
    if version == 0 and _has_tables(conn):
        raise LibraryError(f"{path} is an SQLite database of another program, not an Earmark library; "
                           "it was left untouched.")


def _check_writable(path: Path) -> None:
    """SQLite quietly opens a file it may not write for reading only; say so now, so that the caller can open
    it read-only on purpose, rather than at the first write."""
    if not path.exists():
        return
    try:
        read_only_disk = bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except OSError:
        read_only_disk = False
    if read_only_disk or not os.access(path, os.W_OK):
        raise LibraryReadOnlyError(f"The library {path} is read-only ({unwritable_reason(path)}): it can be shown, "
                                   "but nothing can be saved.")


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
        raise LibraryDamagedError(f"{path} is not an Earmark library (it is not an SQLite database); it was left "
                                  "untouched.")


# A new library's page size: items with a few KB of show notes fill 32 KiB pages well, where two of them rarely fit
# in SQLite's default 4 KiB (a 100,000-episode library: 216 MiB of items instead of 294; 224 with 16 KiB pages).
PAGE_SIZE = 32768


def _configure(conn: sqlite3.Connection) -> None:
    if conn.execute("PRAGMA page_count").fetchone()[0] == 0:
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # only a new, empty file takes it
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode.lower() != "wal":
        raise LibraryError("The library cannot use write-ahead logging on this file system.")
    conn.execute("PRAGMA synchronous = NORMAL")


def backup_before_migration(path: Path, version: int) -> Path:
    """Copy the library (consistently, through SQLite) before its schema changes. The copy is written under
    a temporary name and renamed when complete, so an interrupted copy never passes for a backup."""
    target = path.with_name(f"{path.name}.v{version}.bak")
    copy_database(path, target)
    return target


def copy_database(source_path: Path, target: Path, *, check: bool = False) -> None:
    """Copy an SQLite database, compact (``VACUUM INTO``: a consistent snapshot, even while others write, without
    the free pages), to ``target``, through ``target``.partial so that ``target`` appears only complete. With
    ``check``, the copy must pass ``PRAGMA quick_check`` (else LibraryDamagedError naming the damage, and no copy
    is left); a source that SQLite cannot read at all raises sqlite3.DatabaseError."""
    # Named for this process and thread: two programs backing up at once (the window and a cron job) each
    # write their own copy, and the last rename wins with a complete file.
    from earmark.core.db.scrub import scrub_secrets  # with its addresses' parser: a copy's needs, not a start's

    partial = target.with_name(f"{target.name}.{os.getpid()}-{threading.get_ident()}.partial")
    _remove_stale_partials(target)
    source = sqlite3.connect(read_only_uri(source_path), uri=True,
                             timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        dest = _compact_copy(source, partial)
        try:
            dest.execute("PRAGMA journal_mode = DELETE")  # a backup is one self-contained file
            scrub_secrets(dest)
            if check:
                problems = [row[0] for row in dest.execute("PRAGMA quick_check(5)")]
                if problems != ["ok"]:
                    raise LibraryDamagedError(f"{source_path} is damaged ({problems[0].splitlines()[-1]})")
        finally:
            dest.close()
        make_private(partial)
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()


def _compact_copy(source: sqlite3.Connection, partial: Path) -> sqlite3.Connection:
    """``source`` copied to ``partial`` without its free pages, opened; where VACUUM INTO fails (a damaged library),
    a copy page by page, which the caller's check then names the damage of."""
    try:
        source.execute("VACUUM INTO ?", [str(partial)])
    except sqlite3.DatabaseError:
        partial.unlink(missing_ok=True)
        dest = sqlite3.connect(partial)
        try:
            source.backup(dest)
        except BaseException:
            dest.close()
            raise
        return dest
    return sqlite3.connect(partial)


STALE_PARTIAL_SECONDS = 3600  # no copy takes that long: an older partial copy was interrupted (killed)


def _remove_stale_partials(target: Path) -> None:
    try:
        leftovers = list(target.parent.glob(f"{glob.escape(target.name)}.*.partial*"))
    except OSError:
        return
    for leftover in leftovers:
        try:
            if time.time() - leftover.stat().st_mtime > STALE_PARTIAL_SECONDS:
                leftover.unlink()
        except OSError:
            pass  # gone already, or not ours to remove


@contextmanager
def write_transaction(db: Database) -> Iterator[None]:
    """One atomic write. ``BEGIN IMMEDIATE`` takes the write lock up front, so a transaction that reads
    before it writes waits (busy_timeout) instead of failing when another process writes meanwhile.
    Nested use becomes a savepoint (inside ``batch_transaction``: part of it). Lock, disk-full and read-only
    failures become a LibraryError. Before committing, the search vocabulary learns the words of what changed
    (core/db/search_words.py, loaded with the first write: a start that only reads needs none of it)."""
    from earmark.core.db.search_words import learn_pending

    conn = db.conn
    try:
        if conn.in_transaction and _batching.get() is conn:
            yield
            return
        if conn.in_transaction:
            with db.savepoint():
                yield
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            # The schema read first, on its own: after a relation pass in another process dropped or made indexes,
            # a first statement that also opens the search index's virtual tables failed to prepare with
            # SQLITE_SCHEMA ("no such table: transcripts": a transcript made beside a full pass was lost).
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            yield
            learn_pending(conn)
            conn.execute("COMMIT")
        except BaseException:
            # Also when COMMIT itself failed (the disk filled up as the WAL grew): a transaction left open
            # would swallow every later write on this connection into a savepoint that never commits.
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as exc:
        raise library_error(exc) from exc


@contextmanager
def batch_transaction(db: Database) -> Iterator[None]:
    """One atomic write of many smaller ones: the write transactions inside it join it instead of each being a
    savepoint. A savepoint makes the search index write out what it holds (FTS5 flushes on every savepoint), so
    a batch of 300 feeds wrote 300 small index segments; an error anywhere still undoes the whole batch."""
    with write_transaction(db):
        token = _batching.set(db.conn)
        try:
            yield
        finally:
            _batching.reset(token)


def library_error(exc: sqlite3.Error, path: Path | None = None) -> LibraryError:
    """The sentence for a database failure the user can act on (``path``: the library, to tell a full disk
    from other I/O errors)."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return LibraryBusyError("The library is busy: another program kept it locked for too long. Nothing was "
                                "changed; please try again.")
    if "full" in text or (path is not None and "disk i/o" in text and disk_is_full(path)):
        return LibraryFullError("The disk that holds the library is full; nothing was changed.")
    if "readonly" in text or "read-only" in text:
        return LibraryReadOnlyError("The library is read-only; nothing was changed.")
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return LibraryDamagedError(f"The library file is damaged ({exc}); nothing was changed. Restore a backup "
                                   "(File → Restore from Backup…, or earmark restore-backup).")
    return LibraryError(f"The library could not be used: {exc}.")


def disk_is_full(path: Path) -> bool:
    """Whether the disk that holds ``path`` (a file or folder, existing or not) has next to no room left."""
    folder = path if path.is_dir() else path.parent
    try:
        return shutil.disk_usage(folder).free < FULL_BELOW_BYTES
    except OSError:
        return False


def unwritable_reason(path: Path) -> str | None:
    """Why the library at ``path`` cannot be written, when the file system says so (None: it can be)."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "the disk it is on is mounted read-only"
    except OSError:
        return None
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is read-only"
    if not os.access(folder, os.W_OK):
        return f"its folder {folder} is read-only"
    return None


def _open_failure(path: Path, exc: OSError | sqlite3.Error) -> LibraryError:
    """The sentence for a library that could not be opened (the file was not changed)."""
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ENOSPC:
            return _full(path)
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM) and path.exists():
            return LibraryReadOnlyError(f"The library {path} is read-only ({unwritable_reason(path) or reason}): "
                                        "it can be shown, but nothing can be saved.")
        return LibraryError(f"The library {path} cannot be opened: {reason}.")
    text = str(exc).lower()
    if "not a database" in text or "encrypted" in text:
        return LibraryDamagedError(f"{path} is not an Earmark library (it is not an SQLite database); it was left "
                                   "untouched.")
    if "malformed" in text or "corrupt" in text:
        return LibraryDamagedError(f"The library {path} is damaged ({exc}); it was left untouched. Restore a backup "
                                   "or open another library.")
    if "full" in text or (("disk i/o" in text or "unable to open" in text) and disk_is_full(path)):
        return _full(path)
    why = unwritable_reason(path)
    if why is not None and not path.exists():
        return LibraryError(f"The library {path} cannot be created: {why}.")
    if ("readonly" in text or "read-only" in text or "unable to open" in text or "disk i/o" in text) \
            and why is not None and path.exists():
        return LibraryReadOnlyError(f"The library {path} is read-only ({why}): it can be shown, but nothing can "
                                    "be saved.")
    if "locked" in text or "busy" in text:
        return LibraryBusyError(f"The library {path} is busy: another program kept it locked for too long. "
                                "Please try again.")
    return LibraryError(f"The library {path} cannot be used: {exc}.")


def _full(path: Path) -> LibraryFullError:
    return LibraryFullError(f"The disk that holds the library {path} is full: it can be shown, but nothing can be "
                            "saved until there is room again.")

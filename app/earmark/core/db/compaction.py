"""Giving a library's free space back to the disk: a VACUUM, after a migration that made the rows smaller
(schema 19), in the background and with progress.

A compaction due is a row of ``settings`` (not a setting a person sets): it stays until a VACUUM has finished, so a
compaction killed half-way (SQLite's VACUUM is atomic: the library is as before) runs again at the next start."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from earmark.core.records import record

DUE = "library.compaction_due"
_STEPS = 1000  # SQLite instructions between two calls of the progress handler
# Instructions a VACUUM runs per byte of the library, about (measured on issue 40's library of 20,000 items, 91 MB
# before: 779,000): the progress shown is an estimate, held below 99 % until the VACUUM is done.
STEPS_PER_BYTE = 0.0085


@record
class Compacted:
    """A library's size before and after its compaction, in bytes."""

    before: int
    after: int


def library_size(path: Path) -> int:
    """The bytes of the library's file and its write-ahead log."""
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def mark_compaction_due(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, 'true')", [DUE])


def compaction_due(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM settings WHERE key = ?", [DUE]).fetchone() is not None


def compact(path: Path, progress: Callable[[float], object] | None = None, *, timeout: float = 30.0) -> Compacted:
    """VACUUM the library at ``path`` (on its own connection: other connections may go on reading), then clear the
    compaction due. ``progress`` gets the share done, 0 to 1, now and then."""
    before = library_size(path)
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    try:
        if progress is not None:
            expected = max(1.0, before * STEPS_PER_BYTE / _STEPS)
            calls = [0]

            def tick() -> int:
                calls[0] += 1
                progress(min(0.99, calls[0] / expected))
                return 0

            conn.set_progress_handler(tick, _STEPS)
        conn.execute("VACUUM")
        conn.set_progress_handler(None, 0)
        conn.execute("DELETE FROM settings WHERE key = ?", [DUE])
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    if progress is not None:
        progress(1.0)
    return Compacted(before, library_size(path))

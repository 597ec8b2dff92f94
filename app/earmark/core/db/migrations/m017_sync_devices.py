"""Schema 17 (sync_devices): one sync per library at a time (``sync_lock``)."""

from __future__ import annotations

import sqlite3


def m017_sync_devices(conn: sqlite3.Connection) -> None:
    """The sync lock: a row while a process syncs the library (its id and computer, and since when)."""
    conn.execute("""CREATE TABLE sync_lock (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        pid INTEGER NOT NULL,
                        host TEXT NOT NULL,
                        since TEXT NOT NULL
                    )""")

"""Schema 17 (sync_devices): one sync per library at a time (``sync_lock``); feeds that moved keep the address
the sync server knows them by (``sync_known_as``, written by the journal's triggers); podcasts subscribed to
(again) wait for their actions (``sync_refetch``); and each library has an id
of its own (``sync_library``), which makes its default device id and its sync password's keyring entry its own."""

from __future__ import annotations

import sqlite3

from earmark.core.db.migrations.sync_triggers import sync_triggers


def m017_sync_devices(conn: sqlite3.Connection) -> None:
    """The sync lock: a row while a process syncs the library (its id and computer, and since when). The
    address the server knows a moved feed by; the journal's triggers remade to send changes under it."""
    conn.execute("""CREATE TABLE sync_lock (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        pid INTEGER NOT NULL,
                        host TEXT NOT NULL,
                        since TEXT NOT NULL
                    )""")
    conn.execute("CREATE TABLE sync_library (id INTEGER PRIMARY KEY CHECK (id = 1), uid TEXT NOT NULL)")
    conn.execute("INSERT INTO sync_library (id, uid) VALUES (1, lower(hex(randomblob(3))))")
    conn.execute("CREATE TABLE sync_known_as (source_id INTEGER PRIMARY KEY, url TEXT NOT NULL)")
    # Podcasts subscribed to (again) whose actions the server has yet to hand over: kept until they are applied.
    conn.execute("CREATE TABLE sync_refetch (podcast TEXT PRIMARY KEY) WITHOUT ROWID")
    triggers = [name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND (name LIKE 'sync\\_journal\\_%' ESCAPE '\\' "
        "OR name = 'sync_clock_local')")]
    for name in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    for statement in sync_triggers(known_addresses=True):
        conn.execute(statement)

"""Schema 8: the sync account and journal (gpodder.net / Nextcloud gPodder Sync), and passwords taken out of
the feeds' rows and addresses."""

from __future__ import annotations

import sqlite3
from urllib.parse import unquote, urlsplit, urlunsplit

from earmark.core.db.migrations.sync_triggers import sync_triggers

_PORTS = {"http": 80, "https": 443}


def m008_sync_and_secrets(conn: sqlite3.Connection) -> None:
    """Tables for sync and for passwords waiting for the keyring; every feed password moves out of ``sources``
    (and out of addresses such as ``https://alice:pw@host/feed``) into ``secrets``, from where Earmark moves
    it into the system keyring as soon as one answers (core/secrets/store.py), wiping it from the file."""
    statements = [
        # Passwords kept in the library: only until a keyring takes them, or when the user opted in to that.
        """CREATE TABLE secrets (
            service TEXT NOT NULL,
            user TEXT NOT NULL,
            password TEXT NOT NULL,
            PRIMARY KEY (service, user)
        ) WITHOUT ROWID""",
        # The one sync account; the ``*_since`` are the server's timestamps the next download starts from.
        """CREATE TABLE sync_account (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            kind TEXT NOT NULL CHECK (kind IN ('gpodder', 'nextcloud')),
            server TEXT NOT NULL,
            user TEXT NOT NULL,
            device TEXT NOT NULL,
            registered_caption TEXT,
            subscriptions_since INTEGER NOT NULL DEFAULT 0,
            actions_since INTEGER NOT NULL DEFAULT 0,
            clock_offset REAL NOT NULL DEFAULT 0,
            last_sync TEXT,
            last_attempt TEXT,
            last_error TEXT,
            failures INTEGER NOT NULL DEFAULT 0,
            created TEXT NOT NULL
        )""",
        # Local changes not sent yet. ``batch`` is set while a row is being sent: a sync killed then finds
        # out from the server whether it arrived before sending it again.
        """CREATE TABLE sync_journal (
            id INTEGER PRIMARY KEY,
            action TEXT NOT NULL CHECK (action IN ('subscribe', 'unsubscribe', 'play', 'download', 'delete', 'new')),
            podcast TEXT NOT NULL,
            episode TEXT,
            guid TEXT,
            item_id INTEGER,
            started REAL,
            position REAL,
            total REAL,
            at TEXT NOT NULL,
            batch INTEGER
        )""",
        "CREATE INDEX sync_journal_pending ON sync_journal (item_id, action) WHERE batch IS NULL",
        # Episode actions already sent or applied (a digest each), so that none is applied twice.
        "CREATE TABLE sync_seen (digest TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID",
        # When an episode's position or played mark last changed, and whether here (local) or from the server.
        """CREATE TABLE sync_clock (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            changed TEXT NOT NULL,
            local INTEGER NOT NULL
        )""",
        # Remote episode actions whose episode is not in the library yet (its feed not fetched yet).
        """CREATE TABLE sync_waiting (
            podcast TEXT NOT NULL,
            episode TEXT NOT NULL,
            guid TEXT,
            action TEXT NOT NULL,
            position REAL,
            total REAL,
            at INTEGER NOT NULL,
            PRIMARY KEY (podcast, episode)
        ) WITHOUT ROWID""",
        # Holds a row only inside the transaction that applies the server's changes (never committed).
        "CREATE TABLE sync_applying (applying INTEGER)",
    ]
    for statement in statements + sync_triggers():
        conn.execute(statement)
    before = conn.execute("PRAGMA secure_delete").fetchone()[0]
    conn.execute("PRAGMA secure_delete = ON")  # what is moved out is wiped from the file, not left in free space
    try:
        _move_feed_passwords(conn)
    finally:
        conn.execute(f"PRAGMA secure_delete = {int(before)}")


def _move_feed_passwords(conn: sqlite3.Connection) -> None:
    rows = conn.execute("SELECT id, url, auth_user, auth_password FROM sources WHERE url IS NOT NULL").fetchall()
    for source_id, url, user, password in rows:
        parts = urlsplit(url)
        if parts.username is not None:
            clean = urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))
            if not conn.execute("SELECT 1 FROM sources WHERE url = ?", [clean]).fetchone():
                conn.execute("UPDATE sources SET url = ? WHERE id = ?", [clean, source_id])
                url = clean
            if user is None:
                user, password = unquote(parts.username), unquote(parts.password or "")
        if user is None:
            continue
        if password is not None:
            conn.execute("INSERT OR REPLACE INTO secrets (service, user, password) VALUES (?, ?, ?)",
                         [f"earmark feed {_origin(url)}", user, password])
        conn.execute("UPDATE sources SET auth_user = ?, auth_password = NULL WHERE id = ?", [user, source_id])


def _origin(url: str) -> str:
    """As core/urls.py's origin() when this schema was made (a migration must not change with later code)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return f"{scheme}://{(parts.hostname or '').lower()}:{parts.port or _PORTS.get(scheme, 0)}"

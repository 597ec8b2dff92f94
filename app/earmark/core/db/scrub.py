"""Copies of a library (backups) hold no password: what the user chose to keep in the file, and what older
schemas held in feed rows and addresses, is wiped from each copy."""

from __future__ import annotations

import sqlite3

from earmark.core.urls import split_userinfo


def scrub_secrets(conn: sqlite3.Connection) -> None:
    """Wipe every password from a copy of a library (a backup never holds one): those kept in the library by
    choice, and any an older schema still held in feed rows or addresses."""
    tables = {str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.execute("PRAGMA secure_delete = ON")  # zeroed in the file, not left in free space
    with conn:
        if "secrets" in tables:
            conn.execute("DELETE FROM secrets")
        if "sources" in tables:
            columns = {str(row[1]) for row in conn.execute("PRAGMA table_info(sources)")}
            if "auth_password" in columns:
                conn.execute("UPDATE sources SET auth_password = NULL WHERE auth_password IS NOT NULL")
            for source_id, url in conn.execute("SELECT id, url FROM sources WHERE url LIKE '%@%'").fetchall():
                clean = split_userinfo(str(url)).url
                if clean != url and not conn.execute("SELECT 1 FROM sources WHERE url = ?", [clean]).fetchone():
                    conn.execute("UPDATE sources SET url = ? WHERE id = ?", [clean, source_id])

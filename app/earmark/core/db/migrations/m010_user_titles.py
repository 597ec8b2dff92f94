"""Schema 10: subscriptions whose title the user chose (in an OPML list from another app), kept across refreshes."""

from __future__ import annotations

import sqlite3


def m010_user_titles(conn: sqlite3.Connection) -> None:
    """``sources.user_title`` is 1 while ``title`` is the user's choice rather than the feed's: a refresh leaves
    it, until the feed itself takes that title (core/db/sources.py, follow_feed_title)."""
    conn.execute("ALTER TABLE sources ADD COLUMN user_title INTEGER NOT NULL DEFAULT 0")

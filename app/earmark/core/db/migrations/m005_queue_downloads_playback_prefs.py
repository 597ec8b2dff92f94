"""Schema 5: the "Up next" queue, episode downloads, cached podcast:chapters and per-podcast playback settings."""

from __future__ import annotations

import sqlite3


def m005_queue_downloads_playback_prefs(conn: sqlite3.Connection) -> None:
    """The "Up next" queue, episode downloads, cached podcast:chapters and per-podcast playback settings."""
    statements = [
        """CREATE TABLE queue (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            rank REAL NOT NULL
        )""",
        "CREATE INDEX queue_by_rank ON queue (rank)",
        # status: queued, downloading, paused, done, failed. ``received`` bytes are on disk in ``path``
        # (a .part file until done), so a paused or interrupted download resumes with an HTTP Range request.
        """CREATE TABLE downloads (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            path TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'queued',
            size INTEGER,
            received INTEGER NOT NULL DEFAULT 0,
            error TEXT,
            added TEXT NOT NULL,
            finished TEXT
        )""",
        "CREATE INDEX downloads_by_status ON downloads (status)",
        # podcast:chapters JSON fetched from ``url`` (refetched when the feed names another URL).
        """CREATE TABLE chapters_cache (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            chapters TEXT NOT NULL,
            fetched TEXT NOT NULL
        )""",
        "ALTER TABLE sources ADD COLUMN playback_speed REAL",  # NULL: the global playback.speed
        "ALTER TABLE sources ADD COLUMN skip_intro REAL NOT NULL DEFAULT 0",
        "ALTER TABLE sources ADD COLUMN skip_outro REAL NOT NULL DEFAULT 0",
        "ALTER TABLE sources ADD COLUMN voice_boost INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE sources ADD COLUMN auto_download INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX items_in_progress ON items (last_played) WHERE position > 0 AND played = 0",
    ]
    for statement in statements:
        conn.execute(statement)

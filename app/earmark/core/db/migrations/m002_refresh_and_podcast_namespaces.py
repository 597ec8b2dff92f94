"""Schema 2: per-feed refresh state (validators, credentials, back-off) and the iTunes/Podcasting 2.0 fields."""

from __future__ import annotations

import sqlite3


def m002_refresh_and_podcast_namespaces(conn: sqlite3.Connection) -> None:
    """Per-feed refresh state (validators, credentials, back-off) and the iTunes/Podcasting 2.0 fields."""
    columns = {
        "sources": [
            "content_hash TEXT",  # of the last body parsed: an unchanged body is not parsed again
            "auth_user TEXT",
            "auth_password TEXT",
            "failures INTEGER NOT NULL DEFAULT 0",  # failed checks in a row, for the back-off
            "retry_after TEXT",  # automatic refreshes leave the feed alone until then
            "last_new TEXT",  # when the last new item arrived
            "podcast_guid TEXT",
            "itunes_type TEXT",
            "explicit INTEGER",
            "locked INTEGER",
            "funding TEXT NOT NULL DEFAULT '[]'",  # JSON lists, as the feed gave them
            "persons TEXT NOT NULL DEFAULT '[]'",
        ],
        "items": [
            "image_url TEXT",
            "season INTEGER",
            "episode INTEGER",
            "episode_type TEXT",
            "explicit INTEGER",
            "chapters_url TEXT",
            "chapters_type TEXT",
            "transcripts TEXT NOT NULL DEFAULT '[]'",
            "persons TEXT NOT NULL DEFAULT '[]'",
        ],
    }
    for table, definitions in columns.items():
        for definition in definitions:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {definition}")
    conn.execute("CREATE INDEX items_by_title ON items (source_id, title)")

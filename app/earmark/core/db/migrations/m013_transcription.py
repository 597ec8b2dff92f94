"""Schema 13: transcripts made on this machine: the queue of episodes to transcribe, and podcasts whose new
episodes are transcribed when downloaded."""

from __future__ import annotations

import sqlite3


def m013_transcription(conn: sqlite3.Connection) -> None:
    """``transcribe_queue`` holds the episodes waiting (``error`` set: tried and failed, kept to be shown and not
    tried again); ``sources.transcribe_new`` is when "Transcribe New Episodes" was turned on (NULL: off).
    A generated transcript is a row of ``transcripts`` whose ``url`` starts with ``generated:``."""
    conn.execute("""CREATE TABLE transcribe_queue (
        item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
        added TEXT NOT NULL,
        error TEXT
    )""")
    conn.execute("ALTER TABLE sources ADD COLUMN transcribe_new TEXT")

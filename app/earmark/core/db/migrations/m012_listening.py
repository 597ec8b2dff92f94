"""Schema 12: what listening statistics and skipping silence need: the speed and the silence skipped of each
listening session, the silent spans found in each episode, and each podcast's skip-silence level."""

from __future__ import annotations

import sqlite3


def m012_listening(conn: sqlite3.Connection) -> None:
    """Speed and silence skipped per session, silent spans per episode, skip-silence level per podcast."""
    statements = [
        # The speed of the session (its last), and the seconds of silence skipped in it (media seconds).
        "ALTER TABLE play_history ADD COLUMN speed REAL NOT NULL DEFAULT 1",
        "ALTER TABLE play_history ADD COLUMN silence_saved REAL NOT NULL DEFAULT 0",
        "CREATE INDEX play_history_by_start ON play_history (started)",
        # off, mild or strong (core/audio/silence.py says what each skips).
        "ALTER TABLE sources ADD COLUMN skip_silence TEXT NOT NULL DEFAULT 'off'",
        # An episode analysed once: ``spans`` is JSON [[start, end]...] in seconds, every quiet span of at least
        # the shortest any level skips; ``error`` says why it could not be analysed (then ``spans`` is empty).
        """CREATE TABLE silences (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            analysed TEXT NOT NULL,
            duration REAL,
            spans TEXT NOT NULL DEFAULT '[]',
            error TEXT
        )""",
    ]
    for statement in statements:
        conn.execute(statement)

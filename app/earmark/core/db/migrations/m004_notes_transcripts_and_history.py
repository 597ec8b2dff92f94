"""Schema 4: transcript quotes on notes, the cache of fetched transcripts (searchable), and the listening history."""

from __future__ import annotations

import sqlite3


def m004_notes_transcripts_and_history(conn: sqlite3.Connection) -> None:
    """Transcript quotes on notes, the cache of fetched transcripts (searchable), and the listening history."""
    statements = [
        # The transcript sentences around the note's time, kept with the note (the transcript may change).
        "ALTER TABLE notes ADD COLUMN quote TEXT NOT NULL DEFAULT ''",
        "CREATE INDEX notes_by_created ON notes (created DESC, id DESC)",
        # A cache: transcripts are fetched once per item; ``cues`` is JSON [[start, end, text, speaker]...].
        """CREATE TABLE transcripts (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            type TEXT NOT NULL DEFAULT '',
            fetched TEXT NOT NULL,
            cues TEXT NOT NULL DEFAULT '[]',
            skipped INTEGER NOT NULL DEFAULT 0,
            error TEXT
        )""",
        # One row per listening session: what was played, when, and from where to where.
        """CREATE TABLE play_history (
            id INTEGER PRIMARY KEY,
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            started TEXT NOT NULL,
            updated TEXT NOT NULL,
            start_position REAL NOT NULL DEFAULT 0,
            position REAL NOT NULL DEFAULT 0,
            finished INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX play_history_by_item ON play_history (item_id, updated)",
        "CREATE INDEX play_history_by_time ON play_history (updated DESC, id DESC)",
    ]
    # The transcript's text goes into the search index's transcript column (m003), kept in step with the cache.
    spoken = ("CASE WHEN json_valid(new.cues) THEN coalesce((SELECT group_concat(json_extract(value, '$[2]'), ' ') "
              "FROM json_each(new.cues)), '') ELSE '' END")
    for event in ("INSERT", "UPDATE OF cues"):
        statements.append(
            f"""CREATE TRIGGER transcripts_{event.split()[0].lower()}_indexed AFTER {event} ON transcripts BEGIN
                UPDATE search_index SET transcript = {spoken} WHERE rowid = new.item_id;
            END"""
        )
    statements.append(
        """CREATE TRIGGER transcripts_delete_indexed AFTER DELETE ON transcripts BEGIN
            UPDATE search_index SET transcript = '' WHERE rowid = old.item_id;
        END"""
    )
    for statement in statements:
        conn.execute(statement)

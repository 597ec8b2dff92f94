"""Schema 11: the length in bytes a feed announces for an episode's file, to tell a cut-off download."""

from __future__ import annotations

import sqlite3


def m011_enclosure_length(conn: sqlite3.Connection) -> None:
    """``items.enclosure_length``: the enclosure's ``length`` (or Media RSS ``fileSize``) when the feed gives a
    plausible one, else NULL; a download far smaller is refused (core/downloads/transfer.py). Items stored
    before learn it when their feed next changes."""
    conn.execute("ALTER TABLE items ADD COLUMN enclosure_length INTEGER")

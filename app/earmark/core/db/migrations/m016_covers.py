"""Schema: covers, the state of each image address the library names (podcast, episode, article, site icon):
the cached file's name once fetched, the server's validators for a conditional GET, and why nothing is shown
when the image was refused (so that a hostile or broken image is fetched once, not at every start)."""

from __future__ import annotations

import sqlite3


def m016_covers(conn: sqlite3.Connection) -> None:
    """Add the covers table (the images themselves live in the user's cache folder)."""
    conn.execute("""CREATE TABLE covers (
        url TEXT PRIMARY KEY,
        file TEXT,
        etag TEXT,
        last_modified TEXT,
        checked TEXT,
        problem TEXT
    )""")

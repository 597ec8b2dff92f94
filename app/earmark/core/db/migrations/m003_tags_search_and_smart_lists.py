"""Schema 3: tag colours, favourites, saved searches, sort indexes, a search index with transcripts and highlights."""

from __future__ import annotations

import sqlite3

from earmark.core.db.migrations.search_triggers import search_triggers


def m003_tags_search_and_smart_lists(conn: sqlite3.Connection) -> None:
    """Tag colours, favourites, saved searches, sort indexes, and a search index with room for transcripts
    and highlights (FTS5 tables cannot gain columns, so the index is rebuilt from the items and notes)."""
    conn.execute("ALTER TABLE tags ADD COLUMN colour TEXT")
    conn.execute("ALTER TABLE items ADD COLUMN favourite INTEGER NOT NULL DEFAULT 0")
    conn.execute(
        """CREATE TABLE smart_lists (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            filter TEXT NOT NULL,
            created TEXT NOT NULL
        )"""
    )
    # One index per sort order, each carrying the columns filters test, so that listing 100,000 items in any
    # order with any filter reads only the index (a non-covering scan fetches every large row: 10x slower).
    carried = "kind, source_id, played, position, favourite, published, duration, media_duration, last_played"
    for name, key in (
        ("items_listing", "published DESC, id DESC"),
        ("items_by_title_sort", "title COLLATE NOCASE, id"),
        ("items_by_last_played", "last_played DESC, id DESC"),
        ("items_by_duration_up", "coalesce(media_duration, duration, 1e12), id"),  # unknown lengths last
        ("items_by_duration_down", "coalesce(media_duration, duration, -1) DESC, id DESC"),
    ):
        conn.execute(f"CREATE INDEX {name} ON items ({key}, {carried})")
    conn.execute("CREATE INDEX sources_by_title ON sources (title COLLATE NOCASE, id)")
    # Search results are filtered row by row: by id through this index instead of the wide rows (3-4x faster).
    conn.execute(f"CREATE INDEX items_filters ON items (id, {carried})")
    for trigger in ("items_indexed", "items_reindexed", "items_unindexed", "notes_insert_indexed",
                    "notes_update_indexed", "notes_delete_indexed"):
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("DROP TABLE search_index")
    conn.execute(
        "CREATE VIRTUAL TABLE search_index USING fts5(title, text, notes, transcript, highlights, "
        "prefix = '2 3', tokenize = 'unicode61 remove_diacritics 2')"  # prefix indexes: search as you type
    )
    conn.execute(
        """INSERT INTO search_index (rowid, title, text, notes, transcript, highlights)
           SELECT i.id, i.title, i.text,
                  coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.item_id = i.id), ''), '', ''
           FROM items i"""
    )
    for statement in search_triggers():
        conn.execute(statement)

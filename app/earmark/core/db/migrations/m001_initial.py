"""Schema 1: sources, items (episodes and articles alike), tags, notes, settings and the search index."""

from __future__ import annotations

import sqlite3

from earmark.core.db.migrations.search_triggers import notes_triggers


def m001_initial(conn: sqlite3.Connection) -> None:
    """Sources, items (episodes and articles alike), tags, notes, settings and the search index."""
    statements = [
        """CREATE TABLE sources (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('podcast', 'site')),
            title TEXT NOT NULL,
            url TEXT UNIQUE,
            link TEXT,
            description TEXT NOT NULL DEFAULT '',
            author TEXT,
            image_url TEXT,
            etag TEXT,
            last_modified TEXT,
            status TEXT NOT NULL DEFAULT 'ok',
            last_error TEXT,
            last_checked TEXT,
            added TEXT NOT NULL
        )""",
        # Feed-owned columns are overwritten by a refresh; position, played, last_played and media_duration
        # (the length the player measured) belong to the user and are written only by playback and the user.
        """CREATE TABLE items (
            id INTEGER PRIMARY KEY,
            source_id INTEGER REFERENCES sources(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('episode', 'article')),
            identity TEXT NOT NULL,
            guid TEXT,
            title TEXT NOT NULL,
            url TEXT,
            enclosure_url TEXT,
            enclosure_type TEXT,
            published TEXT,
            duration REAL,
            author TEXT,
            description TEXT NOT NULL DEFAULT '',
            content TEXT NOT NULL DEFAULT '',
            text TEXT NOT NULL DEFAULT '',
            added TEXT NOT NULL,
            media_duration REAL,
            position REAL NOT NULL DEFAULT 0,
            played INTEGER NOT NULL DEFAULT 0,
            last_played TEXT,
            UNIQUE (source_id, identity)
        )""",
        "CREATE INDEX items_by_published ON items (published DESC, id DESC)",
        "CREATE INDEX items_by_source ON items (source_id, published DESC, id DESC)",
        "CREATE INDEX items_by_kind ON items (kind, published DESC, id DESC)",
        "CREATE INDEX items_by_enclosure ON items (source_id, enclosure_url)",
        """CREATE TABLE tags (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE
        )""",
        """CREATE TABLE item_tags (
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
            PRIMARY KEY (item_id, tag_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX item_tags_by_tag ON item_tags (tag_id, item_id)",
        """CREATE TABLE source_tags (
            source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
            tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
            PRIMARY KEY (source_id, tag_id)
        ) WITHOUT ROWID""",
        """CREATE TABLE notes (
            id INTEGER PRIMARY KEY,
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            at REAL,
            text TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )""",
        "CREATE INDEX notes_by_item ON notes (item_id, at)",
        """CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
        "CREATE VIRTUAL TABLE search_index USING fts5(title, text, notes, tokenize = 'unicode61 remove_diacritics 2')",
        """CREATE TRIGGER items_indexed AFTER INSERT ON items BEGIN
            INSERT INTO search_index (rowid, title, text, notes) VALUES (new.id, new.title, new.text, '');
        END""",
        """CREATE TRIGGER items_reindexed AFTER UPDATE OF title, text ON items BEGIN
            UPDATE search_index SET title = new.title, text = new.text WHERE rowid = new.id;
        END""",
        """CREATE TRIGGER items_unindexed AFTER DELETE ON items BEGIN
            DELETE FROM search_index WHERE rowid = old.id;
        END""",
    ]
    for statement in statements + notes_triggers():
        conn.execute(statement)

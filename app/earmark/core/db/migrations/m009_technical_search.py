"""Schema 9: search finds words inside technical names, from an index a third of its former size."""

from __future__ import annotations

import sqlite3

from earmark.core.db.migrations import search_content
from earmark.core.db.search_words import learn_pending

_OLD_TRIGGERS = ("items_indexed", "items_reindexed", "items_unindexed", "notes_insert_indexed",
                 "notes_update_indexed", "notes_delete_indexed", "transcripts_insert_indexed",
                 "transcripts_update_indexed", "transcripts_delete_indexed", "notes_insert_highlighted",
                 "notes_update_highlighted", "notes_delete_highlighted")
# Indexes no query uses (items_listing, of m003, serves the published order and carries more), and the one that
# served the longest-first order: items_by_duration_up now serves both, walked backwards (core/db/filters.py).
_UNUSED_INDEXES = ("items_by_published", "items_by_title", "items_by_enclosure", "items_by_duration_down")
# Columns the sort indexes carry for the filters (as in m003).
_CARRIED = "kind, source_id, played, position, favourite, published, duration, media_duration, last_played"


def m009_technical_search(conn: sqlite3.Connection) -> None:
    """The search index reads the library's text instead of keeping a copy (external content) and has no prefix
    indexes (the last typed word's prefix is matched through the terms themselves); transcripts keep their spoken text
    beside the cues for it. The vocabulary of compound names and acronyms (core/db/search_words.py) is learnt
    from every item; indexes nothing uses are dropped, one index serves both duration orders and the last-played
    index holds the played items only."""
    for trigger in _OLD_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.execute("DROP TABLE search_index")
    for index in _UNUSED_INDEXES:
        conn.execute(f"DROP INDEX IF EXISTS {index}")
    # Most items are never played: the last-played order lists the played ones through this index, then the
    # others through items_filters (a tenth of the size, where every item's empty last_played filled half pages).
    conn.execute("DROP INDEX items_by_last_played")
    conn.execute(f"CREATE INDEX items_by_last_played ON items (last_played DESC, id DESC, {_CARRIED}) "
                 "WHERE last_played IS NOT NULL")
    conn.execute("ALTER TABLE transcripts ADD COLUMN text TEXT NOT NULL DEFAULT ''")  # written by its triggers only
    conn.execute(f"UPDATE transcripts SET text = {search_content.SPOKEN.replace('new.', '')}")
    statements = [
        "CREATE TABLE search_pending (item_id INTEGER PRIMARY KEY)",  # items whose words are still to be learnt
        # Each part of a compound name → the whole words that contain it (autograd → aotautograd), folded.
        "CREATE TABLE search_words (part TEXT NOT NULL, word TEXT NOT NULL, PRIMARY KEY (part, word)) WITHOUT ROWID",
        # Acronyms the library defines beside their expansion (fsdp → fully sharded data parallel).
        "CREATE TABLE search_aliases (name TEXT NOT NULL, alias TEXT NOT NULL, PRIMARY KEY (name, alias)) "
        "WITHOUT ROWID",
        "CREATE INDEX search_aliases_by_alias ON search_aliases (alias)",
        search_content.VIEW,
        search_content.INDEX,
        "INSERT INTO search_index (search_index) VALUES ('rebuild')",
        *search_content.triggers(),
        "INSERT INTO search_pending (item_id) SELECT id FROM items",
    ]
    for statement in statements:
        conn.execute(statement)
    learn_pending(conn)

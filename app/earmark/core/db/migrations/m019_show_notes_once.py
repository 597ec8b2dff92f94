"""Schema 19: an item's show notes are kept once (issue 40). ``description`` and ``content`` become a pattern over
the item's plain text (``items.text``, which the search index reads) where that is smaller (core/db/show_notes.py):
a 100,000-episode library goes from ~440 MB to under 300 MB. No column, index or trigger changes: the sqlite3 shell
reads and writes the file as before.

The rows are rewritten here, in the migration's transaction (a kill leaves the library at schema 18, whole); the
file gives its space back at a VACUUM, which the window (or ``earmark compact``) runs in the background afterwards:
a compaction is marked due (core/db/compaction.py)."""

from __future__ import annotations

import sqlite3

from earmark.core.db.compaction import mark_compaction_due
from earmark.core.db.show_notes import pack

_BATCH = 2000


def m019_show_notes_once(conn: sqlite3.Connection) -> None:
    # The show notes are the same: the topic graph must not take every item for changed (a full pass).
    [dirty] = conn.execute("SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = 'items_graph_dirty'"
                           ).fetchone() or [None]
    if dirty is not None:
        conn.execute("DROP TRIGGER items_graph_dirty")
    last = 0
    rewritten = 0
    while True:
        rows = conn.execute("SELECT id, description, content, text FROM items WHERE id > ? ORDER BY id LIMIT ?",
                            [last, _BATCH]).fetchall()
        if not rows:
            break
        last = rows[-1][0]
        updates = []
        for item_id, description, content, text in rows:
            if text and isinstance(description, str) and isinstance(content, str):
                packed = pack(description, text), pack(content, text)
                if packed[0] is not description or packed[1] is not content:
                    updates.append((*packed, item_id))
        conn.executemany("UPDATE items SET description = ?, content = ? WHERE id = ?", updates)
        rewritten += len(updates)
    if dirty is not None:
        conn.execute(dirty)
    if rewritten:
        mark_compaction_due(conn)

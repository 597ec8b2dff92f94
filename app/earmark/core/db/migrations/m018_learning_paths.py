"""Schema 15: the concepts each item's title says it explains, for learning paths (issue 39).

An item whose title names a concept ("AOTAutograd", "CUDA graphs") explains it, and comes before the items that use
the concept without explaining it. The relation pass stores each item's title concepts here: ``strength`` above 0
for those it explains (1 for the one concept a title is about, less when the title names several), 0 for the
others its title names (the pieces of a compound name, a series' name): an item is never sent to another to learn
what its own title names. The next update works every item out again (a full pass: core/topics/build.py), filling
the table."""

from __future__ import annotations

import sqlite3


def m018_learning_paths(conn: sqlite3.Connection) -> None:
    """Add ``item_concepts`` and ask for a full relation pass."""
    conn.execute("""CREATE TABLE item_concepts (
        term TEXT NOT NULL,
        item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        strength REAL NOT NULL,
        PRIMARY KEY (term, item_id)
    ) WITHOUT ROWID""")
    conn.execute("CREATE INDEX item_concepts_by_item ON item_concepts (item_id)")
    conn.execute("DELETE FROM graph_state WHERE key = 'built'")  # the next update is a full pass

"""Schema 14: the terms of items worked out since the last full pass kept out of the big term index.

A refresh's new items each have a couple of dozen terms, and in the term index (by term) each lands on a page of
its own: 100 new items rewrote some 1,600 pages of 32 KiB of it. Their rows now carry ``fresh = 1`` and sit in a
small index of their own (``item_terms_fresh``), which candidate queries read beside the big one
(``item_terms_by_term``, now of the rows with ``fresh = 0``). The next full pass writes every row with
``fresh = 0``; an update that leaves the small index grown past its limit moves them over, once its own items'
relations are stored (core/db/relations.py ``merge_fresh_terms``)."""

from __future__ import annotations

import json
import sqlite3

# ``fresh`` among the columns, though one value in each: a query naming it is then answered from the index alone.
BY_TERM = "CREATE INDEX item_terms_by_term ON item_terms (term, item_id, weight, fresh) WHERE fresh = 0"
FRESH = "CREATE INDEX item_terms_fresh ON item_terms (term, item_id, weight, fresh) WHERE fresh = 1"
_DROPPED = "dropped indexes"  # core/db/relation_pass.py: the indexes a stopped full pass left to make again


def m014_fresh_terms(conn: sqlite3.Connection) -> None:
    """Add ``item_terms.fresh`` and make the term index two partial ones (or, when a stopped full pass dropped the
    term index, change the definitions it keeps to make them again)."""
    conn.execute("ALTER TABLE item_terms ADD COLUMN fresh INTEGER NOT NULL DEFAULT 0")
    row = conn.execute("SELECT value FROM graph_state WHERE key = ?", [_DROPPED]).fetchone()
    kept: list[list[str]] = json.loads(row[0]) if row else []
    if any(name == "item_terms_by_term" for name, _sql in kept):
        kept = [[name, sql] for name, sql in kept if name != "item_terms_by_term"]
        kept += [["item_terms_by_term", BY_TERM], ["item_terms_fresh", FRESH]]
        conn.execute("UPDATE graph_state SET value = ? WHERE key = ?", [json.dumps(kept), _DROPPED])
        return
    conn.execute("DROP INDEX IF EXISTS item_terms_by_term")
    conn.execute(BY_TERM)
    conn.execute(FRESH)

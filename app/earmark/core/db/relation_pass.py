"""What a full relation pass writes, a block of items at a time, each block one short transaction (the window
and other programs keep writing meanwhile): links and names, then terms and relations, then the term counts.

The terms and relations go in without their secondary indexes (terms by term, relations by the other item): rows
arrive in item order, so every block would update those indexes all over (at 100,000 items most of their pages,
again and again). They are dropped before the first block and made again, sorted once, at the end; a pass
stopped before its end leaves their definitions in graph_state, and the next update makes them again."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.timefmt import now_iso

NO_REASONS = "[]"
DROPPED_INDEXES = "dropped indexes"  # graph_state: [[name, sql], ...] of the indexes a pass dropped
_PASS_TABLES = ("item_terms", "relations")


@contextmanager
def pragmas(db: Database, **values: int) -> Iterator[None]:
    """The connection's settings (``foreign_keys=0``, ``cache_size=-65536``) changed for a while, then as they were
    (outside a transaction: foreign_keys does nothing inside one)."""
    before = {name: db.execute(f"PRAGMA {name}").fetchone()[0] for name in values}
    for name, value in values.items():
        db.execute(f"PRAGMA {name} = {value}")
    try:
        yield
    finally:
        for name, value in before.items():
            db.execute(f"PRAGMA {name} = {value}")


def drop_indexes(db: Database) -> None:
    """Drop the secondary indexes of the terms and relations, keeping their definitions to make them again."""
    with write_transaction(db):
        found = db.execute(f"""SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                               AND tbl_name IN ({','.join('?' * len(_PASS_TABLES))})""", _PASS_TABLES).fetchall()
        if not found:
            return
        kept = _dropped(db) + [[name, sql] for name, sql in found]
        db.execute("INSERT OR REPLACE INTO graph_state VALUES (?, ?)", [DROPPED_INDEXES, json.dumps(kept)])
        for name, _sql in found:
            db.execute(f'DROP INDEX "{name}"')


def restore_indexes(db: Database) -> None:
    """Make again the indexes a pass dropped (inside the caller's transaction; nothing to do when none was)."""
    dropped = _dropped(db)
    if not dropped:
        return
    present = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    for name, sql in dropped:
        if name not in present:
            db.execute(sql)
    db.execute("DELETE FROM graph_state WHERE key = ?", [DROPPED_INDEXES])


def _dropped(db: Database) -> list[list[str]]:
    row = db.execute("SELECT value FROM graph_state WHERE key = ?", [DROPPED_INDEXES]).fetchone()
    return list(json.loads(row[0])) if row else []


def replace_links(db: Database, first: int, last: int, links: Iterable[tuple[int, str, str]],
                  keys: Iterable[tuple[str, int]], concepts: Iterable[tuple[str, int, float]] = ()) -> None:
    """The links, names and title concepts of the items with ids ``first``..``last`` (those of the items in
    between that have none are dropped)."""
    with write_transaction(db):
        for table in ("item_links", "item_keys", "item_concepts"):
            db.execute(f"DELETE FROM {table} WHERE item_id BETWEEN ? AND ?", [first, last])
        db.conn.executemany("INSERT OR IGNORE INTO item_links VALUES (?, ?, ?)", links)
        db.conn.executemany("INSERT OR IGNORE INTO item_keys VALUES (?, ?)", keys)
        db.conn.executemany("INSERT OR IGNORE INTO item_concepts VALUES (?, ?, ?)", concepts)


def replace_block(db: Database, item_ids: Sequence[int],
                  terms: Iterable[tuple[int, str, float, int]],
                  relations: Iterable[tuple[int, int, float, list[str] | None]]) -> None:
    """The terms and related items of a block of items (ids ascending), which are then worked out."""
    first, last = item_ids[0], item_ids[-1]
    with write_transaction(db):
        db.execute("DELETE FROM item_terms WHERE item_id BETWEEN ? AND ?", [first, last])
        db.execute("DELETE FROM relations WHERE item_id BETWEEN ? AND ?", [first, last])
        db.conn.executemany("INSERT INTO item_terms (item_id, term, weight, rank) VALUES (?, ?, ?, ?)", terms)
        db.conn.executemany("INSERT INTO relations VALUES (?, ?, ?, ?)",
                            ((a, b, score, json.dumps(why) if why else NO_REASONS)
                             for a, b, score, why in relations))
        indexed = now_iso()
        db.conn.executemany("INSERT OR REPLACE INTO graph_index VALUES (?, ?)", ((i, indexed) for i in item_ids))


def finish(db: Database, counts: Iterable[tuple[str, int, str | None, bool]], item_ids: Sequence[int],
           dirty_seq: int) -> None:
    """Keep the term counts of the pass, forget the changes it covered and rows of items deleted meanwhile."""
    with write_transaction(db):
        db.execute("DELETE FROM term_counts")
        db.conn.executemany("INSERT INTO term_counts VALUES (?, ?, ?, ?)", counts)
        still = db.execute("SELECT count(*) FROM items WHERE id BETWEEN ? AND ?",
                           [item_ids[0], item_ids[-1]]).fetchone()[0] if item_ids else 0
        if still < len(item_ids):  # some were deleted during the pass (their rows went in with foreign keys off)
            for table, column in (("item_terms", "item_id"), ("relations", "item_id"), ("relations", "other_id"),
                                  ("item_links", "item_id"), ("item_keys", "item_id"), ("item_concepts", "item_id"),
                                  ("graph_index", "item_id")):
                db.execute(f"DELETE FROM {table} WHERE {column} NOT IN (SELECT id FROM items)")
        db.execute("DELETE FROM graph_dirty WHERE seq <= ?", [dirty_seq])
        for key, value in (("total", str(len(item_ids))), ("built", now_iso()), ("since_build", "0")):
            db.execute("INSERT OR REPLACE INTO graph_state VALUES (?, ?)", [key, value])
        restore_indexes(db)

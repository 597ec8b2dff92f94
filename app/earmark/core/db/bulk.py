"""Many item rows written by one statement each: staged in a temporary table, then moved by one INSERT … SELECT or
UPDATE … FROM.

Why not ``executemany``: every statement that writes the search index (through the items triggers) makes FTS5
write its pending terms out as a new segment, so one statement per row writes one segment per row, which
FTS5 then merges again and again. One statement for the whole batch keeps them in memory until its end:
5,700 episodes are stored in 0.21 s instead of 0.72 s (bench/first_import.py, "writes into the library").
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlite_utils

Row = Sequence[object]
ItemKey = tuple[object, str]  # (source_id, identity)


def insert_items(db: sqlite_utils.Database, columns: Sequence[str], rows: Sequence[Row]) -> dict[ItemKey, int]:
    """Insert ``rows`` (values for ``columns``, which name ``source_id`` and ``identity``) into items, in their
    order, so ids grow in that order; returns each new item's id by (source_id, identity)."""
    names = ", ".join(columns)
    _stage(db, "staged_new_items", columns, rows)
    try:
        inserted = db.execute(f"INSERT INTO items ({names}) SELECT {names} FROM temp.staged_new_items ORDER BY rowid "
                              "RETURNING source_id, identity, id").fetchall()
    finally:
        db.execute("DELETE FROM temp.staged_new_items")
    return {(source_id, identity): int(item_id) for source_id, identity, item_id in inserted}


def update_items(db: sqlite_utils.Database, columns: Sequence[str], rows: Sequence[Row]) -> None:
    """Set ``columns`` of the items whose ids lead ``rows`` (each row: the id, then one value per column)."""
    staged = ("id", *columns)
    assignments = ", ".join(f"{name} = changed.{name}" for name in columns)
    _stage(db, "staged_changed_items", staged, rows)
    try:
        db.execute(f"UPDATE items SET {assignments} FROM temp.staged_changed_items AS changed "
                   "WHERE items.id = changed.id")
    finally:
        db.execute("DELETE FROM temp.staged_changed_items")


def _stage(db: sqlite_utils.Database, table: str, columns: Sequence[str], rows: Sequence[Row]) -> None:
    """Fill the temporary ``table`` (made on first use on this connection, its columns without a type, so that
    values reach items exactly as given and take the items columns' affinity there)."""
    wanted = list(columns)
    present = [row[1] for row in db.execute(f"PRAGMA temp.table_info({table})")]
    if present != wanted:
        db.execute(f"DROP TABLE IF EXISTS temp.{table}")
        db.execute(f"CREATE TEMP TABLE {table} ({', '.join(wanted)})")
    db.conn.executemany(f"INSERT INTO temp.{table} VALUES ({', '.join('?' * len(wanted))})", rows)

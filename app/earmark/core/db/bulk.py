"""Many item rows written by one statement each: staged in a temporary table, then moved by one INSERT … SELECT or
UPDATE … FROM.

Why not ``executemany``: every statement that writes the search index (through the items triggers) makes FTS5
write its pending terms out as a new segment, so one statement per row writes one segment per row, which
FTS5 then merges again and again. One statement for the whole batch keeps them in memory until its end:
5,700 episodes are stored in 0.21 s instead of 0.72 s (bench/first_import.py, "writes into the library").
For the same reason a batch of feeds (``inserted_together``) inserts the new items of all its feeds with one
statement: one per feed wrote 300 small segments for a first import's 300 feeds, whose common words each
segment repeats (storing 30,000 items: ~0.4 s of CPU less).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import field

from earmark.core.db.database import Database
from earmark.core.records import record

Row = Sequence[object]
ItemKey = tuple[object, str]  # (source_id, identity)
Found = Callable[[dict[ItemKey, int]], None]  # told each new item's id by (source_id, identity)


@record
class _Together:
    """The new items of a batch, staged in memory until the batch inserts them."""

    db: Database
    columns: tuple[str, ...] = ()
    rows: list[Row] = field(default_factory=list)
    found: list[Found] = field(default_factory=list)
    sources: set[object] = field(default_factory=set)

    def insert(self) -> None:
        if not self.rows:
            return
        inserted = _insert(self.db, self.columns, self.rows)
        found = self.found
        self.rows, self.found, self.sources = [], [], set()
        for tell in found:
            tell(inserted)


_together: ContextVar[_Together | None] = ContextVar("inserted_together", default=None)


def insert_items(db: Database, columns: Sequence[str], rows: Sequence[Row], found: Found) -> None:
    """Insert ``rows`` (values for ``columns``, which name ``source_id`` and ``identity`` first) into items, in
    their order, so ids grow in that order; ``found`` is given each new item's id by (source_id, identity): at
    once, or inside ``inserted_together`` when the batch's items are inserted (before its commit)."""
    together = _together.get()
    if together is None or together.db.conn is not db.conn:
        found(_insert(db, columns, rows))
        return
    if together.rows and together.columns != tuple(columns):
        together.insert()
    together.columns = tuple(columns)
    together.rows.extend(rows)
    together.found.append(found)
    together.sources.update(row[0] for row in rows)


def settle(db: Database, source_id: object) -> None:
    """Insert the items of the batch staged so far when some are of ``source_id``: what reads that source's items
    next (a second merge of the same feed in one batch) sees them."""
    together = _together.get()
    if together is not None and together.db.conn is db.conn and source_id in together.sources:
        together.insert()


@contextmanager
def inserted_together(db: Database) -> Iterator[None]:
    """Inside (in the caller's transaction), ``insert_items`` stages the new items, and they are inserted by one
    statement on the way out; after an error, nothing staged is written."""
    together = _Together(db)
    token = _together.set(together)
    try:
        yield
    finally:
        _together.reset(token)
    together.insert()


def update_items(db: Database, columns: Sequence[str], rows: Sequence[Row]) -> None:
    """Set ``columns`` of the items whose ids lead ``rows`` (each row: the id, then one value per column)."""
    staged = ("id", *columns)
    assignments = ", ".join(f"{name} = changed.{name}" for name in columns)
    _stage(db, "staged_changed_items", staged, rows)
    try:
        db.execute(f"UPDATE items SET {assignments} FROM temp.staged_changed_items AS changed "
                   "WHERE items.id = changed.id")
    finally:
        db.execute("DELETE FROM temp.staged_changed_items")


def _insert(db: Database, columns: Sequence[str], rows: Sequence[Row]) -> dict[ItemKey, int]:
    names = ", ".join(columns)
    _stage(db, "staged_new_items", columns, rows)
    try:
        inserted = db.execute(f"INSERT INTO items ({names}) SELECT {names} FROM temp.staged_new_items ORDER BY rowid "
                              "RETURNING source_id, identity, id").fetchall()
    finally:
        db.execute("DELETE FROM temp.staged_new_items")
    return {(source_id, identity): int(item_id) for source_id, identity, item_id in inserted}


def _stage(db: Database, table: str, columns: Sequence[str], rows: Sequence[Row]) -> None:
    """Fill the temporary ``table`` (made on first use on this connection, its columns without a type, so that
    values reach items exactly as given and take the items columns' affinity there)."""
    wanted = list(columns)
    present = [row[1] for row in db.execute(f"PRAGMA temp.table_info({table})")]
    if present != wanted:
        db.execute(f"DROP TABLE IF EXISTS temp.{table}")
        db.execute(f"CREATE TEMP TABLE {table} ({', '.join(wanted)})")
    db.conn.executemany(f"INSERT INTO temp.{table} VALUES ({', '.join('?' * len(wanted))})", rows)

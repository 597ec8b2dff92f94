"""The "Up next" queue: an ordered list of episodes, kept in the library."""

from __future__ import annotations

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database


def queue_ids(db: Database) -> list[int]:
    """The queued item ids, first to play first."""
    return [row[0] for row in db.execute("SELECT item_id FROM queue ORDER BY rank, item_id")]


def enqueue(db: Database, item_ids: list[int], *, first: bool = False) -> None:
    """Put episodes at the end of the queue (``first``: at its start, in the given order). Items already
    queued move there."""
    with write_transaction(db):
        current = [i for i in queue_ids(db) if i not in item_ids]
        _store(db, [*item_ids, *current] if first else [*current, *item_ids])


def play_next(db: Database, item_ids: list[int], after: int | None) -> None:
    """Put episodes right after ``after`` (the episode playing), or first when it is not queued."""
    with write_transaction(db):
        current = [i for i in queue_ids(db) if i not in item_ids]
        at = current.index(after) + 1 if after in current else 0
        _store(db, [*current[:at], *item_ids, *current[at:]])


def dequeue(db: Database, item_ids: list[int]) -> None:
    """Take episodes off the queue."""
    with write_transaction(db):
        db.conn.executemany("DELETE FROM queue WHERE item_id = ?", [(i,) for i in item_ids])


def clear_queue(db: Database) -> None:
    """Empty the queue."""
    with write_transaction(db):
        db.execute("DELETE FROM queue")


def move_in_queue(db: Database, item_id: int, steps: int) -> None:
    """Move a queued episode ``steps`` places later (negative: earlier), stopping at the ends."""
    with write_transaction(db):
        ids = queue_ids(db)
        if item_id not in ids:
            return
        old = ids.index(item_id)
        ids.pop(old)
        ids.insert(max(0, min(len(ids), old + steps)), item_id)
        _store(db, ids)


def reorder_queue(db: Database, item_ids: list[int]) -> None:
    """Store a new order (from drag and drop); queued items left out keep their place after these."""
    with write_transaction(db):
        rest = [i for i in queue_ids(db) if i not in item_ids]
        _store(db, [*item_ids, *rest])


def next_in_queue(db: Database, current: int | None, step: int = 1) -> int | None:
    """The episode after (``step`` -1: before) ``current`` in the queue; the first one when ``current`` is
    not queued and ``step`` is positive."""
    ids = queue_ids(db)
    if current not in ids:
        return ids[0] if ids and step > 0 else None
    at = ids.index(current) + step
    return ids[at] if 0 <= at < len(ids) else None


def _store(db: Database, ids: list[int]) -> None:
    unique = list(dict.fromkeys(ids))
    db.execute("DELETE FROM queue")
    db.conn.executemany("INSERT INTO queue (item_id, rank) SELECT id, ? FROM items WHERE id = ?",
                        [(rank, item_id) for rank, item_id in enumerate(unique)])

"""Storing a worked-out item's relations: each other item keeps its best (score, then id), and only the rows that
change are written; the table is what inserting every row and trimming each list would leave."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from earmark.core.db import relations as store
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.models import EntryData, FeedData

LIMIT = 4


def _items(db: Database, count: int) -> list[int]:
    entries = [EntryData(identity=f"guid:{n}", kind="episode", title=f"Item {n}", guid=str(n),
                         enclosure_url=f"https://example.invalid/{n}.mp3") for n in range(count)]
    return sorted(store_feed(db, "https://example.invalid/feed.xml", FeedData(title="S", entries=entries)).new)


def _insert_then_trim(db: Database, item: int, rows: Sequence[store.RelationRow]) -> None:
    """What storing meant before: every row inserted, then each other item's list cut to its LIMIT best."""
    db.conn.executemany("INSERT OR REPLACE INTO relations VALUES (?, ?, ?, ?)",
                        [(a, b, round(score, 4), json.dumps(why)) for a, b, score, why in rows])
    for other in sorted({a for a, *_rest in rows if a != item}):
        db.execute("""DELETE FROM relations WHERE item_id = ? AND other_id NOT IN (
                          SELECT other_id FROM relations WHERE item_id = ? ORDER BY score DESC, other_id LIMIT ?)""",
                   [other, other, LIMIT])


def _relations(db: Database) -> list[tuple[object, ...]]:
    return [tuple(row) for row in db.execute("SELECT * FROM relations ORDER BY item_id, other_id")]


@pytest.mark.parametrize("seed", range(8))
def test_the_lists_are_what_inserting_and_trimming_would_leave(library: Database, seed: int) -> None:
    rng = random.Random(seed)
    ids = _items(library, 30)
    item, others = ids[0], ids[1:]
    with write_transaction(library):  # lists of 0 to LIMIT + 2 rows (a longer list is cut too), scores that tie
        library.conn.executemany("INSERT INTO relations VALUES (?, ?, ?, ?)", [
            (other, partner, rng.choice([0.1, 0.2, 0.25, 0.3, 0.5]), json.dumps([f"was {partner}"]))
            for other in others for partner in rng.sample(others, rng.randint(0, LIMIT + 2)) if partner != other])
        library.conn.executemany("INSERT OR IGNORE INTO relations VALUES (?, ?, 0.3, '[]')",  # some rows replaced
                                 [(other, item) for other in rng.sample(others, 5)])
    chosen = rng.sample(others, 12)
    rows = [(item, other, rng.random(), ["mine"]) for other in chosen]
    rows += [(other, item, rng.choice([0.2, 0.25, 0.3, rng.random()]), ["theirs"]) for other in chosen]
    before = _relations(library)
    with write_transaction(library):
        store.add_relations(library, item, rows, LIMIT)
    stored = _relations(library)
    with write_transaction(library):
        library.execute("DELETE FROM relations")
        library.conn.executemany("INSERT INTO relations VALUES (?, ?, ?, ?)", before)
        _insert_then_trim(library, item, rows)
    assert stored == _relations(library)
    assert store.is_indexed(library, item)


def test_a_list_the_item_does_not_make_is_not_written(library: Database) -> None:
    item, other, *partners = _items(library, LIMIT + 2)
    with write_transaction(library):
        library.conn.executemany("INSERT INTO relations VALUES (?, ?, 0.5, '[]')", [(other, p) for p in partners])
    changes = library.conn.total_changes
    with write_transaction(library):
        store.add_relations(library, item, [(item, other, 0.4, []), (other, item, 0.4, [])], LIMIT)
    assert [row[1] for row in library.execute("SELECT * FROM relations WHERE item_id = ?", [other])] == partners
    assert library.conn.total_changes - changes == 3  # its own row, marked worked out, counted since the pass

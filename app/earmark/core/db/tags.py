"""Tags on items and sources."""

from __future__ import annotations

from collections.abc import Iterable

import sqlite_utils

from earmark.core.db.connection import write_transaction


def _tag_id(db: sqlite_utils.Database, name: str) -> int:
    db.execute("INSERT INTO tags (name) VALUES (?) ON CONFLICT (name) DO NOTHING", [name])
    return int(db.execute("SELECT id FROM tags WHERE name = ?", [name]).fetchone()[0])


def normalize_tag(name: str) -> str:
    """Tags are single-spaced and lower case: ``CUDA  Graphs`` and ``cuda graphs`` are the same tag."""
    return " ".join(name.split()).lower()


def tag_item(db: sqlite_utils.Database, item_id: int, names: Iterable[str]) -> None:
    """Add tags to an item (existing ones are kept)."""
    with write_transaction(db):
        for name in filter(None, map(normalize_tag, names)):
            db.execute("INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (?, ?)", [item_id, _tag_id(db, name)])


def tag_source(db: sqlite_utils.Database, source_id: int, names: Iterable[str]) -> None:
    """Add tags to a source: its items carry them in filters and counts."""
    with write_transaction(db):
        for name in filter(None, map(normalize_tag, names)):
            db.execute("INSERT OR IGNORE INTO source_tags (source_id, tag_id) VALUES (?, ?)",
                       [source_id, _tag_id(db, name)])


def tags_for_sources(db: sqlite_utils.Database) -> dict[int, list[str]]:
    """Every tagged source's tags, sorted by name."""
    result: dict[int, list[str]] = {}
    rows = db.execute(
        "SELECT st.source_id, t.name FROM source_tags st JOIN tags t ON t.id = st.tag_id ORDER BY t.name"
    )
    for source_id, name in rows:
        result.setdefault(source_id, []).append(name)
    return result


def untag_item(db: sqlite_utils.Database, item_id: int, names: Iterable[str]) -> None:
    """Remove tags from an item (tags it does not have are ignored)."""
    with write_transaction(db):
        for name in filter(None, map(normalize_tag, names)):
            db.execute(
                "DELETE FROM item_tags WHERE item_id = ? AND tag_id = (SELECT id FROM tags WHERE name = ?)",
                [item_id, name],
            )


def tags_for_items(db: sqlite_utils.Database, item_ids: list[int]) -> dict[int, list[str]]:
    """Each item's own tags, sorted by name."""
    if not item_ids:
        return {}
    marks = ",".join("?" * len(item_ids))
    result: dict[int, list[str]] = {}
    rows = db.execute(
        f"""SELECT it.item_id, t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id
            WHERE it.item_id IN ({marks}) ORDER BY t.name""",
        item_ids,
    )
    for item_id, name in rows:
        result.setdefault(item_id, []).append(name)
    return result


def tag_counts(db: sqlite_utils.Database) -> list[tuple[str, int]]:
    """Every tag with the number of items carrying it, by name (items of a tagged source carry its tags)."""
    rows = db.execute(
        """SELECT t.name, count(tagged.item_id) FROM tags t LEFT JOIN (
               SELECT tag_id, item_id FROM item_tags
               UNION SELECT st.tag_id, i.id FROM source_tags st JOIN items i ON i.source_id = st.source_id
           ) tagged ON tagged.tag_id = t.id
           GROUP BY t.id ORDER BY t.name"""
    )
    return [(name, count) for name, count in rows]

"""Tags on items and sources."""

from __future__ import annotations

import re
from collections.abc import Iterable

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.errors import EarmarkError, NotFoundError

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _tag_id(db: Database, name: str) -> int:
    db.execute("INSERT INTO tags (name) VALUES (?) ON CONFLICT (name) DO NOTHING", [name])
    return int(db.execute("SELECT id FROM tags WHERE name = ?", [name]).fetchone()[0])


def normalize_tag(name: str) -> str:
    """Tags are single-spaced and lower case: ``CUDA  Graphs`` and ``cuda graphs`` are the same tag."""
    return " ".join(name.split()).lower()


def tag_item(db: Database, item_id: int, names: Iterable[str]) -> None:
    """Add tags to an item (existing ones are kept)."""
    with write_transaction(db):
        for name in filter(None, map(normalize_tag, names)):
            db.execute("INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (?, ?)", [item_id, _tag_id(db, name)])


def tag_source(db: Database, source_id: int, names: Iterable[str]) -> None:
    """Add tags to a source: its items carry them in filters and counts."""
    with write_transaction(db):
        for name in filter(None, map(normalize_tag, names)):
            db.execute("INSERT OR IGNORE INTO source_tags (source_id, tag_id) VALUES (?, ?)",
                       [source_id, _tag_id(db, name)])


def untag_source(db: Database, source_id: int, names: Iterable[str]) -> None:
    """Remove tags from a source."""
    with write_transaction(db):
        for name in filter(None, map(normalize_tag, names)):
            db.execute(
                "DELETE FROM source_tags WHERE source_id = ? AND tag_id = (SELECT id FROM tags WHERE name = ?)",
                [source_id, name],
            )


def tags_for_sources(db: Database) -> dict[int, list[str]]:
    """Every tagged source's tags, sorted by name."""
    result: dict[int, list[str]] = {}
    rows = db.execute(
        "SELECT st.source_id, t.name FROM source_tags st JOIN tags t ON t.id = st.tag_id ORDER BY t.name"
    )
    for source_id, name in rows:
        result.setdefault(source_id, []).append(name)
    return result


def untag_item(db: Database, item_id: int, names: Iterable[str]) -> None:
    """Remove tags from an item (tags it does not have are ignored)."""
    with write_transaction(db):
        for name in filter(None, map(normalize_tag, names)):
            db.execute(
                "DELETE FROM item_tags WHERE item_id = ? AND tag_id = (SELECT id FROM tags WHERE name = ?)",
                [item_id, name],
            )


def tags_for_items(db: Database, item_ids: list[int]) -> dict[int, list[str]]:
    """Each item's own tags, sorted by name."""
    if not item_ids:
        return {}
    marks = ",".join("?" * len(item_ids))
    return _grouped(db.execute(
        f"""SELECT it.item_id, t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id
            WHERE it.item_id IN ({marks}) ORDER BY t.name""",
        item_ids,
    ))


def source_tags_for_items(db: Database, item_ids: list[int]) -> dict[int, list[str]]:
    """The tags each item carries through its source (a podcast's or site's), sorted by name."""
    if not item_ids:
        return {}
    return _grouped(db.execute(
        f"""SELECT i.id, t.name FROM items i JOIN source_tags st ON st.source_id = i.source_id
            JOIN tags t ON t.id = st.tag_id WHERE i.id IN ({",".join("?" * len(item_ids))}) ORDER BY t.name""",
        item_ids,
    ))


def _grouped(rows: Iterable[tuple[int, str]]) -> dict[int, list[str]]:
    """(owner, tag) rows as each owner's tags, in the rows' order."""
    result: dict[int, list[str]] = {}
    for owner, name in rows:
        result.setdefault(owner, []).append(name)
    return result


def rename_tag(db: Database, old: str, new: str) -> None:
    """Rename a tag everywhere; renaming onto an existing tag merges the two (items keep one copy)."""
    old_name, new_name = normalize_tag(old), normalize_tag(new)
    if not new_name:
        raise EarmarkError("A tag needs a name.")
    with write_transaction(db):
        row = db.execute("SELECT id, colour FROM tags WHERE name = ?", [old_name]).fetchone()
        if row is None:
            raise NotFoundError(f"There is no tag “{old_name}”.")
        old_id, colour = row
        target = db.execute("SELECT id FROM tags WHERE name = ?", [new_name]).fetchone()
        if target is None or target[0] == old_id:  # a new name, or only its spelling changes
            db.execute("UPDATE tags SET name = ? WHERE id = ?", [new_name, old_id])
            return
        new_id = int(target[0])
        for table, owner in (("item_tags", "item_id"), ("source_tags", "source_id")):
            db.execute(f"INSERT OR IGNORE INTO {table} ({owner}, tag_id) SELECT {owner}, ? FROM {table} "
                       "WHERE tag_id = ?", [new_id, old_id])
        db.execute("UPDATE tags SET colour = coalesce(colour, ?) WHERE id = ?", [colour, new_id])
        db.execute("DELETE FROM tags WHERE id = ?", [old_id])  # its item_tags and source_tags go with it


def delete_tag(db: Database, name: str) -> None:
    """Remove a tag from every item and source."""
    with write_transaction(db):
        if db.execute("DELETE FROM tags WHERE name = ?", [normalize_tag(name)]).rowcount == 0:
            raise NotFoundError(f"There is no tag “{normalize_tag(name)}”.")


def set_tag_colour(db: Database, name: str, colour: str | None) -> None:
    """Give a tag a colour (``#rrggbb``), or none."""
    if colour is not None and not _COLOUR.match(colour):
        raise EarmarkError(f"{colour!r} is not a colour; write it as #rrggbb.")
    with write_transaction(db):
        if db.execute("UPDATE tags SET colour = ? WHERE name = ?", [colour and colour.lower(),
                                                                     normalize_tag(name)]).rowcount == 0:
            raise NotFoundError(f"There is no tag “{normalize_tag(name)}”.")


def tag_colours(db: Database) -> dict[str, str]:
    """The colour of every tag that has one."""
    return dict(db.execute("SELECT name, colour FROM tags WHERE colour IS NOT NULL").fetchall())


def tag_names(db: Database) -> list[str]:
    """Every tag's name, for autocompletion."""
    return [row[0] for row in db.execute("SELECT name FROM tags ORDER BY name")]


def tag_counts(db: Database) -> list[tuple[str, int]]:
    """Every tag with the number of items carrying it, by name (items of a tagged source carry its tags)."""
    rows = db.execute(
        """SELECT t.name, count(tagged.item_id) FROM tags t LEFT JOIN (
               SELECT tag_id, item_id FROM item_tags
               UNION SELECT st.tag_id, i.id FROM source_tags st JOIN items i ON i.source_id = st.source_id
           ) tagged ON tagged.tag_id = t.id
           GROUP BY t.id ORDER BY t.name"""
    )
    return [(name, count) for name, count in rows]

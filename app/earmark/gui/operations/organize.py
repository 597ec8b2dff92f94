"""Operations that organise the library: tags on items and sources, tag renames and colours, favourites,
smart lists. Each runs on the writer and returns what changed."""

from __future__ import annotations

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import set_favourite
from earmark.core.db.smart_lists import delete_smart_list, save_smart_list
from earmark.core.db.tags import (
    delete_tag,
    rename_tag,
    set_tag_colour,
    tag_item,
    tag_source,
    untag_item,
    untag_source,
)
from earmark.core.models import Changes, ItemState
from earmark.core.plurals import counted


def retag_items(db: Database, item_ids: list[int], add: list[str], remove: list[str]) -> Changes:
    """Put ``add`` on every item and take ``remove`` off, in one transaction."""
    with write_transaction(db):
        for item_id in item_ids:
            tag_item(db, item_id, add)
            untag_item(db, item_id, remove)
    return Changes(items=set(item_ids), states={ItemState.TAGS},
                   message=f"Tags updated on {counted(len(item_ids), 'item')}.")


def retag_source(db: Database, source_id: int, add: list[str], remove: list[str]) -> Changes:
    """Put ``add`` on a source and take ``remove`` off (its items carry them in filters)."""
    with write_transaction(db):
        tag_source(db, source_id, add)
        untag_source(db, source_id, remove)
    return Changes(states={ItemState.TAGS}, message="Tags of the feed updated.")


def rename_tag_everywhere(db: Database, old: str, new: str) -> Changes:
    """Rename (or merge) a tag across the library."""
    rename_tag(db, old, new)
    return Changes(states={ItemState.TAGS}, message=f"Renamed the tag “{old}” to “{new}”.")


def delete_tag_everywhere(db: Database, name: str) -> Changes:
    """Remove a tag from everything."""
    delete_tag(db, name)
    return Changes(states={ItemState.TAGS}, message=f"Deleted the tag “{name}”.")


def colour_tag(db: Database, name: str, colour: str | None) -> Changes:
    """Give a tag a colour."""
    set_tag_colour(db, name, colour)
    return Changes(states={ItemState.TAGS})


def mark_favourite(db: Database, item_ids: list[int], favourite: bool) -> Changes:
    """Mark or unmark items as favourites."""
    set_favourite(db, item_ids, favourite)
    word = "Marked" if favourite else "Unmarked"
    return Changes(items=set(item_ids), states={ItemState.FAVOURITE},
                   message=f"{word} {counted(len(item_ids), 'item')} as favourite.")


def save_view(db: Database, name: str, flt: ItemFilter) -> Changes:
    """Save a view as a smart list."""
    save_smart_list(db, name, flt)
    return Changes(structure=True, message=f"Saved the smart list “{name}”.")


def forget_smart_list(db: Database, list_id: int) -> Changes:
    """Delete a smart list."""
    delete_smart_list(db, list_id)
    return Changes(structure=True, message="Smart list deleted.")

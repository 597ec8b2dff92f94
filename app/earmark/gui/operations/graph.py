"""Topic graph work off the UI thread: the Related pane's and learning path's reads, keeping the layout."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.items import get_item
from earmark.core.db.relations import is_indexed
from earmark.core.errors import NotFoundError
from earmark.core.models import Changes, Item, Related
from earmark.core.records import record
from earmark.core.topics.layout import Position, store_layout
from earmark.core.topics.path import Step, learning_path
from earmark.core.topics.reasons import related

RELATED_SHOWN = 12


def keep_layout(db: Database, positions: dict[int, Position]) -> Changes:
    """Keep where the graph's nodes sit."""
    store_layout(db, positions)
    return Changes()


@record
class RelatedRead:
    """An item's related items as stored, and whether they are still to be worked out."""

    item_id: int
    rows: list[Related]
    pending: bool


def read_related(db: Database, item_id: int) -> RelatedRead:
    """The stored related items of one item (a read)."""
    try:
        return RelatedRead(item_id, related(db, item_id, RELATED_SHOWN), not is_indexed(db, item_id))
    except NotFoundError:
        return RelatedRead(item_id, [], False)


@record
class PathRead:
    """An item and its learning path."""

    item: Item
    steps: list[Step]


def read_path(db: Database, item_id: int) -> PathRead:
    """An item's learning path (a read)."""
    return PathRead(get_item(db, item_id), learning_path(db, item_id))

"""Topic graph work off the UI thread: which update the relations need, storing them, keeping the layout."""

from __future__ import annotations

from dataclasses import dataclass

import sqlite_utils

from earmark.core.db.items import get_item
from earmark.core.db.relations import is_indexed, pending_item_ids
from earmark.core.errors import NotFoundError
from earmark.core.models import Changes, Item, Related
from earmark.core.topics.build import index_items, needs_full_build
from earmark.core.topics.full_pass import PassResult
from earmark.core.topics.layout import Position, store_layout
from earmark.core.topics.path import Step, learning_path
from earmark.core.topics.reasons import related

RELATED_SHOWN = 12


@dataclass(slots=True)
class UpdatePlan:
    """Which items need their relations worked out, and whether in full."""

    pending: list[int]
    full: bool


def plan_update(db: sqlite_utils.Database) -> UpdatePlan:
    """Find the new and changed items (a read)."""
    pending = pending_item_ids(db)
    return UpdatePlan(pending, bool(pending) and needs_full_build(db, len(pending)))


def store_relations(_db: sqlite_utils.Database, build: PassResult) -> Changes:
    """Say what a full pass (which stores as it goes) did."""
    return Changes(message=f"Related items worked out for {build.items:,} items.")


def index_new_items(db: sqlite_utils.Database, item_ids: list[int]) -> Changes:
    """Work out a few new or changed items against the stored index."""
    result = index_items(db, item_ids)
    return Changes(items=set(item_ids), message=f"Related items worked out for {result.items} new or changed items.")


def keep_layout(db: sqlite_utils.Database, positions: dict[int, Position]) -> Changes:
    """Keep where the graph's nodes sit."""
    store_layout(db, positions)
    return Changes()


@dataclass(slots=True)
class RelatedRead:
    """An item's related items as stored, and whether they are still to be worked out."""

    item_id: int
    rows: list[Related]
    pending: bool


def read_related(db: sqlite_utils.Database, item_id: int) -> RelatedRead:
    """The stored related items of one item (a read)."""
    try:
        return RelatedRead(item_id, related(db, item_id, RELATED_SHOWN), not is_indexed(db, item_id))
    except NotFoundError:
        return RelatedRead(item_id, [], False)


@dataclass(slots=True)
class PathRead:
    """An item and its learning path."""

    item: Item
    steps: list[Step]


def read_path(db: sqlite_utils.Database, item_id: int) -> PathRead:
    """An item's learning path (a read)."""
    return PathRead(get_item(db, item_id), learning_path(db, item_id))

"""The small writes the window makes often: a setting remembered, a playback position kept (light to import:
the list's first paint needs them, not what subscribing brings)."""

from __future__ import annotations

from collections.abc import Callable

from earmark.core.db.database import Database
from earmark.core.db.items import save_progress
from earmark.core.models import Changes, ItemState, ProgressUpdate
from earmark.core.settings import get_setting, set_setting


def store_setting(db: Database, key: str, value: object) -> Changes:
    """Remember a setting."""
    set_setting(db, key, value)
    return Changes()


def store_progress(db: Database, update: ProgressUpdate) -> Changes:
    """Keep a playback position."""
    played_within = float(get_setting(db, "playback.played_within"))  # type: ignore[arg-type]
    return kept_progress(db, update.item_id, lambda: save_progress(db, update, played_within))


def kept_progress(db: Database, item_id: int, save: Callable[[], object]) -> Changes:
    """Run ``save``, a write of where ``item_id`` was left, and say what the lists see of it: whether the item
    came to be under way or went back to its start (POSITION), and whether it became played (PLAYED). A place
    kept within an item already under way, every few seconds while it plays, changes no list or count."""
    before = _progress(db, item_id)
    save()
    after = _progress(db, item_id)
    kinds = (ItemState.POSITION, ItemState.PLAYED)
    return Changes(items={item_id}, states={kind for kind, was, now in zip(kinds, before, after, strict=True)
                                            if was != now})


def _progress(db: Database, item_id: int) -> tuple[bool, bool]:
    """Whether the item is under way (a place within it kept), and whether it is played."""
    row = db.execute("SELECT position > 0, played FROM items WHERE id = ?", [item_id]).fetchone()
    return (bool(row[0]), bool(row[1])) if row else (False, False)

"""The small writes the window makes often: a setting remembered, a playback position kept (light to import:
the list's first paint needs them, not what subscribing brings)."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.items import save_progress
from earmark.core.models import Changes, ProgressUpdate
from earmark.core.settings import get_setting, set_setting


def store_setting(db: Database, key: str, value: object) -> Changes:
    """Remember a setting."""
    set_setting(db, key, value)
    return Changes()


def store_progress(db: Database, update: ProgressUpdate) -> Changes:
    """Keep a playback position."""
    save_progress(db, update, float(get_setting(db, "playback.played_within")))  # type: ignore[arg-type]
    return Changes(items={update.item_id})

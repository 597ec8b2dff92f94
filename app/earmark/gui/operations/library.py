"""Operations on the library as a whole: subscribing, the sample library, playback progress."""

from __future__ import annotations

import sqlite_utils

from earmark.core.db.items import save_progress
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Changes, ProgressUpdate
from earmark.core.sample import load_sample


def subscribe_feed(db: sqlite_utils.Database, source: str) -> Changes:
    """Subscribe to a feed URL or file."""
    result = subscribe(db, source)
    return Changes(
        items={*result.new, *result.updated}, sources={result.source_id}, structure=bool(result.new),
        message=f"Subscribed to {result.title}: {len(result.new)} new episodes.",
    )


def load_sample_library(db: sqlite_utils.Database) -> Changes:
    """Add the sample podcast and articles."""
    result = load_sample(db)
    return Changes(structure=True, message=f"Sample library loaded: {result.episodes} episodes, "
                                           f"{result.articles} articles.")


def store_progress(db: sqlite_utils.Database, update: ProgressUpdate) -> Changes:
    """Keep a playback position."""
    save_progress(db, update)
    return Changes(items={update.item_id})

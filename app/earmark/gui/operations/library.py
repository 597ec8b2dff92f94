"""Operations on the library as a whole: subscribing, the sample library, playback progress."""

from __future__ import annotations

import sqlite_utils

from earmark.core.db.items import save_progress
from earmark.core.db.sources import record_failure, store_feed
from earmark.core.feeds.subscribe import read_feed
from earmark.core.models import Changes, FeedData, ProgressUpdate
from earmark.core.sample import load_sample


def fetch_feed(_db: sqlite_utils.Database, url: str) -> FeedData:
    """Fetch and parse a feed (runs in the pool: the writer stays free meanwhile)."""
    return read_feed(url)


def store_subscription(db: sqlite_utils.Database, url: str, feed: FeedData) -> Changes:
    """Store a fetched feed (runs on the writer)."""
    result = store_feed(db, url, feed)
    return Changes(
        items={*result.new, *result.updated}, sources={result.source_id}, structure=bool(result.new),
        message=f"Subscribed to {result.title}: {len(result.new)} new episodes.",
    )


def note_feed_failure(db: sqlite_utils.Database, url: str, message: str) -> Changes:
    """Record that reading an existing subscription failed."""
    record_failure(db, url, message)
    return Changes()


def load_sample_library(db: sqlite_utils.Database) -> Changes:
    """Add the sample podcast and articles."""
    result = load_sample(db)
    return Changes(structure=True, message=f"Sample library loaded: {result.episodes} episodes, "
                                           f"{result.articles} articles.")


def store_progress(db: sqlite_utils.Database, update: ProgressUpdate) -> Changes:
    """Keep a playback position."""
    save_progress(db, update)
    return Changes(items={update.item_id})

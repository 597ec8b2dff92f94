"""Operations on the library as a whole: subscribing, the sample library."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.sources import record_failure
from earmark.core.feeds.subscribe import ReadFeed, store_read_feed
from earmark.core.models import Changes, ItemState
from earmark.core.plurals import counted
from earmark.core.sample import SampleData, store_sample


def store_subscription(db: Database, url: str, read: ReadFeed) -> Changes:
    """Store a fetched feed (runs on the writer)."""
    result = store_read_feed(db, url, read)
    noun = "new episode" if read.feed.kind == "podcast" else "new article"
    warning = f" {read.feed.warning}" if read.feed.warning else ""
    return Changes(
        items={*result.new, *result.updated}, structure=True,
        message=f"Subscribed to {result.title}: {counted(len(result.new), noun)}.{warning}",
    )


def note_feed_failure(db: Database, url: str, message: str) -> Changes:
    """Record that reading an existing subscription failed."""
    record_failure(db, url, message)
    return Changes(states={ItemState.FEEDS})


def store_sample_library(db: Database, sample: SampleData) -> Changes:
    """Add the sample podcast and articles (read beforehand in the pool)."""
    result = store_sample(db, sample)
    return Changes(structure=True, message=f"Sample library loaded: {counted(result.episodes, 'episode')}, "
                                           f"{counted(result.articles, 'article')}.")

"""Operations on the library as a whole: subscribing, the sample library."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.feeds.addresses import note_failure
from earmark.core.feeds.subscribe import ReadFeed, store_read_feed
from earmark.core.models import Changes, ItemState
from earmark.core.plurals import counted
from earmark.core.records import record
from earmark.core.sample import SampleData, store_sample


@record
class Subscribed:
    """What storing a subscription changed, and which subscription it is (one there was before, maybe)."""

    changes: Changes
    source_id: int
    already: bool


def store_subscription(db: Database, url: str, read: ReadFeed) -> Subscribed:
    """Store a fetched feed (runs on the writer); a podcast subscribed to already is not added again."""
    result = store_read_feed(db, url, read)
    noun = "new episode" if read.feed.kind == "podcast" else "new article"
    warning = f" {read.feed.warning}" if read.feed.warning else ""
    said = f"Already subscribed to {result.title}" if result.already else f"Subscribed to {result.title}"
    changes = Changes(items={*result.new, *result.updated}, structure=bool(result.new) or not result.already,
                      message=f"{said}: {counted(len(result.new), noun)}.{warning}")
    return Subscribed(changes, result.source_id, result.already)


def note_feed_failure(db: Database, url: str, message: str) -> Changes:
    """Record that reading an existing subscription failed (``url`` as typed: nothing when it names none)."""
    note_failure(db, url, message)
    return Changes(states={ItemState.FEEDS})


def store_sample_library(db: Database, sample: SampleData) -> Changes:
    """Add the sample podcast and articles (read beforehand in the pool)."""
    result = store_sample(db, sample)
    return Changes(structure=True, message=f"Sample library loaded: {counted(result.episodes, 'episode')}, "
                                           f"{counted(result.articles, 'article')}.")

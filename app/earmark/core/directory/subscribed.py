"""Which directory results the library already subscribes to: one podcast, one subscription, as
core/feeds/identity.py recognises it (any address it is known by, however written, or its podcast:guid)."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.directory.results import DirectoryResult
from earmark.core.feeds.identity import KnownFeeds, known_feeds


def subscribed_keys(db: Database) -> KnownFeeds:
    """What the library's subscriptions are known by, read once for a whole list of results."""
    return known_feeds(db)


def subscribed_source(known: KnownFeeds, result: DirectoryResult) -> int | None:
    """The source id of the subscription ``result`` names, or None when it is not subscribed."""
    return known.source_of(result.feed_url, result.guid)

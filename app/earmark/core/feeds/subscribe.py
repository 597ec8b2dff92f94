"""Subscribing to a feed: fetch and parse (no library access), then store in one transaction."""

from __future__ import annotations

import sqlite_utils

from earmark.core.db.sources import record_failure, store_feed
from earmark.core.errors import EarmarkError
from earmark.core.feeds.fetch import canonical_source, fetch
from earmark.core.feeds.parse import parse_feed
from earmark.core.models import FeedData, SubscribeResult


def read_feed(url: str) -> FeedData:
    """Fetch and parse the feed at a canonical source URL (network and CPU work; touches no library)."""
    fetched = fetch(url)
    return parse_feed(fetched.data, fetched.url, fetched.content_type)


def subscribe(db: sqlite_utils.Database, source: str) -> SubscribeResult:
    """Subscribe to (or re-read) the feed at an http(s) URL or a local path; nothing is stored on failure
    except the failure itself on an existing subscription."""
    url = canonical_source(source)
    try:
        feed = read_feed(url)
    except EarmarkError as exc:
        record_failure(db, url, str(exc))
        raise
    return store_feed(db, url, feed)

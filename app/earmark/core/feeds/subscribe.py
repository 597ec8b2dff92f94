"""Subscribing to a feed: fetch, parse, store, with nothing stored when anything fails."""

from __future__ import annotations

import sqlite_utils

from earmark.core.db.sources import record_failure, store_feed
from earmark.core.errors import EarmarkError
from earmark.core.feeds.fetch import canonical_source, fetch
from earmark.core.feeds.parse import parse_feed
from earmark.core.models import SubscribeResult


def subscribe(db: sqlite_utils.Database, source: str) -> SubscribeResult:
    """Subscribe to (or re-read) the feed at an http(s) URL or a local path."""
    url = canonical_source(source)
    try:
        fetched = fetch(url)
        feed = parse_feed(fetched.data, fetched.url)
    except EarmarkError as exc:
        record_failure(db, url, str(exc))
        raise
    return store_feed(db, url, feed)

"""Which directory results the library already subscribes to."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.directory.results import DirectoryResult, feed_key


def subscribed_keys(db: Database) -> dict[str, int]:
    """Every subscription's feed mark (see ``feed_key``), to its source id."""
    return {feed_key(str(url)): int(source_id) for source_id, url in db.execute("SELECT id, url FROM sources")}


def subscribed_source(keys: dict[str, int], result: DirectoryResult) -> int | None:
    """The source id of the subscription ``result`` names, or None when it is not subscribed."""
    return keys.get(feed_key(result.feed_url)) if result.feed_url else None

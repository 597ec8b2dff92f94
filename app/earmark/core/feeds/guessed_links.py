"""Entry links feedparser made up from a guid: an RSS guid counts as a permalink unless isPermaLink="false", and
feedparser resolves one such as "ep-42" against the feed's address, a page that does not exist."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import unescape
from typing import Any

from earmark.core.models import FeedData

_GUID = re.compile(rb"<guid\b[^>]*>\s*(?:<!\[CDATA\[(.*?)\]\]>|([^<]*))", re.DOTALL)


def without_made_up_links(data: bytes, raw_entries: Sequence[Mapping[str, Any]], feed: FeedData) -> FeedData:
    """``feed`` with no page for an entry whose only link came from its guid, unless the document writes that
    guid as a web address. The document's guids are read (one pass) only when some entry has no link of its own."""
    guessed = [entry for raw, entry in zip(raw_entries, feed.entries, strict=True) if raw.get("guidislink")
               and entry.url and not any(link.get("rel") == "alternate" for link in raw.get("links") or [])]
    if guessed:
        written = {unescape((match.group(1) or match.group(2)).decode("utf-8", "replace")).strip()
                   for match in _GUID.finditer(data)}
        for entry in guessed:
            if entry.url not in written:
                entry.url = None
    return feed

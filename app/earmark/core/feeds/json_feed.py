"""JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1): read into the same dictionaries feedparser gives, so
that entries.feed_data builds the FeedData exactly as for RSS and Atom (links resolved, identities, reading time).
An item's audio or video attachment becomes its enclosure. A document that is not a JSON Feed gets a sentence."""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

from earmark.core.errors import FeedError
from earmark.core.feeds.entries import feed_data, feed_name
from earmark.core.feeds.namespaces import ChannelExtras, NamespaceData
from earmark.core.models import FeedData

VERSIONS = ("https://jsonfeed.org/version/1", "https://jsonfeed.org/version/1.1")


def looks_like_json(data: bytes) -> bool:
    """Whether the document starts as a JSON object does (after a byte order mark and white space)."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{"


def parse_json_feed(data: bytes, url: str) -> FeedData:
    """The FeedData of a JSON Feed document fetched from ``url``; FeedError with a sentence for anything else."""
    name = feed_name(url)
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise FeedError(f"{name} is not a feed: it looks like JSON but is not UTF-8 text.") from None
    except RecursionError:  # hostile nesting: [[[[...]]]] thousands deep
        raise FeedError(f"{name} is not a feed: its JSON is nested too deeply to read.") from None
    except ValueError as exc:  # json's JSONDecodeError, and numbers too long to read
        raise FeedError(f"{name} is not a feed: its JSON is broken ({_first_line(exc)}).") from None
    if not isinstance(document, dict):
        raise FeedError(f"{name} is not a feed: its JSON is not an object.")
    version = document.get("version")
    if not isinstance(version, str) or version.rstrip("/") not in VERSIONS:
        shown = f" {str(version)[:60]!r}" if version is not None else ""
        raise FeedError(f"{name} is JSON but not a JSON Feed Earmark can read: its version{shown} is not "
                        "JSON Feed 1.0 or 1.1.")
    items = document.get("items")
    if not isinstance(items, list):
        raise FeedError(f"{name} is a JSON Feed without its list of items, so there is nothing to read.")
    entries = [_entry(item) for item in items if isinstance(item, dict)]
    skipped = len(items) - len(entries)
    warning = f"The feed has errors ({skipped} of its items are not JSON objects)." if skipped else None
    feed = {"title": _text(document.get("title")), "link": _text(document.get("home_page_url")) or None,
            "summary": _text(document.get("description")), "author": _author(document),
            "image": {"href": _text(document.get("icon")) or _text(document.get("favicon")) or None},
            "links": [{"rel": "self", "href": _text(document.get("feed_url"))}]}
    return feed_data(feed, entries, url, NamespaceData(ChannelExtras(), []), warning, b"")


def _entry(item: dict[str, Any]) -> dict[str, Any]:
    """One item as feedparser's entry dictionary."""
    html, text = _text(item.get("content_html")), _text(item.get("content_text"))
    summary = _text(item.get("summary"))
    entry: dict[str, Any] = {
        "id": _identifier(item.get("id")),
        "title": _text(item.get("title")),
        "link": _text(item.get("url")) or _text(item.get("external_url")) or None,
        "summary": summary or html or text,
        "content": [{"value": html or text}] if summary and (html or text) else [],
        "author": _author(item),
        "tags": [{"term": tag} for tag in item.get("tags") or [] if isinstance(tag, str)]
        if isinstance(item.get("tags"), list) else [],
        "published_parsed": _date(item.get("date_published")) or _date(item.get("date_modified")),
        "enclosures": [],
    }
    attachments = item.get("attachments")
    for attachment in attachments if isinstance(attachments, list) else []:
        if isinstance(attachment, dict) and _text(attachment.get("url")):
            entry["enclosures"].append({"href": _text(attachment.get("url")),
                                        "type": _text(attachment.get("mime_type")) or None})
            seconds = attachment.get("duration_in_seconds")
            if isinstance(seconds, int | float) and not isinstance(seconds, bool) and "itunes_duration" not in entry:
                entry["itunes_duration"] = str(seconds)
    return entry


def _author(holder: dict[str, Any]) -> str | None:
    """1.1's ``authors`` (a list) or 1.0's ``author``: the names, joined."""
    authors = holder.get("authors")
    if not isinstance(authors, list):
        authors = [holder.get("author")]
    names = [_text(a.get("name")) for a in authors if isinstance(a, dict)]
    return ", ".join(filter(None, names)) or None


def _date(value: object) -> time.struct_time | None:
    """An RFC 3339 date as the UTC struct_time feedparser gives (None when it is not one)."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return moment.timetuple()
    return time.gmtime(moment.timestamp())


def _identifier(value: object) -> str:
    """The item's id: a string (1.1), or a number as 1.0 feeds sometimes give."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return _text(value)


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__

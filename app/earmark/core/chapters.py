"""Podcast chapters: the podcast:chapters JSON format, fetched once per episode and cached in the library."""

from __future__ import annotations

import json
import math
from bisect import bisect_right
from dataclasses import replace

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.errors import FeedError, UnreachableError
from earmark.core.models import Chapter
from earmark.core.timefmt import now_iso

MAX_CHAPTERS = 2000
# Real chapters files are a few KB (2000 chapters with links fit in 1 MB). json.loads builds ~25 bytes of Python
# objects per byte of "[{},{},...]": without a cap, a 50 MB answer (the fetch limit) would take over 1 GB.
MAX_CHAPTERS_BYTES = 2 * 1024 * 1024
MADE = "made:"  # the cache address of chapters made from the transcript (core/chaptering), not a feed's
_LATEST = 10.0**9  # seconds (30 years): a later chapter start is junk


def parse_chapters(data: bytes | str) -> list[Chapter]:
    """Chapters from podcast:chapters JSON, by start time; entries with ``toc: false`` or without a start are
    left out. FeedError when the document is not chapters JSON."""
    if len(data) > MAX_CHAPTERS_BYTES:
        raise FeedError(f"The chapters file is larger than {MAX_CHAPTERS_BYTES // 2**20} MB, too large to be chapters.")
    try:
        document = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise FeedError(f"The chapters file is not JSON: {exc}.") from exc
    entries = document.get("chapters") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise FeedError("The chapters file has no list of chapters.")
    found: list[tuple[float, str, str | None]] = []
    for entry in entries[:MAX_CHAPTERS]:
        if not isinstance(entry, dict) or entry.get("toc") is False:
            continue
        start = entry.get("startTime")
        if isinstance(start, bool) or not isinstance(start, int | float) or not 0 <= start < math.inf:
            continue  # also NaN and Infinity, which Python's json reads (the player cannot seek there)
        if start > _LATEST:  # found by fuzzing: float() of a huge integer (10**400) raises OverflowError
            continue
        title = entry.get("title")
        url = entry.get("url")
        found.append((float(start), str(title).strip() if title else "",
                      url if isinstance(url, str) and url.startswith(("http://", "https://")) else None))
    found.sort(key=lambda entry: entry[0])
    return [Chapter(start, title or f"Chapter {number}", url) for number, (start, title, url) in enumerate(found, 1)]


def chapters_to_json(chapters: list[Chapter]) -> str:
    """The cached form (podcast:chapters JSON, only the fields Earmark uses)."""
    return json.dumps({"version": "1.2.0", "chapters": [
        {"startTime": c.start, "title": c.title, **({"url": c.url} if c.url else {})} for c in chapters]})


def cached_chapters(db: Database, item_id: int) -> list[Chapter] | None:
    """The chapters fetched earlier for this item's current chapters URL, or for an item whose feed names none,
    those made from its transcript (None: not fetched, or it changed)."""
    row = db.execute(
        """SELECT c.chapters, c.url FROM chapters_cache c JOIN items i ON i.id = c.item_id
           WHERE c.item_id = ? AND (c.url = i.chapters_url OR (i.chapters_url IS NULL AND c.url LIKE 'made:%'))""",
        [item_id]).fetchone()
    if row is None:
        return None
    source = "made" if row[1].startswith(MADE) else "feed"
    return [replace(chapter, source=source) for chapter in parse_chapters(row[0])]


def chapters_url(db: Database, item_id: int) -> str | None:
    """Where the item's podcast:chapters JSON lives, if its feed names one."""
    row = db.execute("SELECT chapters_url FROM items WHERE id = ?", [item_id]).fetchone()
    return row[0] if row else None


def fetch_chapters(url: str) -> list[Chapter]:
    """Download and parse a chapters file (network; no library access). Only web addresses are fetched: feeds
    give nothing else, but a restored backup or an edited library could name a local file."""
    from earmark.core.feeds.fetch import fetch, is_web_url  # the HTTP client: not for a start that plays nothing

    if not is_web_url(url):
        raise UnreachableError(f"The chapters address {url!r} is not a web address, so Earmark does not fetch it.")
    return parse_chapters(fetch(url).data)


def store_chapters(db: Database, item_id: int, url: str, chapters: list[Chapter]) -> None:
    """Cache an item's fetched chapters."""
    with write_transaction(db):
        db.execute(
            """INSERT INTO chapters_cache (item_id, url, chapters, fetched) VALUES (?, ?, ?, ?)
               ON CONFLICT (item_id) DO UPDATE SET url = excluded.url, chapters = excluded.chapters,
                   fetched = excluded.fetched""",
            [item_id, url, chapters_to_json(chapters), now_iso()])


def chapter_index(chapters: list[Chapter], position: float) -> int | None:
    """The index of the chapter playing at ``position`` (None before the first chapter or without chapters)."""
    at = bisect_right([c.start for c in chapters], position + 0.05) - 1
    return at if at >= 0 else None

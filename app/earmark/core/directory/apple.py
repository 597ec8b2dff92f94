"""Apple Podcasts through the iTunes Search API (no key): search, lookup by id, and the top podcasts per genre."""

from __future__ import annotations

import re

from earmark.core.directory.client import (
    TIMEOUT_SECONDS,
    Category,
    DirectoryError,
    get_json,
    iso_date,
    number,
    rows,
    text,
)
from earmark.core.directory.results import DirectoryResult

DEFAULT_URL = "https://itunes.apple.com"
LABEL = "Apple Podcasts"
# Apple's podcast genres (their ids are the iTunes genre ids); 26 is every podcast.
GENRES = tuple(Category(code, name) for code, name in (
    ("26", "All podcasts"), ("1301", "Arts"), ("1321", "Business"), ("1303", "Comedy"), ("1304", "Education"),
    ("1483", "Fiction"), ("1512", "Health & Fitness"), ("1487", "History"), ("1305", "Kids & Family"),
    ("1310", "Music"), ("1489", "News"), ("1533", "Science"), ("1324", "Society & Culture"), ("1545", "Sports"),
    ("1318", "Technology"), ("1488", "True Crime"), ("1309", "TV & Film")))
_PAGE_ID = re.compile(r"^https?://(?:podcasts|itunes)\.apple\.com/.*?/id(\d+)(?:[/?#].*)?$", re.IGNORECASE)


def apple_id(address: str) -> int | None:
    """The podcast id in an Apple Podcasts page's address (``podcasts.apple.com/us/podcast/name/id123``)."""
    found = _PAGE_ID.match(address.strip())
    return int(found.group(1)) if found else None


class AppleDirectory:
    """The iTunes Search API at ``base_url`` (``directory.apple_url``), for the store of ``country``."""

    name = "apple"
    label = LABEL
    categories = GENRES

    def __init__(self, base_url: str = DEFAULT_URL, country: str = "us",
                 timeout: float = TIMEOUT_SECONDS) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.country = country.strip().lower() or "us"

    def search(self, query: str, limit: int = 25) -> list[DirectoryResult]:
        answer = get_json(LABEL, f"{self.base_url}/search", {"term": query, "media": "podcast", "entity": "podcast",
                                                             "limit": limit, "country": self.country},
                          timeout=self.timeout)
        return [r for row in rows(answer, "results", LABEL) if (r := self._result(row)).feed_url]

    def lookup(self, ids: list[int]) -> list[DirectoryResult]:
        """The podcasts with these Apple ids, in their order (those Apple knows no feed for left out)."""
        if not ids:
            return []
        answer = get_json(LABEL, f"{self.base_url}/lookup", {"id": ",".join(map(str, ids)), "entity": "podcast"},
                          timeout=self.timeout)
        found = {r.itunes_id: r for row in rows(answer, "results", LABEL) if (r := self._result(row)).feed_url}
        return [found[i] for i in ids if i in found]

    def feed_of_page(self, address: str) -> str:
        """The feed address of an Apple Podcasts page; DirectoryError when Apple names none."""
        podcast = apple_id(address)
        found = self.lookup([podcast]) if podcast else []
        if not found:
            raise DirectoryError(f"{LABEL} knows no feed for {address}: the podcast may have left Apple Podcasts.")
        return found[0].feed_url

    def popular(self, category: str = "", limit: int = 25) -> list[DirectoryResult]:
        """Apple's chart of top podcasts (in the genre ``category``), their feeds looked up in one request."""
        genre = category or "26"
        chart = f"{self.base_url}/{self.country}/rss/toppodcasts/limit={limit}/genre={genre}/json"
        answer = get_json(LABEL, chart, timeout=self.timeout)
        feed = answer.get("feed") if isinstance(answer, dict) else None
        entries = feed.get("entry", []) if isinstance(feed, dict) else None
        if isinstance(entries, dict):  # a chart of one podcast names it alone, not in a list
            entries = [entries]
        ids = [i for entry in rows(entries, None, LABEL) if (i := _chart_id(entry)) is not None]
        return self.lookup(ids)

    def _result(self, row: dict) -> DirectoryResult:
        return DirectoryResult(
            title=text(row.get("collectionName")) or text(row.get("trackName")), feed_url=text(row.get("feedUrl")),
            directory=self.name, author=text(row.get("artistName")),
            image=text(row.get("artworkUrl600")) or text(row.get("artworkUrl100")),
            episodes=number(row.get("trackCount")), latest=iso_date(row.get("releaseDate")),
            itunes_id=number(row.get("collectionId")) or number(row.get("trackId")))


def _chart_id(entry: dict) -> int | None:
    """The podcast id of a chart entry (``id.attributes["im:id"]``)."""
    ident = entry.get("id")
    attributes = ident.get("attributes") if isinstance(ident, dict) else None
    return number(attributes.get("im:id")) if isinstance(attributes, dict) else None

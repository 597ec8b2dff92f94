"""Podcast Index: search by term and trending podcasts, signed with the person's own API key and secret."""

from __future__ import annotations

import hashlib
import time

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
from earmark.core.feeds.fetch import USER_AGENT

DEFAULT_URL = "https://api.podcastindex.org/api/1.0"
LABEL = "Podcast Index"
CATEGORIES = tuple(Category(name, name) for name in (
    "Arts", "Business", "Comedy", "Education", "Fiction", "Health", "History", "Kids", "Leisure", "Music", "News",
    "Religion", "Science", "Society", "Sports", "Technology", "True Crime", "TV"))


def auth_headers(key: str, secret: str, now: float | None = None) -> dict[str, str]:
    """The headers Podcast Index's documentation asks of every request: the key, the time in Unix seconds, and
    the SHA-1 of key, secret and that time (hex) as Authorization."""
    date = str(int(time.time() if now is None else now))
    signature = hashlib.sha1((key + secret + date).encode("utf-8")).hexdigest()  # noqa: S324  # the API's own scheme
    return {"User-Agent": USER_AGENT, "X-Auth-Key": key, "X-Auth-Date": date, "Authorization": signature}


class PodcastIndexDirectory:
    """The Podcast Index API at ``base_url`` (``directory.podcastindex_url``), asked with ``key`` and ``secret``."""

    name = "podcastindex"
    label = LABEL
    categories = (Category("", "All podcasts"), *CATEGORIES)

    def __init__(self, key: str, secret: str, base_url: str = DEFAULT_URL,
                 timeout: float = TIMEOUT_SECONDS) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._key, self._secret = key.strip(), secret.strip()

    def _ask(self, path: str, params: dict[str, object]) -> list[dict]:
        if not self._key or not self._secret:
            raise DirectoryError(f"{LABEL} needs your own API key and secret (free at podcastindex.org); none are "
                                 "kept yet.")
        answer = get_json(LABEL, f"{self.base_url}{path}", params, auth_headers(self._key, self._secret),
                          timeout=self.timeout)
        return rows(answer, "feeds", LABEL)

    def search(self, query: str, limit: int = 25) -> list[DirectoryResult]:
        found = self._ask("/search/byterm", {"q": query, "max": limit})
        return [r for row in found if (r := self._result(row)).feed_url]

    def popular(self, category: str = "", limit: int = 25) -> list[DirectoryResult]:
        """Podcast Index's trending podcasts (in ``category``, a category's name, when given)."""
        params: dict[str, object] = {"max": limit} | ({"cat": category} if category else {})
        return [r for row in self._ask("/podcasts/trending", params) if (r := self._result(row)).feed_url]

    def _result(self, row: dict) -> DirectoryResult:
        return DirectoryResult(
            title=text(row.get("title")), feed_url=text(row.get("url")) or text(row.get("originalUrl")),
            directory=self.name, author=text(row.get("author")) or text(row.get("ownerName")),
            image=text(row.get("artwork")) or text(row.get("image")), episodes=number(row.get("episodeCount")),
            latest=iso_date(row.get("newestItemPubdate") or row.get("newestItemPublishTime")),
            description=text(row.get("description")), guid=text(row.get("podcastGuid")),
            itunes_id=number(row.get("itunesId")))

"""fyyd (fyyd.de): its open API's podcast search, no key."""

from __future__ import annotations

from earmark.core.directory.client import TIMEOUT_SECONDS, Category, get_json, iso_date, number, rows, text
from earmark.core.directory.results import DirectoryResult

DEFAULT_URL = "https://api.fyyd.de/0.2"
LABEL = "fyyd"


class FyydDirectory:
    """The fyyd API at ``base_url`` (``directory.fyyd_url``); it has no Popular list."""

    name = "fyyd"
    label = LABEL
    categories: tuple[Category, ...] = ()

    def __init__(self, base_url: str = DEFAULT_URL, timeout: float = TIMEOUT_SECONDS) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def search(self, query: str, limit: int = 25) -> list[DirectoryResult]:
        answer = get_json(LABEL, f"{self.base_url}/search/podcast", {"title": query, "count": limit},
                          timeout=self.timeout)
        return [r for row in rows(answer, "data", LABEL) if (r := self._result(row)).feed_url]

    def popular(self, category: str = "", limit: int = 25) -> list[DirectoryResult]:
        return []

    def _result(self, row: dict) -> DirectoryResult:
        return DirectoryResult(
            title=text(row.get("title")), feed_url=text(row.get("xmlURL")), directory=self.name,
            author=text(row.get("author")), image=text(row.get("imgURL")) or text(row.get("thumbImageURL")),
            episodes=number(row.get("episode_count")), latest=iso_date(row.get("lastpub")),
            description=text(row.get("description")), itunes_id=number(row.get("iTunesID")))

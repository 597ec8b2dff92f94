"""gpodder.net's public directory: podcast search and the toplist (no account needed)."""

from __future__ import annotations

from earmark.core.directory.client import TIMEOUT_SECONDS, Category, get_json, rows, text
from earmark.core.directory.results import DirectoryResult

DEFAULT_URL = "https://gpodder.net"
LABEL = "gpodder.net"


class GpodderDirectory:
    """The gpodder.net directory API at ``base_url`` (``directory.gpodder_url``): search.json and toplist."""

    name = "gpodder"
    label = LABEL
    categories: tuple[Category, ...] = (Category("", "All podcasts"),)

    def __init__(self, base_url: str = DEFAULT_URL, timeout: float = TIMEOUT_SECONDS) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def search(self, query: str, limit: int = 25) -> list[DirectoryResult]:
        answer = get_json(LABEL, f"{self.base_url}/search.json", {"q": query}, timeout=self.timeout)
        return [r for row in rows(answer, None, LABEL) if (r := self._result(row)).feed_url][:limit]

    def popular(self, category: str = "", limit: int = 25) -> list[DirectoryResult]:
        """gpodder.net's toplist (most subscribed); it has no categories."""
        answer = get_json(LABEL, f"{self.base_url}/toplist/{int(limit)}.json", timeout=self.timeout)
        return [r for row in rows(answer, None, LABEL) if (r := self._result(row)).feed_url]

    def _result(self, row: dict) -> DirectoryResult:
        return DirectoryResult(
            title=text(row.get("title")), feed_url=text(row.get("url")), directory=self.name,
            author=text(row.get("author")), image=text(row.get("scaled_logo_url")) or text(row.get("logo_url")),
            description=text(row.get("description")))

"""Podcast hosting as it really fails, on 127.0.0.1: one server for playback, download and CLI tests.

Real hosts put episodes behind chains of tracking redirects (an analytics prefix, a CDN, a signed URL), often
ignore Range requests, send slowly or stall, cut connections part-way, answer errors with a 200 HTML page,
404 and 500, sometimes send redirects round in a loop, and some cannot be reached at all. Each behaviour is
one method here; every request is recorded (``requests_for``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from pathlib import Path
from types import TracebackType

from helpers.feed_server import FeedServer, Request, Route, closed_port

TRACKING_HOPS = (302, 301, 307, 302)  # analytics prefix → tracker → CDN → signed URL, as real feeds chain them
ERROR_PAGE = (b"<!DOCTYPE html><html><head><title>Error</title></head><body><h1>Something went wrong</h1>"
              b"<p>The file you asked for is not available right now. Please try again later.</p></body></html>")


@dataclass(frozen=True, slots=True)
class Enclosure:
    """An episode of a feed served by the host: its title, address, media type and announced length."""

    title: str
    url: str
    content_type: str = "audio/wav"
    length: int = 0


class PodcastHost:
    """A real HTTP server that hosts episodes the way real podcast hosting serves (and fails to serve) them.

    Use as a context manager. Paths given to the methods are on this server; each method returns the URL a
    feed would carry.
    """

    def __init__(self, root: Path) -> None:
        self._server = FeedServer(root)

    def __enter__(self) -> PodcastHost:
        self._server.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._server.stop()

    def url(self, path: str) -> str:
        """The full URL of ``path`` on this host."""
        return self._server.url(path)

    def requests_for(self, path: str) -> list[Request]:
        """Every request the host received for ``path``, in order."""
        return self._server.received_for(path)

    def episode(self, path: str, body: bytes, *, content_type: str = "audio/wav", ranges: bool = True,
                cut_at: int | None = None, cut_times: int | None = None, stall_at: int | None = None,
                pace: float = 0.0, fail_first: tuple[int, ...] = ()) -> str:
        """Serve an episode's bytes. ``ranges=False``: Range requests are ignored (the whole body again, with
        200). ``cut_at``: the connection is closed after that many bytes (Content-Length announces them all),
        on the first ``cut_times`` requests (every one when None). ``stall_at``: after that many bytes the
        connection stays open and silent. ``pace``: seconds between 16 KiB chunks. ``fail_first``: statuses
        answered to the first requests (``(500, 500)`` fails twice, then serves)."""
        return self._server.route(path, Route(body=body, content_type=content_type, ranges=ranges, pace=pace,
                                              truncate=cut_at, truncate_requests=cut_times, stall_at=stall_at,
                                              fail_first=fail_first))

    def tracking_chain(self, path: str, target: str, statuses: Iterable[int] = TRACKING_HOPS) -> str:
        """A chain of redirects from ``path`` to ``target`` (a path or URL), one hop per status."""
        statuses = list(statuses)
        hops = [f"{path.rstrip('/')}/hop{n}" for n in range(1, len(statuses))]
        for source, status, destination in zip([path, *hops], statuses, [*hops, target], strict=True):
            self.redirect(source, destination, status)
        return self.url(path)

    def redirect(self, path: str, location: str, status: int = 302) -> str:
        """Redirect ``path`` to ``location`` (a path on this host, or any URL: ``ftp://…`` too)."""
        target = location if "://" in location else self.url(location)
        return self._server.route(path, Route(status=status, location=target, content_type="text/plain",
                                              body=b"Found"))

    def redirect_loop(self, path: str) -> str:
        """``path`` redirects to a second address that redirects back to ``path``, forever."""
        other = f"{path.rstrip('/')}/again"
        self.redirect(path, other)
        return self.redirect(other, path)

    def error_page(self, path: str, page: bytes = ERROR_PAGE) -> str:
        """Answer 200 with a web page, as a CDN or a parked domain does in place of the audio."""
        return self._server.route(path, Route(body=page, content_type="text/html; charset=utf-8"))

    def status(self, path: str, status: int) -> str:
        """Answer with a bare HTTP status (404, 410, 500...)."""
        return self._server.serve_status(path, status)

    def refused(self, path: str = "/episode.wav") -> str:
        """A URL on a port where nothing listens: the connection is refused."""
        return f"http://127.0.0.1:{closed_port()}/{path.lstrip('/')}"

    def feed(self, path: str, enclosures: Iterable[Enclosure], title: str = "Hosted Cast") -> str:
        """Serve an RSS feed of these episodes (type and length as the enclosure says); returns its URL."""
        items = "".join(
            f"<item><title>{escape(e.title)}</title><guid>{escape(e.url)}</guid>"
            f"<pubDate>Mon, {20 - n % 20:02d} May 2024 10:00:00 +0000</pubDate>"
            f'<enclosure url="{escape(e.url)}" type="{escape(e.content_type)}" length="{e.length}"/></item>'
            for n, e in enumerate(enclosures))
        body = (f'<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>{escape(title)}</title>'
                f"<link>https://example.invalid/</link><description>Hosted</description>{items}</channel></rss>")
        return self._server.serve_body(path, body.encode())

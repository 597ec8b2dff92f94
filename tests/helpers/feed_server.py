"""A real HTTP server on 127.0.0.1 for feed tests: files from a folder plus scripted routes."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from html import escape
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
MAX_DELAY = 10.0  # a slow route never holds a request longer than this, even if a test forgets to stop
POLL_INTERVAL = 0.02  # how fast stop() returns (http.server's default of 0.5 s would dominate test time)


def fixtures_root() -> Path:
    """Where the shared fixtures live (``../shared/fixtures`` beside the repo); it may not exist."""
    return (REPO_ROOT / ".." / "shared" / "fixtures").resolve()


def fixtures_dir() -> Path:
    """The shared fixtures folder; skips the calling test when it is not there."""
    root = fixtures_root()
    if not root.is_dir():
        pytest.skip(f"the shared fixtures are not at {root}")
    return root


def fixture_files(*folders: str) -> list[Path]:
    """Every file in these fixture sub-folders, sorted (empty when the fixtures are missing)."""
    root = fixtures_root()
    return sorted(p for folder in folders if (root / folder).is_dir() for p in (root / folder).iterdir() if p.is_file())


def closed_port() -> int:
    """A localhost port that nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss(title: str, entries: Iterable[Mapping[str, str]], link: str = "https://example.com/") -> bytes:
    """A small RSS 2.0 podcast feed. Entry keys: title, guid, link, enclosure, pubDate, duration, description."""
    items = []
    for entry in entries:
        parts = [f"<title>{escape(entry['title'])}</title>"]
        if "guid" in entry:
            parts.append(f'<guid isPermaLink="false">{escape(entry["guid"])}</guid>')
        if "link" in entry:
            parts.append(f"<link>{escape(entry['link'])}</link>")
        if "pubDate" in entry:
            parts.append(f"<pubDate>{entry['pubDate']}</pubDate>")
        if "duration" in entry:
            parts.append(f"<itunes:duration>{escape(entry['duration'])}</itunes:duration>")
        if "description" in entry:
            parts.append(f"<description>{escape(entry['description'])}</description>")
        if "enclosure" in entry:
            parts.append(f'<enclosure url="{escape(entry["enclosure"])}" type="audio/mpeg" length="1000"/>')
        items.append("<item>" + "".join(parts) + "</item>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>'
        f"<title>{escape(title)}</title><link>{escape(link)}</link><description>Test feed</description>"
        + "".join(items)
        + "</channel></rss>\n"
    ).encode()


@dataclass(frozen=True, slots=True)
class Route:
    """What the server answers for one path instead of a file."""

    status: int = 200
    body: bytes = b""
    content_type: str = "application/rss+xml"
    location: str | None = None  # for redirects
    delay: float = 0.0  # seconds to wait before answering (bounded by MAX_DELAY)
    raw: bytes | None = None  # bytes written to the socket as they are, instead of an HTTP response


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins every handler thread: nothing outlives the test
    block_on_close = True

    def __init__(self, handler: partial[SimpleHTTPRequestHandler]) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self.routes: dict[str, Route] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.requests: list[str] = []

    def handle_error(self, request: object, client_address: object) -> None:
        """Clients that gave up (timeouts) close their end; that is expected here, not worth a traceback."""


class _Handler(SimpleHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        """Silence the per-request log on stderr."""

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        with self.server.lock:
            self.server.requests.append(path)
            route = self.server.routes.get(path)
        if route is None:
            super().do_GET()
            return
        if route.delay and self.server.stopping.wait(min(route.delay, MAX_DELAY)):
            return  # the server is stopping: drop the request
        if route.raw is not None:
            self.wfile.write(route.raw)
            self.close_connection = True
            return
        self.send_response(route.status)
        if route.location is not None:
            self.send_header("Location", route.location)
        self.send_header("Content-Type", route.content_type)
        self.send_header("Content-Length", str(len(route.body)))
        self.end_headers()
        self.wfile.write(route.body)


class FeedServer:
    """A threaded HTTP server on 127.0.0.1 (random port) serving ``root`` and scripted routes.

    Use as a context manager, or call ``start()`` and ``stop()``.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._server = _Server(partial(_Handler, directory=str(root)))
        self._thread = threading.Thread(target=self._server.serve_forever, args=(POLL_INTERVAL,),
                                        name="feed-server", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def requests(self) -> list[str]:
        """Paths requested so far, in order."""
        with self._server.lock:
            return list(self._server.requests)

    def url(self, path: str) -> str:
        """The full URL of ``path`` on this server."""
        return f"http://127.0.0.1:{self.port}/{path.lstrip('/')}"

    def route(self, path: str, route: Route) -> str:
        """Answer ``path`` with ``route`` (replacing any earlier route); returns the path's URL."""
        key = "/" + path.lstrip("/")
        with self._server.lock:
            self._server.routes[key] = route
        return self.url(key)

    def serve_body(self, path: str, body: bytes, content_type: str = "application/rss+xml") -> str:
        """Serve ``body`` with this content type."""
        return self.route(path, Route(body=body, content_type=content_type))

    def serve_status(self, path: str, status: int) -> str:
        """Answer with a bare HTTP status (404, 410, 500, ...)."""
        return self.route(path, Route(status=status, body=f"status {status}".encode(), content_type="text/plain"))

    def serve_redirect(self, path: str, target: str, status: int = 301) -> str:
        """Redirect ``path`` to ``target`` (a path on this server or a full URL)."""
        location = target if "://" in target else self.url(target)
        return self.route(path, Route(status=status, location=location, content_type="text/plain"))

    def serve_slow(self, path: str, delay: float, body: bytes = b"") -> str:
        """Answer only after ``delay`` seconds (or never, if the server stops first)."""
        return self.route(path, Route(body=body, delay=delay))

    def serve_raw(self, path: str, data: bytes) -> str:
        """Answer with bytes that are not an HTTP response (as a non-HTTP service on the port would)."""
        return self.route(path, Route(raw=data))

    def start(self) -> FeedServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Release slow requests, stop serving, close the socket and join every thread."""
        self._server.stopping.set()
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(timeout=MAX_DELAY)
        self._server.server_close()

    def __enter__(self) -> FeedServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

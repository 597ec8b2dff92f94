"""A real HTTP server on 127.0.0.1 for feed tests: files from a folder plus scripted routes.

Routes can script headers (ETag, Last-Modified, Retry-After, Content-Encoding...), answer conditional requests
with 304, require basic auth, send compressed or truncated bodies, wait before answering, answer Range requests
with 206 and send bodies slowly. Every request's path and headers are recorded, and the server counts how many
requests it was answering at once.
"""

from __future__ import annotations

import base64
import gzip
import socket
import ssl
import threading
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from html import escape
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit

import pytest

from helpers.shared import shared_dir

REPO_ROOT = Path(__file__).resolve().parents[2]
MAX_DELAY = 10.0  # a slow route never holds a request longer than this, even if a test forgets to stop
PACE_CHUNK = 16 * 1024
POLL_INTERVAL = 0.02  # how fast stop() returns (http.server's default of 0.5 s would dominate test time)


def fixtures_root() -> Path:
    """Where the shared fixtures live (``../shared/fixtures`` beside the repo); it may not exist."""
    return shared_dir() / "fixtures"


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


OWN_FIXTURES = REPO_ROOT / "tests" / "fixtures"


def own_fixture_files(folder: str) -> list[Path]:
    """The fixtures written for these tests (tests/fixtures/FOLDER, ``em__`` names): in every clone."""
    return sorted(p for p in (OWN_FIXTURES / folder).iterdir() if p.is_file())


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


def gzip_bytes(data: bytes) -> bytes:
    """``data`` as a gzip stream (what ``Content-Encoding: gzip`` carries)."""
    return gzip.compress(data, mtime=0)


def deflate_bytes(data: bytes) -> bytes:
    """``data`` as a zlib-wrapped deflate stream (what ``Content-Encoding: deflate`` carries, per the RFC)."""
    return zlib.compress(data)


def raw_deflate_bytes(data: bytes) -> bytes:
    """``data`` as a raw deflate stream, without the zlib header (what some servers send as ``deflate``)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


def gzip_bomb(inflated_size: int) -> bytes:
    """A small gzip stream that inflates to ``inflated_size`` zero bytes (built in chunks: it never holds them)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = bytes(1024 * 1024)
    parts = []
    left = inflated_size
    while left > 0:
        parts.append(compressor.compress(chunk[: min(left, len(chunk))]))
        left -= len(chunk)
    parts.append(compressor.flush())
    return b"".join(parts)


def basic_auth(user: str, password: str) -> str:
    """The ``Authorization`` header value for HTTP basic auth."""
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")


@dataclass(frozen=True, slots=True)
class Route:
    """What the server answers for one path instead of a file."""

    status: int = 200
    body: bytes = b""  # sent as it is: compress it yourself (gzip_bytes, deflate_bytes) with a Content-Encoding
    content_type: str = "application/rss+xml"
    location: str | None = None  # for redirects
    delay: float = 0.0  # seconds to wait before answering (bounded by MAX_DELAY)
    raw: bytes | None = None  # bytes written to the socket as they are, instead of an HTTP response
    headers: tuple[tuple[str, str], ...] = ()  # extra response headers (Retry-After, Content-Encoding, ...)
    etag: str | None = None  # sent as ETag; a request whose If-None-Match names it gets 304
    last_modified: str | None = None  # sent as Last-Modified; an equal If-Modified-Since gets 304
    auth: tuple[str, str] | None = None  # (user, password): 401 unless the request carries them (basic auth)
    truncate: int | None = None  # send only this many body bytes (Content-Length says all), then close
    truncate_requests: int | None = None  # truncate only the first N requests (None: every one)
    ranges: bool = False  # answer "Range: bytes=N-" with 206 and the rest of the body
    pace: float = 0.0  # seconds to wait between 16 KiB chunks of the body (a slow download)
    stall_at: int | None = None  # send this many body bytes, then hold the connection silent (MAX_DELAY at most)
    fail_first: tuple[int, ...] = ()  # statuses answered to the first requests (500, 500: fails twice, then works)


@dataclass(frozen=True, slots=True)
class Request:
    """One request as the server received it; header names are lower case."""

    path: str
    headers: dict[str, str]

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins every handler thread: nothing outlives the test
    block_on_close = True

    def __init__(self, handler: Callable[..., SimpleHTTPRequestHandler]) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self.routes: dict[str, Route] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.requests: list[str] = []
        self.received: list[Request] = []
        self.active = 0  # route requests being answered right now (from arrival until the response starts)
        self.max_active = 0
        self.answered: dict[str, int] = {}  # route requests answered so far, by path

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
            self.server.received.append(Request(path, {k.lower(): v for k, v in self.headers.items()}))
            route = self.server.routes.get(path)
            if route is not None:
                self.server.active += 1
                self.server.max_active = max(self.server.max_active, self.server.active)
        if route is None:
            super().do_GET()
            return
        try:
            # Counted as active until the answer starts: a client that limits its connections cannot start
            # the next request before it has this answer, so the count never over-reports.
            stopping = bool(route.delay) and self.server.stopping.wait(min(route.delay, MAX_DELAY))
        finally:
            with self.server.lock:
                self.server.active -= 1
        if stopping:
            return  # the server is stopping: drop the request
        if route.raw is not None:
            self.wfile.write(route.raw)
            self.close_connection = True
            return
        with self.server.lock:
            count = self.server.answered[path] = self.server.answered.get(path, 0) + 1
        if route.truncate_requests is not None and count > route.truncate_requests:
            route = replace(route, truncate=None)
        if count <= len(route.fail_first):
            status = route.fail_first[count - 1]
            self._send(status, f"status {status}".encode(), "text/plain", [])
            return
        if route.ranges and self.headers.get("Range", "").startswith("bytes="):
            self._answer_range(route)
            return
        self._answer(route)

    def _answer_range(self, route: Route) -> None:
        start = int(self.headers["Range"].removeprefix("bytes=").split("-")[0] or 0)
        if start >= len(route.body):
            self._send(416, b"", "text/plain", [("Content-Range", f"bytes */{len(route.body)}")])
            return
        rest = route.body[start:]
        self._send(206, rest, route.content_type,
                   [("Content-Range", f"bytes {start}-{len(route.body) - 1}/{len(route.body)}"),
                    ("Accept-Ranges", "bytes")], truncate=route.truncate, pace=route.pace, stall_at=route.stall_at)

    def _answer(self, route: Route) -> None:
        validators = [("ETag", route.etag), ("Last-Modified", route.last_modified)]
        if route.auth is not None and self.headers.get("Authorization") != basic_auth(*route.auth):
            self._send(401, b"authorization required", "text/plain",
                       [("WWW-Authenticate", 'Basic realm="feeds"')])
        elif self._not_modified(route):
            self._send(304, b"", None, validators)
        else:
            ranges = [("Accept-Ranges", "bytes")] if route.ranges else []
            self._send(route.status, route.body, route.content_type, [*validators, *route.headers, *ranges],
                       route.location, route.truncate, route.pace, route.stall_at)

    def _stall(self, head: bytes) -> None:
        """Send ``head``, then nothing: the connection stays open and silent until the server stops (or
        MAX_DELAY), as a stalled CDN node does."""
        try:
            self.wfile.write(head)
            self.wfile.flush()
        except OSError:
            return
        self.server.stopping.wait(MAX_DELAY)
        self.close_connection = True

    def _not_modified(self, route: Route) -> bool:
        """RFC 9110: If-None-Match decides when sent; If-Modified-Since only without it."""
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            tags = {tag.strip() for tag in if_none_match.split(",")}
            return route.etag is not None and (route.etag in tags or "*" in tags)
        since = self.headers.get("If-Modified-Since")
        return since is not None and route.last_modified is not None and since == route.last_modified

    def _send(self, status: int, body: bytes, content_type: str | None, headers: Iterable[tuple[str, str | None]],
              location: str | None = None, truncate: int | None = None, pace: float = 0.0,
              stall_at: int | None = None) -> None:
        self.send_response(status)
        if location is not None:
            self.send_header("Location", location)
        for name, value in headers:
            if value is not None:
                self.send_header(name, value)
        if status != 304:
            if content_type is not None:
                self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        if truncate is not None:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        body = body if truncate is None else body[:truncate]
        if stall_at is not None:
            self._stall(body[:stall_at])
            return
        if not pace:
            self.wfile.write(body)
            return
        for at in range(0, len(body), PACE_CHUNK):
            if self.server.stopping.wait(pace):
                return
            try:
                self.wfile.write(body[at:at + PACE_CHUNK])
            except OSError:
                return  # the client went away (a paused download)


class FeedServer:
    """A threaded HTTP server on 127.0.0.1 (random port) serving ``root`` and scripted routes.

    Use as a context manager, or call ``start()`` and ``stop()``.
    """

    def __init__(self, root: Path, tls: ssl.SSLContext | None = None) -> None:
        """``tls``: serve https with this server-side context (tests/helpers/tls_certificate.py makes one)."""
        self.root = root
        self._server = _Server(partial(_Handler, directory=str(root)))
        self._scheme = "https" if tls is not None else "http"
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
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

    @property
    def received(self) -> list[Request]:
        """Every request so far (path and headers), in order."""
        with self._server.lock:
            return list(self._server.received)

    def received_for(self, path: str) -> list[Request]:
        """The requests for ``path`` (with or without its leading slash), in order."""
        key = "/" + path.lstrip("/")
        return [request for request in self.received if request.path == key]

    @property
    def max_concurrent(self) -> int:
        """The most route requests the server was answering at the same time (waiting out a delay included)."""
        with self._server.lock:
            return self._server.max_active

    def url(self, path: str) -> str:
        """The full URL of ``path`` on this server."""
        return f"{self._scheme}://127.0.0.1:{self.port}/{path.lstrip('/')}"

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

    def serve_feed(self, path: str, body: bytes, *, etag: str | None = None, last_modified: str | None = None,
                   headers: Mapping[str, str] | None = None, auth: tuple[str, str] | None = None,
                   delay: float = 0.0, content_type: str = "application/rss+xml") -> str:
        """Serve a feed with validators (answering conditional requests with 304), extra headers, basic auth
        or a delay."""
        return self.route(path, Route(body=body, content_type=content_type, etag=etag, last_modified=last_modified,
                                      headers=tuple((headers or {}).items()), auth=auth, delay=delay))

    def serve_compressed(self, path: str, body: bytes, encoding: str = "gzip",
                         content_type: str = "application/rss+xml") -> str:
        """Serve ``body`` compressed with ``encoding`` (gzip or deflate), saying so in Content-Encoding."""
        encoded = {"gzip": gzip_bytes, "deflate": deflate_bytes}[encoding](body)
        return self.serve_encoded(path, encoded, encoding, content_type)

    def serve_encoded(self, path: str, encoded: bytes, encoding: str,
                      content_type: str = "application/rss+xml") -> str:
        """Serve bytes that are already encoded (a bomb, a broken stream) with this Content-Encoding."""
        return self.route(path, Route(body=encoded, content_type=content_type,
                                      headers=(("Content-Encoding", encoding),)))

    def serve_truncated(self, path: str, body: bytes, sent: int) -> str:
        """Announce all of ``body`` in Content-Length, send only its first ``sent`` bytes, then close."""
        return self.route(path, Route(body=body, truncate=sent))

    def serve_status_with(self, path: str, status: int, headers: Mapping[str, str]) -> str:
        """Answer with a bare HTTP status and these headers (a 429 or 503 with Retry-After)."""
        return self.route(path, Route(status=status, body=f"status {status}".encode(), content_type="text/plain",
                                      headers=tuple(headers.items())))

    def serve_media(self, path: str, body: bytes, *, pace: float = 0.0, truncate: int | None = None,
                    truncate_requests: int | None = None, content_type: str = "audio/wav") -> str:
        """Serve an episode's bytes with Range support, optionally slowly (``pace`` seconds per 16 KiB) or
        broken off after ``truncate`` bytes for the first ``truncate_requests`` requests."""
        return self.route(path, Route(body=body, content_type=content_type, ranges=True, pace=pace,
                                      truncate=truncate, truncate_requests=truncate_requests))

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

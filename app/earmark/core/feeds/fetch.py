"""Reading a feed's bytes from an http(s) URL, a file:// URL or a local path."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlparse

from earmark import __version__
from earmark.core.errors import UnreachableError

MAX_FEED_BYTES = 50 * 1024 * 1024
TIMEOUT_SECONDS = 20.0  # per network operation (connect, each read)
TOTAL_SECONDS = 90.0  # for the whole body
CHUNK_BYTES = 256 * 1024
USER_AGENT = f"Earmark/{__version__} (+podcast and article library)"


@dataclass(slots=True)
class Fetched:
    """A document's bytes and where they finally came from (after redirects)."""

    data: bytes
    url: str
    content_type: str | None = None  # the server's, with its charset: feedparser decodes by it


def is_web_url(source: str) -> bool:
    """Whether ``source`` names an http(s) resource rather than a local file."""
    return urlparse(source).scheme in ("http", "https")


def canonical_source(source: str) -> str:
    """The form a source is stored under: web URLs as given, local files as absolute file:// URLs."""
    try:
        parsed = urlparse(source.strip())
    except ValueError as exc:
        raise UnreachableError(f"{source!r} is not a valid address: {exc}.") from exc
    if parsed.scheme in ("http", "https"):
        return source.strip()
    if parsed.scheme == "file":
        return Path(unquote(parsed.path)).resolve().as_uri()
    if parsed.scheme and len(parsed.scheme) > 1:
        raise UnreachableError(f"Earmark cannot read {source!r}: only http, https and local files are supported.")
    return Path(source).expanduser().resolve().as_uri()


def fetch(source: str, timeout: float = TIMEOUT_SECONDS) -> Fetched:
    """Fetch a feed from the web or the disk; UnreachableError with a plain sentence on any failure."""
    url = canonical_source(source)
    if not is_web_url(url):
        return _read_file(url)
    import http.client  # deferred with urllib.request: http.client costs ~20 ms of the window's start-up
    import urllib.error
    import urllib.request

    try:
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = _read_within(response, url, time.monotonic() + TOTAL_SECONDS)
            final_url = response.geturl()
            content_type = response.headers.get("Content-Type")
    except urllib.error.HTTPError as exc:
        exc.close()
        if 300 <= exc.code < 400:
            raise UnreachableError(f"{url} redirects in a loop or to nowhere (HTTP {exc.code}).") from exc
        raise UnreachableError(f"{url} answered with HTTP error {exc.code} ({exc.reason}).") from exc
    except urllib.error.URLError as exc:
        raise UnreachableError(f"{url} could not be reached: {_reason(exc.reason)}.") from exc
    except (TimeoutError, OSError) as exc:
        raise UnreachableError(f"{url} could not be reached: {_reason(exc)}.") from exc
    except (http.client.HTTPException, ValueError) as exc:
        raise UnreachableError(f"{url} did not answer like a web server ({type(exc).__name__}).") from exc
    return Fetched(data=data, url=final_url, content_type=content_type)


def _read_within(response: BinaryIO, url: str, deadline: float) -> bytes:
    """The body, read in chunks so that a server trickling bytes cannot hold a fetch forever."""
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read(CHUNK_BYTES):
        size += len(chunk)
        if size > MAX_FEED_BYTES:
            raise _too_large(url)
        if time.monotonic() > deadline:
            raise UnreachableError(f"{url} took more than {TOTAL_SECONDS:g} s to send the feed; gave up.")
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(name: object) -> UnreachableError:
    return UnreachableError(f"{name} is larger than {MAX_FEED_BYTES // (1024 * 1024)} MB, too large for a feed.")


def _read_file(url: str) -> Fetched:
    path = Path(unquote(urlparse(url).path))
    try:
        size = path.stat().st_size
        if size > MAX_FEED_BYTES:
            raise _too_large(path)
        return Fetched(data=path.read_bytes(), url=url)
    except FileNotFoundError as exc:
        raise UnreachableError(f"There is no file {path}.") from exc
    except IsADirectoryError as exc:
        raise UnreachableError(f"{path} is a folder, not a feed file.") from exc
    except OSError as exc:
        raise UnreachableError(f"{path} cannot be read: {exc.strerror}.") from exc


def _reason(reason: object) -> str:
    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
        return "the connection timed out"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror[0].lower() + reason.strerror[1:]
    return str(reason)

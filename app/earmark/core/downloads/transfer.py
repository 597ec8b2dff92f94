"""One resumable HTTP download: Range requests continue a partial file, failures are retried."""

from __future__ import annotations

import errno
import http.client
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from earmark.core.errors import UnreachableError
from earmark.core.feeds.fetch import USER_AGENT

CHUNK_BYTES = 64 * 1024
TIMEOUT_SECONDS = 20.0  # per network operation: a stalled server fails the attempt after this
RETRY_DELAYS = (1.0, 3.0, 10.0)  # seconds before the 1st, 2nd, 3rd... retry (the last repeats)

Progress = Callable[[int, int | None], None]  # bytes on disk, total size when known


class DownloadCancelled(Exception):  # noqa: N818 - a signal to stop, not an error
    """The download was paused or cancelled; what was received stays in the .part file."""


@dataclass(slots=True)
class Transfer:
    """What a finished download left: the file and its size."""

    path: Path
    size: int


def part_path(path: Path) -> Path:
    """Where the bytes received so far are kept until the download is complete."""
    return path.with_name(path.name + ".part")


def download(url: str, path: Path, *, progress: Progress | None = None, stop: threading.Event | None = None,
             retries: int = 3, timeout: float = TIMEOUT_SECONDS,
             delays: tuple[float, ...] = RETRY_DELAYS) -> Transfer:
    """Download ``url`` to ``path``, continuing ``path.part`` with a Range request when it exists.

    Raises UnreachableError with a sentence after ``retries`` failed retries, DownloadCancelled when ``stop``
    is set (the partial file stays for a later resume).
    """
    stop = stop or threading.Event()
    path.parent.mkdir(parents=True, exist_ok=True)
    attempt = 0
    while True:
        try:
            size = _attempt(url, part_path(path), progress, stop, timeout)
            break
        except UnreachableError:
            if attempt >= retries:
                raise
            delay = delays[min(attempt, len(delays) - 1)] if delays else 0.0
            attempt += 1
            if stop.wait(delay):
                raise DownloadCancelled() from None
    part_path(path).replace(path)
    return Transfer(path, size)


def _attempt(url: str, part: Path, progress: Progress | None, stop: threading.Event, timeout: float) -> int:
    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        response = urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 - http(s) URLs from feeds
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:  # nothing left to send: the partial file is complete
            exc.close()
            return have
        exc.close()
        raise UnreachableError(f"{url} could not be downloaded: the server answered {exc.code} {exc.reason}.") \
            from exc
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UnreachableError(f"{url} could not be downloaded: {reason}.") from exc
    with response:
        if have and response.status != 206:
            have = 0  # the server ignored the Range header: start over
        length = response.headers.get("Content-Length")
        total = have + int(length) if length and length.isdigit() else None
        try:
            with part.open("ab" if have else "wb") as out:
                received = have
                while True:
                    if stop.is_set():
                        raise DownloadCancelled()
                    chunk = response.read(CHUNK_BYTES)
                    if not chunk:
                        break
                    out.write(chunk)
                    received += len(chunk)
                    if progress is not None:
                        progress(received, total)
        except (OSError, ValueError, http.client.HTTPException) as exc:
            if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
                raise UnreachableError(f"The disk is full: {part.parent} has no room for the download.") \
                    from exc
            raise UnreachableError(f"{url} could not be downloaded: the connection broke ({exc}).") from exc
    if total is not None and received < total:
        raise UnreachableError(f"{url} could not be downloaded: the server sent {received} of {total} bytes.")
    return received

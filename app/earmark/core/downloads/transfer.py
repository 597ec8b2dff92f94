"""One resumable HTTP download: every byte that arrives is kept in a .part file, Range requests continue it,
what arrives is checked to be audio or video, and failures are retried only when asking again can help."""

from __future__ import annotations

import errno
import http.client
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from earmark.core.downloads.content import check_content
from earmark.core.downloads.failures import DownloadError, episode_name, network_reason, size_text
from earmark.core.downloads.http import open_media
from earmark.core.records import record

CHUNK_BYTES = 64 * 1024  # the most read at once: a read returns what has arrived, never waits for a full block
SNIFF_BYTES = 512  # read before the first write, to tell audio from a web page
TIMEOUT_SECONDS = 20.0  # per network operation: a stalled server fails the attempt after this
RETRY_DELAYS = (1.0, 3.0, 10.0)  # seconds before the 1st, 2nd, 3rd... retry (the last repeats)
MAX_RETRY_AFTER = 60.0  # a server's Retry-After is honoured up to this

Progress = Callable[[int, int | None], None]  # bytes on disk, total size when known


class DownloadCancelled(Exception):  # noqa: N818 - a signal to stop, not an error
    """The download was paused or cancelled; what was received stays in the .part file."""


@record
class Transfer:
    """What a finished download left: the file and its size."""

    path: Path
    size: int


SHORT_FACTOR = 10  # a complete body this many times smaller than the feed's length is not the episode


@record(frozen=True)
class Expected:
    """What the feed says of the enclosure: its media type and length in bytes."""

    content_type: str | None = None
    length: int | None = None

    def shortfall(self, size: int) -> str | None:
        """Why a complete file of ``size`` bytes is not the episode the feed announces (a reason for a
        sentence), or None. Only a file far smaller counts: lengths in feeds are often approximate or stale
        (another bitrate, inserted ads), and a tenth is beyond those; a stub or a cut-off file is not."""
        if self.length is None or size * SHORT_FACTOR >= self.length:
            return None
        return (f"the server sent {size_text(size)}, far less than the {size_text(self.length)} the feed "
                "announces (a cut-off file or a stand-in, not the episode)")


def part_path(path: Path) -> Path:
    """Where the bytes received so far are kept until the download is complete."""
    return path.with_name(path.name + ".part")


def download(url: str, path: Path, *, progress: Progress | None = None, stop: threading.Event | None = None,
             retries: int = 3, timeout: float = TIMEOUT_SECONDS, delays: tuple[float, ...] = RETRY_DELAYS,
             name: str | None = None, expected: Expected | None = None) -> Transfer:
    """Download ``url`` to ``path``, continuing ``path.part`` when it exists. ``name`` is the episode's title
    for sentences.

    Raises DownloadError with a sentence (at once when retrying cannot help, else after ``retries`` failed
    retries), DownloadCancelled when ``stop`` is set (the partial file stays for a later resume).
    """
    job = _Job(url, part_path(path), name or episode_name(url), expected or Expected(), progress,
               stop or threading.Event(), timeout)
    path.parent.mkdir(parents=True, exist_ok=True)
    attempt = 0
    while True:
        try:
            size = job.attempt()
            break
        except DownloadError as exc:
            if not exc.retryable or attempt >= retries:
                raise exc.after(attempt + 1) from exc
            delay = delays[min(attempt, len(delays) - 1)] if delays else 0.0
            if exc.retry_after is not None:
                delay = max(delay, min(exc.retry_after, MAX_RETRY_AFTER))
            attempt += 1
            if job.stop.wait(delay):
                raise DownloadCancelled() from None
    short = job.expected.shortfall(size)
    if short is not None:
        job.part.unlink(missing_ok=True)  # not kept to resume: the server says this is the whole file
        raise DownloadError(job.name, short, retryable=False)
    job.part.replace(path)
    return Transfer(path, size)


@record
class _Job:
    url: str
    part: Path
    name: str
    expected: Expected
    progress: Progress | None
    stop: threading.Event
    timeout: float

    def attempt(self) -> int:
        """One request: append what arrives to the .part file; returns the complete size."""
        have = self.part.stat().st_size if self.part.exists() else 0
        response = open_media(self.url, self.name, have, self.timeout)
        if response is None:
            return have  # nothing after the bytes held: the partial file is complete
        with response:
            resumed = bool(have) and getattr(response, "status", None) == 206
            skip = 0 if resumed else have  # a server that ignores Range sends it all again: skip what is held
            length = response.headers.get("Content-Length")
            total = (have if resumed else 0) + int(length) if length and length.isdigit() else None
            received = self._receive(response, have, skip, total, resumed)
        if total is not None and received < total:
            raise DownloadError(self.name, f"the connection broke after {size_text(received)} of "
                                           f"{size_text(total)}; the download resumes from there")
        return received

    def _receive(self, response: http.client.HTTPResponse, have: int, skip: int, total: int | None,
                 resumed: bool) -> int:
        received = have
        chunks = self._chunks(response, have)
        head = b""
        if not resumed:  # the start of the file: audio, or a web page in its place?
            for chunk in chunks:
                head += chunk
                if len(head) >= SNIFF_BYTES:
                    break
        problem = check_content(response.headers.get("Content-Type"), head if not resumed else None,
                                self.expected.content_type)
        if problem is not None:
            raise DownloadError(self.name, problem, retryable=False)
        try:
            with self.part.open("ab", buffering=0) as out:  # unbuffered: what arrived is on disk at once
                for chunk in _prepend(head, chunks):
                    if skip:
                        dropped = min(skip, len(chunk))
                        chunk, skip = chunk[dropped:], skip - dropped
                    if chunk:
                        out.write(chunk)
                        received += len(chunk)
                        if self.progress is not None:
                            self.progress(received, total)
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise DownloadError(self.name, f"the disk is full ({self.part.parent} has no room)", False) \
                    from exc
            raise DownloadError(self.name, f"the file could not be written ({exc.strerror or exc})", False) \
                from exc
        return received

    def _chunks(self, response: http.client.HTTPResponse, have: int) -> Iterator[bytes]:
        """What arrives, as it arrives; a stall or a broken connection becomes a DownloadError."""
        while True:
            if self.stop.is_set():
                raise DownloadCancelled()
            try:
                chunk = response.read1(CHUNK_BYTES)
            except TimeoutError as exc:
                kept = self.part.stat().st_size if self.part.exists() else have
                raise DownloadError(self.name, f"nothing arrived for {self.timeout:g} s (the server is too slow "
                                               f"or stalled); {size_text(kept)} kept for the next try") from exc
            except (OSError, http.client.HTTPException, ValueError) as exc:
                raise DownloadError(self.name, network_reason(exc)) from exc
            if not chunk:
                return
            yield chunk


def _prepend(head: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if head:
        yield head
    yield from rest

"""Fetching a cover: once, conditionally when it was fetched before (ETag, Last-Modified), within a byte limit,
refused whole when hostile. Network and CPU work: call it off the UI thread."""

from __future__ import annotations

from pathlib import Path

from earmark.core.errors import UnreachableError
from earmark.core.feeds.fetch import Validators, fetch
from earmark.core.images.cache import store
from earmark.core.images.decode import ImageRefusedError, thumbnails
from earmark.core.records import record
from earmark.core.timefmt import now_iso

MAX_COVER_BYTES = 8 * 1024 * 1024  # an endless or enormous body stops here
TIMEOUT_SECONDS = 15.0


@record
class CoverState:
    """What the library knows of one image address (a row of ``covers``): the cached file's name, the
    server's validators, when it was last asked, and why nothing is shown (None when all is well)."""

    url: str
    file: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    checked: str | None = None
    problem: str | None = None


def fetch_cover(state: CoverState, folder: Path | None = None) -> CoverState:
    """The image at ``state.url`` fetched (conditionally, when a file is cached) and stored at every size. The
    new state says what happened; it never raises for the image's own faults (a refused or unreachable image
    keeps the cached file it had, if any, and says why)."""
    validators = Validators(state.etag, state.last_modified) if state.file else None
    try:
        fetched = fetch(state.url, validators, TIMEOUT_SECONDS, what="image", max_bytes=MAX_COVER_BYTES)
        if fetched.not_modified:
            return CoverState(state.url, state.file, fetched.etag or state.etag,
                              fetched.last_modified or state.last_modified, now_iso())
        name = store(state.url, thumbnails(fetched.data, fetched.content_type, state.url), folder)
    except (ImageRefusedError, UnreachableError) as exc:
        return CoverState(state.url, state.file, state.etag, state.last_modified, now_iso(), str(exc))
    return CoverState(state.url, name, fetched.etag, fetched.last_modified, now_iso())

"""A podcast's cover art for the desktop's media controls: the episode's image, else its podcast's, kept as a
local file in the cover cache (MPRIS widgets show ``file://`` art at once and never fetch the web themselves)."""

from __future__ import annotations

from pathlib import Path

from earmark.core.db.database import Database
from earmark.core.errors import UnreachableError
from earmark.core.images.fetch import CoverState, fetch_cover
from earmark.core.images.paths import cached_file


def artwork_url(db: Database, item_id: int) -> str | None:
    """Where the item's image is: its own, else its podcast's (None when the feed names none)."""
    row = db.execute("""SELECT coalesce(i.image_url, s.image_url) FROM items i LEFT JOIN sources s
                        ON s.id = i.source_id WHERE i.id = ?""", [item_id]).fetchone()
    return row[0] if row and row[0] else None


def cached_artwork(url: str, folder: Path | None = None) -> Path:
    """The image at ``url`` as a file of the cover cache (fetched once, checked as every cover is; network work:
    call it off the UI thread). UnreachableError with a sentence when it cannot be fetched or is refused."""
    found = cached_file(url, folder=folder)
    if found is None:
        state = fetch_cover(CoverState(url), folder)
        found = cached_file(url, folder=folder)
        if found is None:
            raise UnreachableError(state.problem or f"{url} gave no cover.")
    return found

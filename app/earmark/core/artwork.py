"""A podcast's cover art for the desktop's media controls: the episode's image, else its podcast's, kept as a
local file (MPRIS widgets show ``file://`` art at once and never fetch the web themselves)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import urlsplit

from earmark.core.db.database import Database
from earmark.core.feeds.fetch import fetch
from earmark.core.files import write_file

MAX_ART_BYTES = 10 * 1024 * 1024
_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".gif"}


def artwork_url(db: Database, item_id: int) -> str | None:
    """Where the item's image is: its own, else its podcast's (None when the feed names none)."""
    row = db.execute("""SELECT coalesce(i.image_url, s.image_url) FROM items i LEFT JOIN sources s
                        ON s.id = i.source_id WHERE i.id = ?""", [item_id]).fetchone()
    return row[0] if row and row[0] else None


def cached_artwork(url: str, folder: Path) -> Path:
    """The image at ``url`` as a file in ``folder`` (fetched once; network work: call it off the UI thread).
    UnreachableError with a sentence when it cannot be fetched."""
    suffix = Path(urlsplit(url).path).suffix.lower()
    path = folder / (hashlib.blake2b(url.encode(), digest_size=12).hexdigest() + (suffix if suffix in _SUFFIXES
                                                                                 else ".img"))
    if not path.is_file():
        data = fetch(url, what="image", max_bytes=MAX_ART_BYTES).data
        folder.mkdir(parents=True, exist_ok=True)
        write_file(path, data)
    return path

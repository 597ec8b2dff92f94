"""Writing covers into the cache folder (core/images/paths.py names the files), whole or not at all."""

from __future__ import annotations

from pathlib import Path

from earmark.core.files import write_file
from earmark.core.images.decode import Thumbnails
from earmark.core.images.paths import SUFFIXES, cover_folder, cover_key


def store(url: str, thumbnails: Thumbnails, folder: Path | None = None) -> str:
    """Write the cover at each size; the name ``covers.file`` keeps. UnreachableError when the disk says no."""
    root = folder or cover_folder()
    name = cover_key(url) + thumbnails.suffix
    for size, data in thumbnails.sizes.items():
        (root / str(size)).mkdir(parents=True, exist_ok=True)
        write_file(root / str(size) / name, data)
        for other in SUFFIXES:  # a cover that gained or lost transparency leaves no stale twin behind
            if other != thumbnails.suffix:
                (root / str(size) / name).with_suffix(other).unlink(missing_ok=True)
    return name


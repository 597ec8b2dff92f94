"""Where covers live in the user's cache folder: one file per image address and size, named by the address's
hash (``covers/256/<hash>.jpg``), written whole or not at all."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from earmark.core.files import write_file
from earmark.core.images.decode import SIZES, Thumbnails
from earmark.core.user_folders import user_folder

SUFFIXES = (".jpg", ".png")
COVERS_ENV = "EARMARK_COVERS"  # another folder for the cover cache (tests, the screenshots, the bench)


def cover_folder() -> Path:
    """The cover cache: ``$EARMARK_COVERS``, else ``~/.cache/earmark/covers`` on Linux."""
    given = os.environ.get(COVERS_ENV, "")
    return Path(given) if os.path.isabs(given) else user_folder("cache") / "covers"


def cover_key(url: str) -> str:
    """The file name (without suffix) of the image at ``url``."""
    return hashlib.blake2b(url.encode(), digest_size=12).hexdigest()


def size_for(pixels: int) -> int:
    """The smallest size kept that is at least ``pixels`` wide (the largest when none is)."""
    return next((size for size in SIZES if size >= pixels), SIZES[-1])


def cached_file(url: str, pixels: int = SIZES[-1], folder: Path | None = None) -> Path | None:
    """The cached file of the image at ``url`` for a cover ``pixels`` wide, None until it is fetched."""
    base = (folder or cover_folder()) / str(size_for(pixels)) / cover_key(url)
    return next((path for suffix in SUFFIXES if (path := base.with_suffix(suffix)).is_file()), None)


def named_file(name: str | None, folder: Path | None = None) -> str | None:
    """The largest cached file of a ``covers.file`` name, as a path, when it is still on disk."""
    if not name:
        return None
    path = (folder or cover_folder()) / str(SIZES[-1]) / name
    return str(path) if path.is_file() else None


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


def cache_bytes(folder: Path | None = None) -> int:
    """How much the cover cache holds on disk."""
    root = folder or cover_folder()
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file()) if root.is_dir() else 0

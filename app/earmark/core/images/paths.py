"""Where covers live in the user's cache folder: one file per image address and size, named by the address's
hash (``covers/256/<hash>.jpg``). Light on imports: listing items names their covers' files."""

from __future__ import annotations

import os
from pathlib import Path

from earmark.core.user_folders import user_folder

SIZES = (64, 128, 256)  # square edges, in pixels, of the files kept: the views pick the nearest and scale down
SUFFIXES = (".jpg", ".png")
COVERS_ENV = "EARMARK_COVERS"  # another folder for the cover cache (tests, the screenshots, the bench)


def cover_folder() -> Path:
    """The cover cache: ``$EARMARK_COVERS``, else ``~/.cache/earmark/covers`` on Linux."""
    given = os.environ.get(COVERS_ENV, "")
    return Path(given) if os.path.isabs(given) else user_folder("cache") / "covers"


def cover_key(url: str) -> str:
    """The file name (without suffix) of the image at ``url``."""
    import hashlib  # here: listing items (which names their covers' files) needs no hashing, and a start none

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

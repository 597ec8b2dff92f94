"""Which of the images a feed names is its cover: podcast:images' srcset, and the order of the candidates."""

from __future__ import annotations

import re
from collections.abc import Callable

_WIDTH = re.compile(r"(\d{1,5})w")


def largest_image(srcset: str, resolve: Callable[[str], str | None]) -> tuple[int, str] | None:
    """The widest image of a ``srcset`` ("a.jpg 1500w, b.jpg 600w") as (width, address resolved by ``resolve``);
    one without a width counts as narrowest. None when no candidate resolves."""
    best: tuple[int, str] | None = None
    for candidate in srcset.split(","):
        parts = candidate.split()
        if not parts:
            continue
        url = resolve(parts[0])
        width = _WIDTH.fullmatch(parts[1]) if len(parts) > 1 else None
        size = int(width.group(1)) if width else 0
        if url and (best is None or size > best[0]):
            best = (size, url)
    return best


def widest(images: list[tuple[int, str] | None]) -> str | None:
    """The address of the widest of (width, address) candidates; the first among equals."""
    found = [image for image in images if image is not None]
    return max(found, key=lambda image: image[0])[1] if found else None


def first_image(*candidates: str | None) -> str | None:
    """The first candidate given: callers list them best first (the cover a podcast app shows)."""
    return next((candidate for candidate in candidates if candidate), None)

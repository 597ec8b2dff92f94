"""Turning fetched bytes into the cover's sizes, refusing what is hostile before decoding it: a type that is not a
raster image (SVG is never rendered), a picture whose header announces too many pixels (decompression bombs,
huge dimensions), a truncated or broken file. Pillow is imported on first use (never at start-up)."""

from __future__ import annotations

import io
import warnings
from typing import TYPE_CHECKING

from earmark.core.errors import EarmarkError
from earmark.core.images.paths import SIZES
from earmark.core.records import record

if TYPE_CHECKING:
    from PIL.Image import Image as Picture

MAX_PIXELS = 6000 * 6000  # read from the header, before any decoding
MAX_SIDE = 12000
_MAGIC = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpeg", b"GIF87a": "gif", b"GIF89a": "gif",
          b"BM": "bmp", b"\x00\x00\x01\x00": "ico"}
_FORMATS = ["PNG", "JPEG", "GIF", "WEBP", "BMP", "ICO"]  # what Pillow may try: nothing else is ever parsed


class ImageRefusedError(EarmarkError):
    """An image that is not shown: the sentence says why."""


@record
class Thumbnails:
    """A cover at each of SIZES: encoded bytes, and the suffix of their format (".png" keeps transparency)."""

    sizes: dict[int, bytes]
    suffix: str


def image_kind(data: bytes) -> str | None:
    """The raster format the bytes start with (png, jpeg, gif, webp, bmp, ico), else None (SVG and HTML too)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return next((kind for magic, kind in _MAGIC.items() if data.startswith(magic)), None)


def check_type(content_type: str | None, data: bytes, url: str) -> str:
    """The image's format; ImageRefusedError when the server says it is something else or the bytes are no image."""
    media = (content_type or "").split(";")[0].strip().lower()
    if "svg" in media:
        raise ImageRefusedError(f"{url} is an SVG drawing; Earmark shows only pictures (PNG, JPEG, GIF, WebP).")
    if media and not media.startswith("image/") and media not in ("application/octet-stream", "binary/octet-stream"):
        raise ImageRefusedError(f"{url} is not an image ({media}).")
    kind = image_kind(data)
    if kind is None:
        raise ImageRefusedError(f"{url} is not a picture Earmark can show (PNG, JPEG, GIF, WebP).")
    return kind


def thumbnails(data: bytes, content_type: str | None, url: str) -> Thumbnails:
    """The cover at every size; ImageRefusedError with a sentence for anything hostile or broken. CPU work: off the
    UI thread."""
    check_type(content_type, data, url)
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=_FORMATS)
            width, height = image.size
            if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE or min(width, height) < 1:
                raise ImageRefusedError(f"{url} is {width}×{height} pixels, too large to be a cover.")
            image.draft("RGB", (SIZES[-1], SIZES[-1]))  # a JPEG decodes at a fraction of its size
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:  # Pillow's own check, at open
        raise ImageRefusedError(f"{url} has too many pixels to be a cover (a decompression bomb?).") from exc
    except UnidentifiedImageError as exc:
        raise ImageRefusedError(f"{url} is not a picture Earmark can show (PNG, JPEG, GIF, WebP).") from exc
    except (OSError, ValueError, SyntaxError, EOFError) as exc:  # truncated or corrupt: Pillow's own errors
        raise ImageRefusedError(f"{url} is damaged or cut short ({exc}).") from exc
    return _encode(image)


def _encode(image: Picture) -> Thumbnails:
    from PIL import Image

    alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
    picture = image.convert("RGBA" if alpha else "RGB")
    square = _square(picture)
    sizes: dict[int, bytes] = {}
    for size in SIZES:
        out = io.BytesIO()
        scaled = square.resize((size, size), Image.Resampling.LANCZOS) if square.width != size else square
        scaled.save(out, "PNG" if alpha else "JPEG", **({"optimize": True} if alpha else {"quality": 85}))
        sizes[size] = out.getvalue()
    return Thumbnails(sizes, ".png" if alpha else ".jpg")


def _square(image: Picture) -> Picture:
    """The picture's centre square (covers are square; a wide logo loses its sides, as in every podcast app)."""
    side = min(image.size)
    left, top = (image.width - side) // 2, (image.height - side) // 2
    return image.crop((left, top, left + side, top + side))

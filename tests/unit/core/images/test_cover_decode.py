"""Covers at every size from good pictures; nothing from hostile ones, each with a sentence (fixtures made by
tests/fixtures/images/make_images.py)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from earmark.core.images.decode import SIZES, ImageRefusedError, thumbnails

IMAGES = Path(__file__).parents[3] / "fixtures" / "images"


@pytest.mark.parametrize(("name", "suffix"), [("cover.jpg", ".jpg"), ("transparent.png", ".png")])
def test_a_good_picture_gives_a_square_at_every_size(name: str, suffix: str) -> None:
    made = thumbnails((IMAGES / name).read_bytes(), "image/" + name.split(".")[1], name)
    assert made.suffix == suffix
    for size in SIZES:
        with Image.open(io.BytesIO(made.sizes[size])) as picture:
            assert picture.size == (size, size)
            assert ("A" in picture.getbands()) == (suffix == ".png")  # transparency kept where there was some


@pytest.mark.parametrize(("name", "content_type", "says"), [
    ("bomb.png", "image/png", "too many pixels"),
    ("huge-dimensions.png", "image/png", "too many pixels"),
    ("truncated.jpg", "image/jpeg", "damaged or cut short"),
    ("drawing.svg", "image/svg+xml", "SVG drawing"),
    ("drawing.svg", "image/png", "not a picture"),  # a server that lies about an SVG
    ("page.html", "text/html", r"not an image \(text/html\)"),
    ("cover.jpg", "text/html", r"not an image \(text/html\)"),  # the right bytes under the wrong type
])
def test_a_hostile_image_is_refused_with_a_sentence(name: str, content_type: str, says: str) -> None:
    with pytest.raises(ImageRefusedError, match=says):
        thumbnails((IMAGES / name).read_bytes(), content_type, name)


def test_too_many_pixels_for_a_cover_though_pillow_would_decode_them() -> None:
    out = io.BytesIO()
    Image.new("1", (7000, 7000)).save(out, "PNG")  # 49 million pixels: under Pillow's own limit, over ours
    with pytest.raises(ImageRefusedError, match="7000×7000 pixels, too large"):
        thumbnails(out.getvalue(), "image/png", "wide.png")

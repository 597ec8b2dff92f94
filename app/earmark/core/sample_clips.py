"""The sample library's episodes play short clips of the real ones (to stay small and offline): what a clip's
player says of its length is not the episode's duration."""

from __future__ import annotations

from functools import cache

from earmark.core.package_data import resource_folder


@cache
def clips_prefix() -> str:
    """The start of every sample clip's file:// address."""
    return (resource_folder() / "sample" / "audio").as_uri() + "/"


def is_sample_clip(enclosure_url: str | None) -> bool:
    """Whether the episode's audio is one of the sample's clips."""
    return bool(enclosure_url) and str(enclosure_url).startswith(clips_prefix())

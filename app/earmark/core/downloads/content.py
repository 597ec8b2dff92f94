"""Checking what a server sent for an episode: audio or video, not the web page a CDN shows in its place."""

from __future__ import annotations

from earmark.core.downloads.media_types import GENERIC_TYPES, base_type, is_media_type, looks_like_text, sniff

_TEXT_TYPES = ("text/", "application/json", "application/xml", "application/xhtml", "application/javascript")


def check_content(content_type: str | None, head: bytes | None, expected_type: str | None) -> str | None:
    """Why the answer is not the episode (a reason for a sentence), or None when it is audio or video.

    ``head``: the first bytes of the file (None for the continuation of a partial file, whose type alone is
    checked). Audio by its first bytes always passes, whatever the type says; text never does; otherwise the
    type must say audio or video, be a generic one, or be the type the feed announced."""
    kind = base_type(content_type)
    if head is not None and sniff(head) is not None:
        return None
    text = (head is not None and looks_like_text(head)) or kind.startswith(_TEXT_TYPES)
    if text:
        if "html" in kind or (head is not None and head.lstrip()[:1] == b"<"):
            return "the server sent a web page instead of the audio"
        return f"the server sent text ({kind or 'of no type'}) instead of the audio"
    if head is not None and not head:
        return "the server sent an empty file"
    if is_media_type(kind) or kind in GENERIC_TYPES or kind == base_type(expected_type):
        return None
    return f"the server sent {kind} instead of audio or video"

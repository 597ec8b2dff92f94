"""Audio and video formats: their file extensions, media types and first bytes, to name downloaded files
and to tell an episode from the web page a server sent in its place."""

from __future__ import annotations

import codecs
import re

NEUTRAL_EXTENSION = ".bin"  # for an enclosure whose type and address name no audio or video format

# Extension → the media types that say the same format (the first one names it).
EXTENSIONS: dict[str, tuple[str, ...]] = {
    ".mp3": ("audio/mpeg", "audio/mp3", "audio/x-mp3", "audio/mpeg3", "audio/x-mpeg", "audio/mpa"),
    ".m4a": ("audio/mp4", "audio/x-m4a", "audio/m4a", "audio/aac", "audio/x-aac", "audio/aacp"),
    ".m4b": ("audio/mp4", "audio/x-m4b", "audio/m4b"),
    ".aac": ("audio/aac", "audio/x-aac", "audio/aacp", "audio/mp4"),
    ".ogg": ("audio/ogg", "audio/vorbis", "application/ogg", "audio/x-ogg", "audio/opus"),
    ".oga": ("audio/ogg", "audio/vorbis", "application/ogg", "audio/opus"),
    ".opus": ("audio/opus", "audio/ogg", "application/ogg"),
    ".wav": ("audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"),
    ".flac": ("audio/flac", "audio/x-flac"),
    ".mp4": ("video/mp4", "audio/mp4", "video/x-m4v"),
    ".m4v": ("video/x-m4v", "video/mp4"),
    ".mov": ("video/quicktime",),
    ".webm": ("video/webm", "audio/webm"),
    ".mkv": ("video/x-matroska",),
    ".mka": ("audio/x-matroska",),
}
# Media type → the extension a file of that type gets when its address names none that fits.
TYPE_EXTENSIONS: dict[str, str] = {}
for _extension, _types in EXTENSIONS.items():
    for _type in _types:
        TYPE_EXTENSIONS.setdefault(_type, _extension)

GENERIC_TYPES = frozenset({"", "application/octet-stream", "binary/octet-stream", "application/binary",
                           "application/download", "application/force-download", "application/x-download"})

_MAGIC: tuple[tuple[re.Pattern[bytes], str], ...] = tuple((re.compile(pattern, re.DOTALL), kind) for pattern, kind in (
    (rb"ID3", "audio/mpeg"),
    (rb"\xff[\xe0-\xff]", "audio/mpeg"),  # an MPEG audio frame (or ADTS AAC) without tags
    (rb"RIFF....WAVE", "audio/wav"),
    (rb"fLaC", "audio/flac"),
    (rb"OggS", "audio/ogg"),
    (rb"....ftyp", "audio/mp4"),  # MP4, M4A, M4B, MOV
    (rb"....moov", "video/quicktime"),
    (rb"\x1a\x45\xdf\xa3", "video/webm"),  # Matroska and WebM
    (rb"#!AMR", "audio/amr"),
    (rb"\x30\x26\xb2\x75\x8e\x66\xcf\x11", "audio/x-ms-wma"),  # ASF
))
_MARKUP = re.compile(rb"\s*(<|\{|\[)", re.ASCII)


def base_type(content_type: str | None) -> str:
    """``audio/mpeg`` of ``Audio/MPEG; charset=binary`` ("" for none)."""
    return (content_type or "").split(";")[0].strip().lower()


def is_media_type(content_type: str | None) -> bool:
    """Whether a media type says audio or video."""
    return base_type(content_type).startswith(("audio/", "video/")) or base_type(content_type) == "application/ogg"


def sniff(head: bytes) -> str | None:
    """The audio or video format the first bytes of a file show, if any."""
    for pattern, kind in _MAGIC:
        if pattern.match(head):
            return kind
    return None


def looks_like_text(head: bytes) -> bool:
    """Whether the first bytes are text (a web page, JSON, an error message) rather than encoded media: media
    has bytes that are no text at all within its first few hundred."""
    sample = head[:512]
    if not sample:
        return False
    if _MARKUP.match(sample):
        return True
    try:  # incremental: a character cut at the sample's end is not an error
        text = codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
    except UnicodeDecodeError:
        return False
    return all(ch.isprintable() or ch in "\r\n\t" for ch in text)


def extension_matches(extension: str, content_type: str | None) -> bool:
    """Whether a file extension names the format a media type says (any type fits a generic one)."""
    kind = base_type(content_type)
    return kind in GENERIC_TYPES or kind in EXTENSIONS.get(extension, ())

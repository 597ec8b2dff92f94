"""File names for downloads built from feed text, which must never leave the downloads folder."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote, urlparse

from earmark.core.downloads.media_types import (
    EXTENSIONS,
    NEUTRAL_EXTENSION,
    TYPE_EXTENSIONS,
    base_type,
    extension_matches,
)

MAX_NAME_BYTES = 120  # per path component, well under every file system's 255
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))}
_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]+')


def safe_component(text: str, fallback: str = "untitled") -> str:
    """One path component from any text: no separators, control characters, leading dots, trailing dots or
    spaces, no Windows device names; NFC, at most MAX_NAME_BYTES of UTF-8."""
    name = unicodedata.normalize("NFC", text)
    name = _UNSAFE.sub(" ", name)
    name = " ".join(name.split()).strip(" .")
    name = _truncate(name, MAX_NAME_BYTES).strip(" .")
    if not name:
        name = fallback
    if name.split(".")[0].upper() in _RESERVED:
        name = f"_{name}"
    return name


def _truncate(text: str, limit: int) -> str:
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore")


def extension_for(url: str, content_type: str | None) -> str:
    """The file extension of an enclosure. The feed does not choose it freely (``x.sh`` must not become an
    executable-looking file): the URL's extension is kept only when it is an audio or video one that fits the
    enclosure's type; else the type's own extension; else a neutral one."""
    try:
        suffix = Path(unquote(urlparse(url).path)).suffix.lower()
    except ValueError:  # found by fuzzing: "https://[x/a.mp3" (a malformed IPv6 host) raised from add_download
        suffix = ""
    if suffix in EXTENSIONS and extension_matches(suffix, content_type):
        return suffix
    return TYPE_EXTENSIONS.get(base_type(content_type), NEUTRAL_EXTENSION)


def download_path(folder: Path, podcast: str | None, title: str, url: str, content_type: str | None = None) -> Path:
    """Where an episode is saved: ``folder/<podcast>/<title>.<ext>``, built only from sanitized components,
    so that no feed text ("../", absolute paths, device names) can point outside ``folder``."""
    root = folder.resolve()
    ext = extension_for(url, content_type)
    stem = safe_component(title)
    stem = _truncate(stem, MAX_NAME_BYTES - len(ext)).strip(" .") or "untitled"
    path = root / safe_component(podcast or "", "Episodes") / f"{stem}{ext}"
    if not path.resolve().is_relative_to(root):  # cannot happen with safe components; checked all the same
        raise ValueError(f"{path} is outside {root}")
    return path


def unique_path(path: Path, taken: set[str]) -> Path:
    """``path``, or ``name (2).ext``… when another download already uses it (``taken``: paths in use)."""
    candidate, number = path, 2
    while str(candidate) in taken:
        candidate = path.with_name(f"{path.stem} ({number}){path.suffix}")
        number += 1
    return candidate

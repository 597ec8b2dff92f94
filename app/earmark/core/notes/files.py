"""Files that exports write: safe names that work on every system, and the folder they go in."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from earmark.core.errors import UnreachableError

MAX_NAME_CHARS = 100
# Characters Windows, macOS, Obsidian ([[links]], #tags, ^blocks) or shells treat specially.
_UNSAFE = re.compile(r'[<>:"/\\|?*#^\[\]\x00-\x1f\x7f]')
_RESERVED = re.compile(r"(?i)(con|prn|aux|nul|com\d|lpt\d)(\..*)?")


def safe_name(text: str) -> str:
    """A file name (without extension) from a title: unsafe characters become spaces, at most 100
    characters, cut at a word, never empty, hidden or a reserved device name."""
    name = " ".join(_UNSAFE.sub(" ", unicodedata.normalize("NFC", text)).split())
    if len(name) > MAX_NAME_CHARS:
        cut = name[:MAX_NAME_CHARS]
        name = cut.rsplit(" ", 1)[0] if " " in cut[MAX_NAME_CHARS // 2:] else cut
    name = name.strip(" .")
    if not name:
        return "Untitled"
    return f"{name}_" if _RESERVED.fullmatch(name) else name


def prepare_folder(folder: Path) -> None:
    """Create the folder an export writes into; UnreachableError when it is a file or cannot be made."""
    if folder.exists() and not folder.is_dir():
        raise UnreachableError(f"{folder} is a file; Markdown notes are written into a folder, one file per item.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UnreachableError(f"Could not create the folder {folder}: {exc.strerror or exc}.") from exc

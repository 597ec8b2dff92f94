"""Earmark's tags as tags Obsidian and Logseq accept: letters, digits, ``_``, ``-`` and ``/`` (nesting), not
only digits. docs/export.md says how a tag is changed to fit."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

# Symbols that carry meaning in a tag become words: "c++" is c-plus-plus, not c.
_WORDS = {"+": "plus", "#": "sharp", "&": "and", "@": "at"}
_DASHES = re.compile(r"-{2,}")


def note_tag(name: str) -> str | None:
    """The Obsidian tag for an Earmark tag (``café talk`` → ``café-talk``, ``c++`` → ``c-plus-plus``,
    ``project:x`` → ``project-x``, ``tech/deep & nested`` → ``tech/deep-and-nested``, ``2024`` → ``_2024``);
    None when nothing of it can be a tag."""
    pieces = []
    for char in unicodedata.normalize("NFC", name):
        if char in "_-/" or unicodedata.category(char)[0] in "LMN":
            pieces.append(char)
        else:
            pieces.append(f"-{_WORDS[char]}-" if char in _WORDS else "-")
    segments = [_DASHES.sub("-", segment).strip("-") for segment in "".join(pieces).split("/")]
    tag = "/".join(segment for segment in segments if segment)
    if not tag:
        return None
    return f"_{tag}" if all(char.isdigit() or char == "/" for char in tag) else tag


def note_tags(names: Iterable[str]) -> list[str]:
    """The Obsidian tags for these Earmark tags: each once, sorted."""
    return sorted({tag for tag in map(note_tag, names) if tag})

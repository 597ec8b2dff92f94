"""What a reading-list file holds once read: its entries (saved articles with the reader's state) and notes."""

from __future__ import annotations

from dataclasses import field

from earmark.core.models import Anchor
from earmark.core.records import record


@record
class KeptNote:
    """A note as Earmark's own export keeps it: a highlight (with its anchor) or a note on the article."""

    text: str
    quote: str = ""
    at: float | None = None
    anchor: Anchor | None = None
    created: str | None = None
    updated: str | None = None


@record
class OwnState:
    """What only Earmark's own export carries, restored as it was: where the reader is, when they last read,
    whether remote images are allowed, the reading time, why the text is missing, and every note."""

    site: str | None = None
    position: float = 0.0
    last_played: str | None = None
    images_allowed: bool = False
    reading_time: float | None = None
    fetch_problem: str | None = None
    notes: list[KeptNote] = field(default_factory=list)


@record
class ListEntry:
    """One saved article as a reading-list export describes it."""

    url: str
    title: str | None = None
    tags: list[str] = field(default_factory=list)
    added: str | None = None  # ISO 8601
    read: bool = False
    archived: bool = False
    favourite: bool = False
    html: str = ""  # the article's text, when the export carries it (Wallabag, Earmark's JSON)
    author: str | None = None
    published: str | None = None
    highlights: list[tuple[str, str]] = field(default_factory=list)  # (quoted text, note)
    own: OwnState | None = None  # from Earmark's own JSON export


@record
class ReadingList:
    """A reading-list file read: its format, its entries, and a sentence for each line that was left out."""

    format: str
    entries: list[ListEntry]
    skipped: list[str] = field(default_factory=list)

"""Exporting the reading list (every saved article with its state, tags and highlights) as CSV or JSON."""

from __future__ import annotations

import json
from dataclasses import field
from pathlib import Path
from typing import Literal

from earmark.core.csvcells import csv_text
from earmark.core.db.database import Database
from earmark.core.db.items import items_by_ids
from earmark.core.db.notes import notes_on_kind
from earmark.core.db.tags import normalize_tag
from earmark.core.files import write_file
from earmark.core.models import Item
from earmark.core.plurals import counted
from earmark.core.records import record
from earmark.core.timefmt import now_iso

ListFormat = Literal["csv", "json"]
JSON_FORMAT, JSON_VERSION = "earmark-reading-list", 1
CSV_FIELDS = ("url", "title", "source", "tags", "published", "added", "author", "read", "archived", "favourite",
              "progress", "reading_time", "highlights", "fetch_problem")


@record
class ReadingEntry:
    """One article of the reading list with the reader's state."""

    item: Item
    added: str
    author: str | None
    archived: bool
    favourite: bool
    progress: float  # the share read, 0 to 1
    fetch_problem: str | None
    images_allowed: bool = False
    highlights: list[dict[str, object]] = field(default_factory=list)  # quote, note, anchor, created, updated
    notes: list[dict[str, object]] = field(default_factory=list)  # the other notes: at, text, quote, dates

    def as_json(self) -> dict[str, object]:
        """The ``list --json`` object of the article, and its reading state (a contract: add, never rename)."""
        return {**self.item.as_json(), "added": self.added, "author": self.author, "read": self.item.played,
                "archived": self.archived, "favourite": self.favourite, "progress": self.progress,
                "reading_time": self.item.duration, "fetch_problem": self.fetch_problem,
                "highlights": self.highlights, "notes": self.notes, "images_allowed": self.images_allowed}

    def csv_row(self) -> list[str]:
        """The CSV_FIELDS of the article: tags joined with ``|``, highlights counted, yes/no as true/false."""
        values = {**self.as_json(), "tags": "|".join(self.item.tags), "highlights": len(self.highlights)}
        return ["" if values[name] is None else str(values[name]).lower() if isinstance(values[name], bool)
                else str(values[name]) for name in CSV_FIELDS]


def reading_list(db: Database, tag: str | None = None, *, full: bool = False) -> list[ReadingEntry]:
    """Every article (with ``tag``), most recently saved first; ``full`` also reads each article's text."""
    tag_filter = ("AND i.id IN (SELECT it.item_id FROM item_tags it JOIN tags t ON t.id = it.tag_id "
                  "WHERE t.name = ?)") if tag else ""
    rows = db.execute(
        f"""SELECT i.id, i.added, i.author, i.archived, i.favourite,
                   CASE WHEN i.duration > 0 THEN round(min(1.0, i.position / i.duration), 3) ELSE 0.0 END,
                   i.fetch_problem, i.images_allowed
            FROM items i WHERE i.kind = 'article' {tag_filter} ORDER BY i.added DESC, i.id DESC""",
        [normalize_tag(tag)] if tag else [],
    ).fetchall()
    items = items_by_ids(db, [row[0] for row in rows], full=full)
    highlights: dict[int, list[dict[str, object]]] = {}
    notes: dict[int, list[dict[str, object]]] = {}
    for note in notes_on_kind(db, "article"):
        if note.anchor is not None:
            highlights.setdefault(note.item_id, []).append({
                "quote": note.quote, "note": note.text, "anchor": note.anchor.as_json(), "created": note.created,
                "updated": note.updated})
        else:
            notes.setdefault(note.item_id, []).append({"at": note.at, "text": note.text, "quote": note.quote,
                                                       "created": note.created, "updated": note.updated})
    return [ReadingEntry(items[item_id], added, author, bool(archived), bool(favourite), float(progress), problem,
                         bool(images), highlights.get(item_id, []), notes.get(item_id, []))
            for item_id, added, author, archived, favourite, progress, problem, images in rows if item_id in items]


def render_reading_list(entries: list[ReadingEntry], fmt: ListFormat, exported_at: str | None = None) -> str:
    """The reading list as JSON (``{"format": "earmark-reading-list", ..., "items": [...]}``) or CSV."""
    if fmt == "json":
        document = {"format": JSON_FORMAT, "version": JSON_VERSION, "exported_at": exported_at or now_iso(),
                    "items": [{**entry.as_json(), "content": entry.item.content} for entry in entries]}
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    return csv_text(CSV_FIELDS, (entry.csv_row() for entry in entries))


def export_reading_list(db: Database, fmt: ListFormat, out: Path, tag: str | None = None) -> str:
    """Write the reading list to ``out`` whole; returns the sentence saying what was written."""
    entries = reading_list(db, tag, full=fmt == "json")
    write_file(out, render_reading_list(entries, fmt))
    return f"Wrote {counted(len(entries), 'article')} to {out}."

"""Exporting notes (Markdown, JSON, Readwise CSV) and the listening history (CSV, JSON) for a scope."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from earmark.core.csvcells import csv_text
from earmark.core.db.database import Database
from earmark.core.db.history import HistoryEntry, list_history
from earmark.core.db.notes import NoteFilter
from earmark.core.files import write_file
from earmark.core.notes.collect import ExportItem, collect
from earmark.core.notes.files import safe_name
from earmark.core.notes.markdown import render_markdown, write_markdown
from earmark.core.plurals import counted
from earmark.core.records import record
from earmark.core.timefmt import now_iso

NoteFormat = Literal["markdown", "json", "csv"]
HistoryFormat = Literal["csv", "json"]
READWISE_HEADER = ("Highlight", "Title", "Author", "URL", "Note", "Location", "Date")  # Readwise's CSV template
HISTORY_FIELDS = ("item_id", "kind", "title", "source", "url", "started", "updated", "start_position", "position",
                  "duration", "finished")
JSON_FORMAT, JSON_VERSION = "earmark-notes", 1


@record
class ExportResult:
    """What an export wrote."""

    paths: list[Path]
    items: int
    notes: int

    @property
    def message(self) -> str:
        """A sentence for the status bar and the command line."""
        where = str(self.paths[0]) if len(self.paths) == 1 else counted(len(self.paths), "file")
        return f"Exported {counted(self.notes, 'note')} on {counted(self.items, 'item')} to {where}."


def render_json(items: list[ExportItem], exported_at: str) -> str:
    """The JSON export: every exported item with its notes."""
    document = {"format": JSON_FORMAT, "version": JSON_VERSION, "exported_at": exported_at,
                "items": [item.as_json() for item in items]}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def render_readwise(items: list[ExportItem]) -> str:
    """Readwise's CSV import: an article's highlight is a highlight (its quote) with the reader's note; any
    other note is a highlight (its text) with its transcript quote as the note. Author: the item's, else its
    podcast's (itunes:author), else the podcast's name. Location: for an episode, the note's time in whole
    seconds (Readwise's time offset). Date: when the note was taken (ISO 8601)."""
    rows = []
    for item in items:
        author = item.author or item.source_author or item.source or ""
        for note in item.notes:
            location = "" if note.at is None else int(note.at)
            highlight, remark = (note.quote, note.text) if note.is_highlight else (note.text, note.quote)
            rows.append([highlight, item.title, author, item.web_url or "", remark, location, note.created])
    return csv_text(READWISE_HEADER, rows)


def render_history(entries: list[HistoryEntry], fmt: HistoryFormat, exported_at: str) -> str:
    """The listening history as CSV (one row per session) or JSON."""
    if fmt == "json":
        document = {"format": "earmark-history", "version": 1, "exported_at": exported_at,
                    "sessions": [entry.as_json() for entry in entries]}
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    rows = ([str(row[name]).lower() if isinstance(row[name], bool) else row[name] for name in HISTORY_FIELDS]
            for row in (entry.as_json() for entry in entries))
    return csv_text(HISTORY_FIELDS, rows)


def export_notes(db: Database, fmt: NoteFormat, flt: NoteFilter, out: Path,
                 now: str | None = None) -> ExportResult:
    """Write the notes the filter takes: Markdown into the folder ``out`` (one file per item), JSON or CSV
    into the file ``out``."""
    items = collect(db, flt)
    exported_at = now or now_iso()
    if fmt == "markdown":
        paths = write_markdown(items, out, exported_at)
    else:
        write_file(out, render_json(items, exported_at) if fmt == "json" else render_readwise(items))
        paths = [out]
    return ExportResult(paths, len(items), sum(len(item.notes) for item in items))


def export_history(db: Database, fmt: HistoryFormat, flt: NoteFilter, out: Path,
                   now: str | None = None) -> int:
    """Write the listening history of the filter's items to ``out``; returns the number of sessions."""
    entries = list_history(db, flt)
    write_file(out, render_history(entries, fmt, now or now_iso()))
    return len(entries)


# Everything File → Export Notes… offers, by name.
EXPORT_KINDS = {
    "markdown": "Markdown, one file per item (Obsidian, Logseq)",
    "json": "JSON, complete (items and notes)",
    "csv": "CSV for Readwise",
    "history-csv": "Listening history, CSV",
    "history-json": "Listening history, JSON",
}
PREVIEW_LINES = 60


def run_export(db: Database, kind: str, flt: NoteFilter, out: Path, now: str | None = None) -> str:
    """Export one of EXPORT_KINDS; returns the sentence saying what was written."""
    if kind.startswith("history-"):
        count = export_history(db, kind.removeprefix("history-"), flt, out, now)  # type: ignore[arg-type]
        return f"Wrote {counted(count, 'listening session')} to {out}."
    result = export_notes(db, kind, flt, out, now)  # type: ignore[arg-type]
    return result.message if result.notes else "There are no notes to export for that choice; nothing was written."


def preview_export(db: Database, kind: str, flt: NoteFilter, now: str | None = None) -> str:
    """The start of what ``run_export`` would write (for Markdown, the first item's file)."""
    exported_at = now or now_iso()
    if kind.startswith("history-"):
        text = render_history(list_history(db, flt), kind.removeprefix("history-"), exported_at)  # type: ignore[arg-type]
    else:
        items = collect(db, flt)
        if not items:
            return "No notes match this choice."
        if kind == "markdown":
            more = f"\n… and {counted(len(items) - 1, 'more file')}.\n" if len(items) > 1 else ""
            names = {item.id: safe_name(item.title) for item in items}  # as a new folder would name them
            text = render_markdown(items[0], exported_at, names) + more
        else:
            text = render_json(items, exported_at) if kind == "json" else render_readwise(items)
    lines = text.splitlines()
    return "\n".join(lines[:PREVIEW_LINES]) + ("\n…" if len(lines) > PREVIEW_LINES else "")

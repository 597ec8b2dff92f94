"""The notes and export commands: notes on items, exporting notes and the listening history, and the whole
library as a JSON backup file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from earmark.cli.common import print_json, record_id, seconds
from earmark.core.db.database import Database
from earmark.core.db.notes import NoteFilter, list_notes
from earmark.core.errors import EarmarkError
from earmark.core.plurals import counted
from earmark.core.timefmt import format_clock, now_iso


def note_command(note: argparse.ArgumentParser) -> None:
    """keep a note on an item (at a time in an episode with --at)"""
    note.add_argument("item_id", type=record_id, metavar="ITEM_ID")
    note.add_argument("text", metavar="TEXT")
    note.add_argument("--at", type=seconds, metavar="SECONDS", help="seconds from the start (or h:mm:ss)")
    note.set_defaults(run=_note)


def notes_command(notes: argparse.ArgumentParser) -> None:
    """list notes, newest first"""
    _add_scope_options(notes)
    notes.add_argument("--json", action="store_true", help="print a JSON array")
    notes.set_defaults(run=_notes)


def export_notes_command(export: argparse.ArgumentParser) -> None:
    """write notes as Markdown (a folder), JSON or Readwise CSV"""
    export.add_argument("--format", choices=("markdown", "json", "csv"), required=True)
    _add_scope_options(export)
    export.add_argument("--out", required=True, metavar="PATH",
                        help="folder for Markdown; file (or - for standard output) for JSON and CSV")
    export.set_defaults(run=_export_notes)


def export_history_command(history: argparse.ArgumentParser) -> None:
    """write the listening history as CSV or JSON"""
    history.add_argument("--format", choices=("csv", "json"), required=True)
    _add_scope_options(history)
    history.add_argument("--out", required=True, metavar="PATH", help="the file to write, or - for standard output")
    history.set_defaults(run=_export_history)


def backup_command(backup: argparse.ArgumentParser) -> None:
    """write the whole library to a JSON file (and its feeds as OPML)"""
    backup.add_argument("path", type=Path, metavar="PATH")
    backup.set_defaults(run=_backup)


def restore_command(restore: argparse.ArgumentParser) -> None:
    """fill an empty library from a backup file"""
    restore.add_argument("path", type=Path, metavar="PATH")
    restore.set_defaults(run=_restore)


def _add_scope_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--item", type=record_id, metavar="ID", action="append",
                         help="only notes on this item (repeatable)")
    command.add_argument("--tag", help="only items with this tag")
    command.add_argument("--source", type=record_id, metavar="ID", help="only items of this source")
    command.add_argument("--search", default="", metavar="TEXT",
                         help="only notes whose text, quote or item title has every word")


def _scope(args: argparse.Namespace) -> NoteFilter:
    return NoteFilter(item_ids=tuple(args.item) if args.item else None, tag=args.tag, source_id=args.source,
                      text=args.search)


def _note(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.notes.transcripts import take_note

    note = take_note(db, args.item_id, args.text, args.at)
    where = f" at {format_clock(note.at)}" if note.at is not None else ""
    quote = " (with the transcript's words there)" if note.quote else ""
    print(f"Noted on “{note.item_title}”{where}{quote}: note {note.id}.")
    return 0


def _notes(db: Database, args: argparse.Namespace) -> int:
    notes = list_notes(db, _scope(args))
    if args.json:
        print_json([note.as_json() for note in notes])
        return 0
    for note in notes:
        at = f"[{format_clock(note.at)}] " if note.at is not None else ""
        print(f"{note.id:>5}  {note.created[:16].replace('T', ' ')}  {note.item_title}: {at}{note.text}")
    return 0


def _export_notes(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.notes.export import collect, export_notes, render_json, render_readwise

    if args.out == "-":
        if args.format == "markdown":
            raise EarmarkError("Markdown notes are written into a folder (one file per item): give --out FOLDER.")
        items = collect(db, _scope(args))
        sys.stdout.write(render_json(items, now_iso()) if args.format == "json" else render_readwise(items))
        return 0
    result = export_notes(db, args.format, _scope(args), Path(args.out).expanduser())
    print(result.message if result.notes else "There are no notes to export for that choice; nothing was written.")
    return 0


def _export_history(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.db.history import list_history
    from earmark.core.notes.export import export_history, render_history

    if args.out == "-":
        sys.stdout.write(render_history(list_history(db, _scope(args)), args.format, now_iso()))
        return 0
    path = Path(args.out).expanduser()
    print(f"Wrote {counted(export_history(db, args.format, _scope(args), path), 'listening session')} to {path}.")
    return 0


def _backup(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.notes.backup import write_backup

    print(write_backup(db, args.path.expanduser()).message)
    return 0


def _restore(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.notes.backup import restore_backup

    counts = restore_backup(db, args.path.expanduser())
    print(f"Restored {counted(counts['items'], 'item')}, {counted(counts['notes'], 'note')} and "
          f"{counted(counts['sources'], 'source')} from {args.path}.")
    return 0

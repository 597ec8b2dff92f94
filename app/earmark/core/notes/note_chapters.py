"""An item's notes with the chapter each timed one was taken in (the feed's, file's or made chapters)."""

from __future__ import annotations

from dataclasses import replace

from earmark.core.chapters import cached_chapters, chapter_index
from earmark.core.db.database import Database
from earmark.core.db.notes import notes_for_item
from earmark.core.models import Note


def notes_with_chapters(db: Database, item_id: int) -> list[Note]:
    """The item's notes in its order, each timed one with its chapter's title (when the item has chapters)."""
    notes = notes_for_item(db, item_id)
    chapters = cached_chapters(db, item_id) if any(note.at is not None for note in notes) else None
    if not chapters:
        return notes
    found = []
    for note in notes:
        index = None if note.at is None else chapter_index(chapters, note.at)
        found.append(note if index is None else replace(note, chapter=chapters[index].title))
    return found

"""A passage's words as the library holds them now (the index keeps only where each passage is)."""

from __future__ import annotations

import json

from earmark.core.db.database import Database
from earmark.core.html import to_text
from earmark.core.models import Cue
from earmark.core.passages.cutting import text_passages


def window_cues(db: Database, item_id: int, at: float, end: float) -> list[Cue]:
    """The lines of the item's transcript that start within the window (only those made Cues: all of an hour's
    900 took three times as long as reading them, 1.6 ms an answer)."""
    row = db.execute("SELECT cues FROM transcripts WHERE item_id = ? AND error IS NULL", [item_id]).fetchone()
    return [Cue(*cue[:3]) for cue in json.loads(row[0]) if at <= cue[0] < end] if row else []


def window_text(cues: list[Cue], at: float, end: float) -> str:
    """The words of a transcript window: its lines from ``at`` to ``end``."""
    return " ".join(cue.text.strip() for cue in cues if at <= cue.start and cue.end <= end and cue.text.strip())


def paragraph_text(db: Database, item_id: int, source: str, offset: int) -> str:
    """The paragraph of the item's text (show notes or article) at ``offset``."""
    row = db.execute("SELECT text, description FROM items WHERE id = ?", [item_id]).fetchone()
    if row is None:
        return ""
    found = [p.text for p in text_passages(row[0] or to_text(row[1]), source) if p.offset == offset]
    return found[0] if found else ""


def note_text(db: Database, note_id: int) -> str:
    row = db.execute("SELECT text, quote FROM notes WHERE id = ?", [note_id]).fetchone()
    return f"{row[0]}\n{row[1]}".strip() if row else ""

"""Notes on items: taking, editing, deleting (and putting back), and listing them with filters."""

from __future__ import annotations

import json
import math

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter, where_clause
from earmark.core.errors import EarmarkError, NotFoundError
from earmark.core.models import Anchor, Note
from earmark.core.records import record
from earmark.core.timefmt import now_iso

_COLUMNS = "n.id, n.item_id, n.at, n.text, n.created, n.updated, n.quote, i.title, s.title, n.anchor"
_FROM = "notes n JOIN items i ON i.id = n.item_id LEFT JOIN sources s ON s.id = i.source_id"
_NEWEST_FIRST = "n.created DESC, n.id DESC"
# Notes on the whole item after the timed ones, highlights in the article's order after other notes.
HIGHLIGHT_START = "CASE WHEN json_valid(n.anchor) THEN json_extract(n.anchor, '$.start') END"
_BY_TIME = f"n.at IS NULL, n.at, {HIGHLIGHT_START}, n.created, n.id"


@record(frozen=True)
class NoteFilter:
    """Which notes a listing or an export takes. Empty fields do not filter."""

    item_ids: tuple[int, ...] | None = None
    tag: str | None = None
    source_id: int | None = None
    text: str = ""  # every word must occur in the note, its quote or its item's title


def _note(row: tuple) -> Note:
    note_id, item_id, at, text, created, updated, quote, title, source, anchor = row
    return Note(id=note_id, item_id=item_id, at=at, text=text, created=created, updated=updated, quote=quote or "",
                item_title=title, source=source, anchor=_anchor(anchor))


def _anchor(stored: str | None) -> Anchor | None:
    if not stored:
        return None
    try:
        data = json.loads(stored)
        return Anchor(str(data["prefix"]), str(data["suffix"]), int(data["start"]))
    except (ValueError, KeyError, TypeError):
        return Anchor("", "", 0)  # damaged: still a highlight, found again by its quote alone


def _stored_anchor(anchor: Anchor | None) -> str | None:
    return json.dumps(anchor.as_json(), ensure_ascii=False) if anchor else None


def scope_clause(flt: NoteFilter) -> tuple[str, list[object]]:
    """SQL conditions on ``items`` (aliased ``i``) for the filter's items, tag and source (not its text)."""
    where, params = where_clause(ItemFilter(tag=flt.tag, source_id=flt.source_id))
    if flt.item_ids is not None:
        where += f" AND i.id IN ({','.join('?' * len(flt.item_ids))})" if flt.item_ids else " AND 0"
        params += list(flt.item_ids)
    return where, params


def _where(flt: NoteFilter) -> tuple[str, list[object]]:
    where, params = scope_clause(flt)
    conditions = [where]
    for word in flt.text.split():
        pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        conditions.append(r"(n.text LIKE ? ESCAPE '\' OR n.quote LIKE ? ESCAPE '\' OR i.title LIKE ? ESCAPE '\')")
        params += [pattern] * 3
    return " AND ".join(conditions), params


def list_notes(db: Database, flt: NoteFilter = NoteFilter(), limit: int | None = None) -> list[Note]:  # noqa: B008 - frozen
    """Notes matching the filter, newest first."""
    where, params = _where(flt)
    tail = "" if limit is None else f" LIMIT {int(limit)}"
    rows = db.execute(f"SELECT {_COLUMNS} FROM {_FROM} WHERE {where} ORDER BY {_NEWEST_FIRST}{tail}", params)
    return [_note(row) for row in rows]


def notes_for_item(db: Database, item_id: int) -> list[Note]:
    """An item's notes in the order of the episode (notes without a time last)."""
    rows = db.execute(f"SELECT {_COLUMNS} FROM {_FROM} WHERE n.item_id = ? ORDER BY {_BY_TIME}", [item_id])
    return [_note(row) for row in rows]


def notes_on_kind(db: Database, kind: str) -> list[Note]:
    """Every note on an episode or article (``kind``), by item, each item's in its order."""
    rows = db.execute(f"SELECT {_COLUMNS} FROM {_FROM} WHERE i.kind = ? ORDER BY n.item_id, {_BY_TIME}", [kind])
    return [_note(row) for row in rows]


def get_note(db: Database, note_id: int) -> Note:
    """The note with this id; NotFoundError when there is none."""
    row = db.execute(f"SELECT {_COLUMNS} FROM {_FROM} WHERE n.id = ?", [note_id]).fetchone()
    if row is None:
        raise NotFoundError(f"There is no note with id {note_id}.")
    return _note(row)


def count_notes(db: Database) -> int:
    """How many notes the library holds."""
    return int(db.execute("SELECT count(*) FROM notes").fetchone()[0])


def _clean_text(text: str, highlight: bool = False) -> str:
    cleaned = text.strip()
    if not cleaned and not highlight:  # a highlight is kept for its quote: its note is optional
        raise EarmarkError("A note needs some text; empty notes are not kept.")
    return cleaned


def check_time(at: float | None) -> float | None:
    """A note's time in seconds (rounded to tenths), or None; EarmarkError for negative or endless times."""
    if at is None:
        return None
    if not math.isfinite(at) or at < 0:
        raise EarmarkError(f"{at:g} is not a time in the episode: give seconds from its start (0 or more).")
    return round(at, 1)


def add_note(db: Database, item_id: int, text: str, at: float | None = None, quote: str = "",
             now: str | None = None, anchor: Anchor | None = None) -> Note:
    """Keep a note on an item, at ``at`` seconds (None: on the item as a whole); with an ``anchor``, a highlight
    of ``quote`` (its text may then be empty)."""
    cleaned, when = _clean_text(text, anchor is not None), now or now_iso()
    at = check_time(at)
    with write_transaction(db):
        if db.execute("SELECT 1 FROM items WHERE id = ?", [item_id]).fetchone() is None:
            raise NotFoundError(f"There is no item with id {item_id}.")
        cursor = db.execute(
            "INSERT INTO notes (item_id, at, text, quote, created, updated, anchor) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [item_id, at, cleaned, quote, when, when, _stored_anchor(anchor)],
        )
    return get_note(db, int(cursor.lastrowid or 0))


def update_note(db: Database, note_id: int, text: str, now: str | None = None) -> Note:
    """Change a note's text (a highlight's may become empty)."""
    with write_transaction(db):
        note = get_note(db, note_id)
        cleaned = _clean_text(text, note.is_highlight)
        db.execute("UPDATE notes SET text = ?, updated = ? WHERE id = ?", [cleaned, now or now_iso(), note_id])
    return get_note(db, note_id)


def delete_note(db: Database, note_id: int) -> Note:
    """Delete a note; returns it as it was, so that it can be put back (undo)."""
    with write_transaction(db):
        note = get_note(db, note_id)
        db.execute("DELETE FROM notes WHERE id = ?", [note_id])
    return note


def put_back_note(db: Database, note: Note) -> Note:
    """Restore a deleted note exactly as it was, id included (its item must still exist)."""
    with write_transaction(db):
        if db.execute("SELECT 1 FROM items WHERE id = ?", [note.item_id]).fetchone() is None:
            raise NotFoundError(f"The item of this note (id {note.item_id}) is no longer in the library.")
        db.execute(
            "INSERT INTO notes (id, item_id, at, text, quote, created, updated, anchor) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [note.id, note.item_id, note.at, note.text, note.quote, note.created, note.updated,
             _stored_anchor(note.anchor)],
        )
    return get_note(db, note.id)


def highlights_for_item(db: Database, item_id: int) -> list[Note]:
    """An article's highlights (notes with an anchor), in the article's order."""
    return [note for note in notes_for_item(db, item_id) if note.is_highlight]

"""Earmark's own reading-list JSON read back whole: the state and notes only it carries, restored as they were."""

from __future__ import annotations

import math
from collections.abc import Mapping

from earmark.core.articles.entries import KeptNote, OwnState
from earmark.core.db.database import Database
from earmark.core.db.notes import add_note
from earmark.core.models import Anchor


def own_state(row: Mapping[str, object]) -> OwnState:
    """The OwnState of one item of ``export-reading-list --format json`` (ValueError, TypeError or KeyError
    when a value is not what the export writes)."""
    notes = [KeptNote(text=str(n.get("note") or ""), quote=str(n["quote"]), anchor=_anchor(n.get("anchor")),
                      created=_text(n.get("created")), updated=_text(n.get("updated")))
             for n in _dicts(row.get("highlights"))]
    notes += [KeptNote(text=str(n["text"]), quote=str(n.get("quote") or ""), at=_number(n.get("at")),
                       created=_text(n.get("created")), updated=_text(n.get("updated")))
              for n in _dicts(row.get("notes")) if str(n.get("text") or "").strip()]
    return OwnState(site=_text(row.get("source")), position=_number(row.get("position")) or 0.0,
                    last_played=_text(row.get("last_played")), images_allowed=row.get("images_allowed") is True,
                    reading_time=_number(row.get("reading_time")), fetch_problem=_text(row.get("fetch_problem")),
                    notes=notes)


def restore_own_state(db: Database, item_id: int, own: OwnState) -> None:
    """Give a just imported article the state and notes of its export (inside the import's transaction)."""
    db.execute("""UPDATE items SET position = ?, last_played = ?, images_allowed = ?, duration = coalesce(?, duration),
                      fetch_problem = ? WHERE id = ?""",
               [own.position, own.last_played, own.images_allowed, own.reading_time, own.fetch_problem, item_id])
    for note in own.notes:
        stored = add_note(db, item_id, note.text, note.at, note.quote, now=note.created, anchor=note.anchor)
        if note.updated and note.updated != stored.updated:
            db.execute("UPDATE notes SET updated = ? WHERE id = ?", [note.updated, stored.id])


def _dicts(value: object) -> list[Mapping[str, object]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise TypeError("notes and highlights are lists of objects")
    return value


def _anchor(value: object) -> Anchor:
    """A highlight's anchor; one the export left out is found again by the quote alone."""
    if not isinstance(value, dict):
        return Anchor("", "", 0)
    return Anchor(str(value["prefix"]), str(value["suffix"]), int(value["start"]))


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _number(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise ValueError(f"{value!r} is not a time or length in seconds")
    return float(value)

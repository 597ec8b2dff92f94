"""Schema 19: an item's show notes are kept once. ``items.text`` (their plain text, as long as the markup) becomes a
virtual column worked out from ``description`` and ``content`` (core/db/show_notes_text.py); a row keeps its own
text in ``own_text`` only where it differs from that (stored by an earlier version's flattening). Every trigger and
view reading ``text`` is made again as it was, those on an update of ``text`` now on an update of what it is made
of. The rows are slimmed here; the file shrinks at its next VACUUM."""

from __future__ import annotations

import re
import sqlite3

from earmark.core.db.show_notes_text import FUNCTION

_UPDATE_OF = re.compile(r"(UPDATE OF )([\w\s,]+?)( ON items\b)", re.IGNORECASE)
_SOURCES = ("own_text", "description", "content")


def _on_what_text_is_made_of(match: re.Match[str]) -> str:
    columns = [name.strip() for name in match.group(2).split(",")]
    if "text" not in columns:
        return match.group(0)
    at = columns.index("text")
    columns[at:at + 1] = [name for name in _SOURCES if name not in columns]
    return f"{match.group(1)}{', '.join(columns)}{match.group(3)}"


def m019_show_notes_once(conn: sqlite3.Connection) -> None:
    kept = conn.execute("SELECT type, name, sql FROM sqlite_schema WHERE type IN ('trigger', 'view') "
                        "AND sql IS NOT NULL ORDER BY type = 'trigger', rowid").fetchall()
    for kind, name, _sql in reversed(kept):  # DROP COLUMN refuses while a trigger or view reads the column
        conn.execute(f'DROP {kind.upper()} "{name}"')
    conn.execute("ALTER TABLE items ADD COLUMN own_text TEXT")
    conn.execute(f"UPDATE items SET own_text = text WHERE text IS NOT {FUNCTION}(description, content)")
    conn.execute("ALTER TABLE items DROP COLUMN text")
    conn.execute(f"ALTER TABLE items ADD COLUMN text TEXT GENERATED ALWAYS AS "
                 f"(coalesce(own_text, {FUNCTION}(description, content))) VIRTUAL")
    for _kind, _name, sql in kept:
        conn.execute(_UPDATE_OF.sub(_on_what_text_is_made_of, sql))

"""Smart lists: saved searches (a filter, search text and order) shown in the sidebar."""

from __future__ import annotations

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.errors import EarmarkError, NotFoundError
from earmark.core.records import record
from earmark.core.timefmt import now_iso


@record(frozen=True)
class SmartList:
    """A named, saved filter."""

    id: int
    name: str
    filter: ItemFilter


def list_smart_lists(db: Database) -> list[SmartList]:
    """Every smart list, by name; a list whose stored filter no longer reads is left out."""
    found: list[SmartList] = []
    for list_id, name, text in db.execute("SELECT id, name, filter FROM smart_lists ORDER BY name COLLATE NOCASE"):
        try:
            found.append(SmartList(list_id, name, ItemFilter.from_json(text)))
        except (ValueError, TypeError, EarmarkError):
            continue
    return found


def save_smart_list(db: Database, name: str, flt: ItemFilter) -> int:
    """Save ``flt`` under ``name`` (replacing the list of that name); returns its id."""
    name = " ".join(name.split())
    if not name:
        raise EarmarkError("A smart list needs a name.")
    with write_transaction(db):
        db.execute(
            """INSERT INTO smart_lists (name, filter, created) VALUES (?, ?, ?)
               ON CONFLICT (name) DO UPDATE SET filter = excluded.filter""",
            [name, flt.to_json(), now_iso()],
        )
        return int(db.execute("SELECT id FROM smart_lists WHERE name = ?", [name]).fetchone()[0])


def delete_smart_list(db: Database, list_id: int) -> None:
    """Remove a smart list (the items stay, of course)."""
    with write_transaction(db):
        if db.execute("DELETE FROM smart_lists WHERE id = ?", [list_id]).rowcount == 0:
            raise NotFoundError(f"There is no smart list with id {list_id}.")

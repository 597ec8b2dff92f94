"""Unsubscribing: the feed and its episodes go, except episodes that hold the user's notes or are favourites."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.errors import NotFoundError
from earmark.core.plurals import counted, verb
from earmark.core.records import record

# Items worth more than the feed they came from: they stay in the library, without a source.
_KEPT = "source_id = ? AND (favourite = 1 OR EXISTS (SELECT 1 FROM notes n WHERE n.item_id = items.id))"


@record
class Unsubscribed:
    """What unsubscribing removed and kept."""

    title: str
    removed: int  # episodes and articles deleted with the feed
    kept: int  # items kept for their notes or as favourites
    files: list[Path] = field(default_factory=list)  # downloaded files of the removed episodes

    @property
    def message(self) -> str:
        """A sentence for the user."""
        kept = (f"; {counted(self.kept, 'item')} with your notes or marked favourite {verb(self.kept, 'stays', 'stay')}"
                " in the library" if self.kept else "")
        return f"Unsubscribed from {self.title}: {counted(self.removed, 'item')} removed{kept}."


def unsubscribe(db: Database, source_id: int) -> Unsubscribed:
    """Remove a subscription in one transaction, then the downloaded files of the episodes that went with it."""
    with write_transaction(db):
        row = db.execute("SELECT title FROM sources WHERE id = ?", [source_id]).fetchone()
        if row is None:
            raise NotFoundError(f"There is no source with id {source_id}.")
        kept = db.execute(f"UPDATE items SET source_id = NULL WHERE {_KEPT}", [source_id]).rowcount
        files = [Path(path) for (path,) in db.execute(
            """SELECT d.path FROM downloads d JOIN items i ON i.id = d.item_id
               WHERE i.source_id = ?""", [source_id])]
        removed = db.execute("SELECT count(*) FROM items WHERE source_id = ?", [source_id]).fetchone()[0]
        db.execute("DELETE FROM sources WHERE id = ?", [source_id])  # items, downloads, tags and queue cascade
    for path in files:
        for leftover in (path, path.with_name(path.name + ".part")):
            leftover.unlink(missing_ok=True)
    return Unsubscribed(str(row[0]), int(removed), int(kept), files)

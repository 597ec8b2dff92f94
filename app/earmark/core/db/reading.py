"""The reader's state of articles: reading progress, archived, remote images allowed, why only a link (read is
``played``, set with items.mark_played)."""

from __future__ import annotations

from collections.abc import Iterable

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.history import record_play
from earmark.core.errors import NotFoundError
from earmark.core.records import record
from earmark.core.timefmt import now_iso

# Scrolled this far (a share of the article) counts as read to the end.
READ_TO_END = 0.995


@record(frozen=True)
class ArticleState:
    """What the reader shows and toggles for one article."""

    read: bool
    archived: bool
    favourite: bool
    images_allowed: bool
    fetch_problem: str | None
    progress: float  # the share read, 0 to 1


def article_state(db: Database, item_id: int) -> ArticleState:
    """The article's reading state; NotFoundError when there is no such item."""
    row = db.execute(
        """SELECT played, archived, favourite, images_allowed, fetch_problem,
                  CASE WHEN duration > 0 THEN min(1.0, position / duration) ELSE 0 END
           FROM items WHERE id = ?""", [item_id],
    ).fetchone()
    if row is None:
        raise NotFoundError(f"There is no item with id {item_id}.")
    read, archived, favourite, images, problem, progress = row
    return ArticleState(bool(read), bool(archived), bool(favourite), bool(images), problem, float(progress))


def save_reading_progress(db: Database, item_id: int, share: float) -> bool:
    """Keep how far an article was read (``share`` of it, 0 to 1) as its position in reading seconds, and when.
    Reaching the end marks it read and starts it over, as an episode played to its end. Returns whether it is
    read now."""
    share = min(1.0, max(0.0, share))
    at_end = share >= READ_TO_END
    with write_transaction(db):
        row = db.execute("SELECT coalesce(duration, 0) FROM items WHERE id = ?", [item_id]).fetchone()
        if row is not None:  # a reading session in the history, in reading seconds (the statistics' reading time)
            record_play(db, item_id, float(row[0]) * share, at_end)
        cursor = db.execute(
            """UPDATE items SET position = coalesce(duration, 0) * ?, last_played = ?,
                   played = CASE WHEN ? THEN 1 ELSE played END
               WHERE id = ?""",
            [0.0 if at_end else share, now_iso(), at_end, item_id],
        )
        if cursor.rowcount == 0:
            raise NotFoundError(f"There is no item with id {item_id}.")
        return bool(db.execute("SELECT played FROM items WHERE id = ?", [item_id]).fetchone()[0])


def _set_flag(db: Database, column: str, item_ids: Iterable[int], value: bool) -> int:
    count = 0
    with write_transaction(db):
        for item_id in item_ids:
            if db.execute(f"UPDATE items SET {column} = ? WHERE id = ?", [value, item_id]).rowcount == 0:
                raise NotFoundError(f"There is no item with id {item_id}.")
            count += 1
    return count


def set_archived(db: Database, item_ids: Iterable[int], archived: bool) -> int:
    """Move items to the archive or back to the reading list; returns how many."""
    return _set_flag(db, "archived", item_ids, archived)


def set_images_allowed(db: Database, item_id: int, allowed: bool) -> None:
    """Let the reader load an article's images from the web (or stop it)."""
    _set_flag(db, "images_allowed", [item_id], allowed)

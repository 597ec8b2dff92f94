"""Operations on what the reader keeps: reading progress, read and archived state, images allowed. Each runs on
the writer and returns what changed."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.items import mark_played
from earmark.core.db.reading import save_reading_progress, set_archived, set_images_allowed
from earmark.core.models import Changes, ItemState
from earmark.core.plurals import counted
from earmark.gui.operations.records import kept_progress


def keep_reading_progress(db: Database, item_id: int, share: float) -> Changes:
    """Keep how far an article was read."""
    return kept_progress(db, item_id, lambda: save_reading_progress(db, item_id, share))


def mark_read(db: Database, item_ids: list[int], read: bool) -> Changes:
    """Mark items read or unread."""
    mark_played(db, item_ids, read)
    return Changes(items=set(item_ids), states={ItemState.PLAYED, ItemState.POSITION},
                   message=f"Marked {counted(len(item_ids), 'item')} {'read' if read else 'unread'}.")


def archive(db: Database, item_ids: list[int], archived: bool) -> Changes:
    """Move articles to the archive or back."""
    set_archived(db, item_ids, archived)
    where = "to the archive" if archived else "back to the reading list"
    return Changes(items=set(item_ids), states={ItemState.ARCHIVED},
                   message=f"Moved {counted(len(item_ids), 'article')} {where}.")


def allow_images(db: Database, item_id: int, allowed: bool) -> Changes:
    """Let an article's images load from the web, or stop them."""
    set_images_allowed(db, item_id, allowed)
    return Changes(items={item_id}, message="Images of this article load from the web now." if allowed
                   else "Images of this article are no longer loaded.")

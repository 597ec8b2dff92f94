"""Operations on subscriptions the window runs off its UI thread."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.feeds.unsubscribe import unsubscribe
from earmark.core.models import Changes
from earmark.core.plurals import counted


def unsubscribe_sources(db: Database, source_ids: list[int]) -> Changes:
    """Unsubscribe from each feed (runs on the writer); one sentence for them all."""
    done = [unsubscribe(db, source_id) for source_id in source_ids]
    message = done[0].message if len(done) == 1 else (
        f"Unsubscribed from {counted(len(done), 'feed')}: {counted(sum(d.removed for d in done), 'item')} removed, "
        f"{sum(d.kept for d in done):,} kept for your notes or as favourites.")
    return Changes(structure=True, message=message)

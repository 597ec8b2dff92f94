"""The podcasts as the Podcasts view shows them: each with its cover's address and its unplayed episodes."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.sources import natural_key
from earmark.core.records import record


@record(frozen=True)
class PodcastTile:
    """One podcast of the grid."""

    source_id: int
    title: str
    image_url: str | None
    unplayed: int
    episodes: int


def podcast_tiles(db: Database) -> list[PodcastTile]:
    """Every podcast, by title as a person orders them, with its counts (one query: run it in a worker)."""
    rows = db.execute("""SELECT s.id, s.title, s.image_url,
                                count(i.id) FILTER (WHERE NOT i.played), count(i.id)
                         FROM sources s LEFT JOIN items i ON i.source_id = s.id AND i.kind = 'episode'
                         WHERE s.kind = 'podcast' GROUP BY s.id""").fetchall()
    return sorted((PodcastTile(*row) for row in rows), key=lambda tile: natural_key(tile.title))

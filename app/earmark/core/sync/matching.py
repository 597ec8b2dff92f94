"""Finding the local episode a remote action is about: in the podcast it names (by its address here or the one
the sync server knows it by, when it moved), by enclosure URL, then GUID, then page URL; else in any podcast, by
enclosure URL, then by a GUID no other episode has (a feed that moved, or that another app knows by another
address: http for https). Addresses are compared as gpodder.net normalises them."""

from __future__ import annotations

from dataclasses import field

from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.sync.actions import EpisodeAction
from earmark.core.urls import comparable


@record
class _Episodes:
    by_enclosure: dict[str, int] = field(default_factory=dict)
    by_guid: dict[str, int] = field(default_factory=dict)
    by_page: dict[str, int] = field(default_factory=dict)


def feed_addresses(db: Database) -> dict[str, int]:
    """Each subscription by its comparable address, and by the one the sync server knows it by (it moved)."""
    found = {comparable(str(url)): int(source_id)
             for source_id, url in db.execute("SELECT source_id, url FROM sync_known_as")}
    found.update((comparable(str(url)), int(source_id))
                 for source_id, url in db.execute("SELECT id, url FROM sources WHERE url IS NOT NULL"))
    return found


class EpisodeFinder:
    """Looks episodes up for one sync (a podcast's episodes are read once, when first asked about)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._sources = feed_addresses(db)
        self._episodes: dict[int, _Episodes] = {}
        self._anywhere: _Episodes | None = None

    def source_id(self, podcast: str) -> int | None:
        """The subscription to the feed at ``podcast``, if any."""
        return self._sources.get(comparable(podcast))

    def find(self, action: EpisodeAction) -> int | None:
        """The id of the episode ``action`` is about, or None when the library does not have it."""
        episode = comparable(action.episode)
        source_id = self.source_id(action.podcast)
        if source_id is not None:
            episodes = self._of(source_id)
            found = episodes.by_enclosure.get(episode)
            if found is None and action.guid:
                found = episodes.by_guid.get(action.guid)
            if found is None:
                found = episodes.by_page.get(episode)
            if found is not None:
                return found
        anywhere = self._everywhere()
        found = anywhere.by_enclosure.get(episode)
        return found if found is not None or not action.guid else anywhere.by_guid.get(action.guid)

    def _everywhere(self) -> _Episodes:
        """Every episode by enclosure, and by GUID where no other episode has that GUID."""
        if self._anywhere is None:
            self._anywhere = _Episodes()
            guids: dict[str, int | None] = {}
            for item_id, enclosure, guid in self.db.execute(
                    "SELECT id, enclosure_url, guid FROM items WHERE kind = 'episode' ORDER BY id"):
                if enclosure:
                    self._anywhere.by_enclosure.setdefault(comparable(enclosure), item_id)
                if guid:
                    guids[guid] = item_id if guid not in guids else None
            self._anywhere.by_guid = {guid: item_id for guid, item_id in guids.items() if item_id is not None}
        return self._anywhere

    def _of(self, source_id: int) -> _Episodes:
        if source_id not in self._episodes:
            episodes = _Episodes()
            rows = self.db.execute("SELECT id, enclosure_url, guid, url FROM items WHERE source_id = ? ORDER BY id",
                                   [source_id])
            for item_id, enclosure, guid, page in rows:
                if enclosure:
                    episodes.by_enclosure.setdefault(comparable(enclosure), item_id)
                if guid:
                    episodes.by_guid.setdefault(guid, item_id)
                if page:
                    episodes.by_page.setdefault(comparable(page), item_id)
            self._episodes[source_id] = episodes
        return self._episodes[source_id]

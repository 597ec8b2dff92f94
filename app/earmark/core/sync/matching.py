"""Finding the local episode a remote action is about: in the podcast it names, by enclosure URL, then GUID,
then page URL (addresses compared as gpodder.net normalises them)."""

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


class EpisodeFinder:
    """Looks episodes up for one sync (a podcast's episodes are read once, when first asked about)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._sources = {comparable(str(url)): int(source_id)
                         for source_id, url in db.execute("SELECT id, url FROM sources WHERE url IS NOT NULL")}
        self._episodes: dict[int, _Episodes] = {}

    def source_id(self, podcast: str) -> int | None:
        """The subscription to the feed at ``podcast``, if any."""
        return self._sources.get(comparable(podcast))

    def find(self, action: EpisodeAction) -> int | None:
        """The id of the episode ``action`` is about, or None when the library does not have it."""
        source_id = self.source_id(action.podcast)
        if source_id is None:
            return None
        episodes = self._of(source_id)
        episode = comparable(action.episode)
        found = episodes.by_enclosure.get(episode)
        if found is None and action.guid:
            found = episodes.by_guid.get(action.guid)
        return found if found is not None else episodes.by_page.get(episode)

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

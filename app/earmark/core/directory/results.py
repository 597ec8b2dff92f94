"""What a directory answers about a podcast, and the merging of several directories' answers into one list."""

from __future__ import annotations

from collections.abc import Iterable

from earmark.core.records import record
from earmark.core.urls import comparable


@record
class DirectoryResult:
    """One podcast as a directory describes it. ``feed_url`` is empty when the directory names only its page
    (Apple's charts): ``lookup`` fills it in. ``latest`` is the newest episode's date (ISO 8601) when said."""

    title: str
    feed_url: str
    directory: str  # the directory's name ("apple", "podcastindex", "fyyd", "gpodder")
    author: str = ""
    image: str = ""
    episodes: int | None = None
    latest: str = ""
    description: str = ""
    guid: str = ""  # podcast:guid, where the directory knows it
    itunes_id: int | None = None
    also_in: tuple[str, ...] = ()  # the other directories that named the same podcast

    def as_json(self) -> dict[str, object]:
        """The fields ``earmark find --json`` prints (``subscribed`` is added by the caller)."""
        return {"title": self.title, "author": self.author, "feed_url": self.feed_url, "image": self.image,
                "episodes": self.episodes, "latest": self.latest or None, "description": self.description,
                "directory": self.directory, "also_in": list(self.also_in)}


def feed_key(url: str) -> str:
    """The mark of a feed address under which its spellings (scheme, ``www.``, host case, trailing slash) agree."""
    return "feed " + comparable(url).split("://", 1)[-1].removeprefix("www.").rstrip("/")


def _keys(result: DirectoryResult) -> set[str]:
    """The marks by which one podcast is recognised in another directory's answer."""
    keys = set()
    if result.feed_url:
        keys.add(feed_key(result.feed_url))
    if result.guid:
        keys.add("guid " + result.guid.strip().lower())
    if result.itunes_id:
        keys.add(f"itunes {result.itunes_id}")
    return keys


def merged(results: Iterable[DirectoryResult]) -> list[DirectoryResult]:
    """``results`` in their order, each podcast once: a later answer for a podcast already listed (the same feed
    address whatever its scheme, the same podcast:guid or iTunes id) only fills in what the first lacked."""
    kept: list[DirectoryResult] = []
    seen: dict[str, int] = {}
    for result in results:
        keys = _keys(result)
        index = next((seen[key] for key in keys if key in seen), None)
        if index is None:
            index = len(kept)
            kept.append(result)
        else:
            kept[index] = _filled(kept[index], result)
        for key in keys | _keys(kept[index]):
            seen[key] = index
    return kept


def _filled(first: DirectoryResult, other: DirectoryResult) -> DirectoryResult:
    """``first`` with the fields it left empty taken from ``other``, and ``other``'s directory noted."""
    also = first.also_in if other.directory in (first.directory, *first.also_in) else (*first.also_in,
                                                                                      other.directory)
    return DirectoryResult(
        title=first.title or other.title, feed_url=first.feed_url or other.feed_url, directory=first.directory,
        author=first.author or other.author, image=first.image or other.image,
        episodes=first.episodes if first.episodes is not None else other.episodes,
        latest=max(first.latest, other.latest), description=first.description or other.description,
        guid=first.guid or other.guid, itunes_id=first.itunes_id or other.itunes_id, also_in=also)

"""Dataclasses that cross layers: items, sources and the change sets operations return."""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from typing import Literal

from earmark.core.images.paths import named_file
from earmark.core.records import record

ItemKind = Literal["episode", "article"]
SourceKind = Literal["podcast", "site"]
# What the search vocabulary learns from one item's text (core/db/search_words.py): (part, whole word) pairs of its
# compound names and (acronym, expansion) pairs of its definitions, each sorted.
Vocabulary = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]


@record
class Item:
    """One episode or article as the rest of the app sees it (feed data plus the user's state)."""

    id: int
    kind: ItemKind
    title: str
    source_id: int | None
    source: str | None
    url: str | None
    enclosure_url: str | None
    published: str | None
    duration: float | None
    position: float
    played: bool
    description: str = ""
    content: str = ""
    last_played: str | None = None
    tags: list[str] = field(default_factory=list)
    image_url: str | None = None  # the episode's own image, else its podcast's (an article: its page's, its site's)
    cover_name: str | None = None  # the name of that image's file in the cover cache, once fetched
    favourite: bool = False  # marked with F: a star on its row and in its details

    def as_json(self) -> dict[str, object]:
        """The object printed by ``list --json`` and ``search --json`` (a contract: add, never rename)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "source": self.source,
            "source_id": self.source_id,
            "url": self.url,
            "enclosure_url": self.enclosure_url,
            "published": self.published,
            "duration": self.duration,
            "position": self.position,
            "played": self.played,
            "last_played": self.last_played,
            "tags": list(self.tags),
            "image_url": self.image_url,
            "cover": named_file(self.cover_name),
        }


@record(frozen=True)
class Anchor:
    """Where a highlight's quote sits in an article's text: the words just before and after it, and the offset
    where it started when it was made (a hint: the text is found again by the quote and its context)."""

    prefix: str
    suffix: str
    start: int

    def as_json(self) -> dict[str, object]:
        """The anchor as stored and exported."""
        return {"prefix": self.prefix, "suffix": self.suffix, "start": self.start}


@record
class Note:
    """A note on an item: at a time (seconds) in an episode, or on the item as a whole (``at`` None).

    ``quote`` holds the transcript sentences around ``at`` when the episode had a transcript. A highlight is a
    note with an ``anchor``: its ``quote`` is the highlighted text of the article, its ``text`` the reader's
    note on it (may be empty).
    """

    id: int
    item_id: int
    at: float | None
    text: str
    created: str
    updated: str
    quote: str = ""
    item_title: str = ""
    source: str | None = None
    anchor: Anchor | None = None
    chapter: str = ""  # the title of the chapter playing at ``at``, where the notes are shown with their chapters

    @property
    def is_highlight(self) -> bool:
        """Whether the note marks highlighted article text (its quote)."""
        return self.anchor is not None

    def as_json(self) -> dict[str, object]:
        """The object printed by ``notes --json`` (a contract: add, never rename)."""
        return {
            "id": self.id,
            "item_id": self.item_id,
            "item_title": self.item_title,
            "source": self.source,
            "at": self.at,
            "text": self.text,
            "quote": self.quote,
            "created": self.created,
            "updated": self.updated,
            "highlight": self.anchor.as_json() if self.anchor else None,
        }


@record(frozen=True)
class Cue:
    """One timed line of a transcript (seconds from the start of the episode)."""

    start: float
    end: float
    text: str
    speaker: str = ""


@record
class Transcript:
    """An episode's transcript: its lines in time order, and how many unreadable lines were left out."""

    cues: list[Cue]
    format: str  # srt, vtt, sbv, json or html
    skipped: int = 0

    def index_at(self, seconds: float) -> int | None:
        """The line being spoken at ``seconds`` (the last one started by then), None before the first."""
        low, high = 0, len(self.cues)
        while low < high:
            middle = (low + high) // 2
            if self.cues[middle].start <= seconds:
                low = middle + 1
            else:
                high = middle
        return low - 1 if low else None


@record
class Related:
    """An item related to another, how strongly (text similarity plus what they share) and why."""

    id: int
    title: str
    kind: ItemKind
    source: str | None
    score: float
    reasons: list[str]

    def as_json(self) -> dict[str, object]:
        """The object printed by ``related --json`` (a contract: add, never rename)."""
        return {"id": self.id, "title": self.title, "kind": self.kind, "source": self.source,
                "score": round(self.score, 3), "reasons": list(self.reasons)}


@record
class Source:
    """A feed, podcast or site that items come from."""

    id: int
    kind: SourceKind
    title: str
    url: str | None
    link: str | None
    status: str
    last_error: str | None
    last_checked: str | None
    item_count: int = 0
    last_new: str | None = None  # when the last new item arrived
    failures: int = 0  # failed checks in a row
    retry_after: str | None = None  # automatic refreshes wait until then
    has_credentials: bool = False
    image_url: str | None = None  # the feed's image (a site of saved articles: its icon)
    cover_name: str | None = None  # the name of that image's file in the cover cache, once fetched

    def as_json(self) -> dict[str, object]:
        """The object printed by ``sources --json`` (a contract: add, never rename)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "url": self.url,
            "link": self.link,
            "status": self.status,
            "last_error": self.last_error,
            "item_count": self.item_count,
            "last_checked": self.last_checked,
            "last_new": self.last_new,
            "failures": self.failures,
            "retry_after": self.retry_after,
            "image_url": self.image_url,
            "cover": named_file(self.cover_name),
        }


@record
class SubscribeResult:
    """What a subscription or re-read of a feed changed."""

    source_id: int
    title: str
    new: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    item_ids: dict[str, int] = field(default_factory=dict)  # every entry's item id, by identity
    already: bool = False  # the podcast was subscribed to before (maybe under another address)


@record
class ProgressUpdate:
    """A playback position to store for an item."""

    item_id: int
    position: float
    duration: float | None = None
    ended: bool = False
    speed: float = 1.0  # the speed playing (for the statistics' time saved)
    silence_saved: float = 0.0  # seconds of silence skipped since the last update


@record
class EntryData:
    """One item as a feed or importer describes it: the feed-owned fields only."""

    identity: str
    kind: ItemKind
    title: str
    guid: str | None = None
    url: str | None = None
    enclosure_url: str | None = None
    enclosure_type: str | None = None
    published: str | None = None
    duration: float | None = None
    author: str | None = None
    description: str = ""
    content: str = ""
    categories: list[str] = field(default_factory=list)
    image_url: str | None = None
    season: int | None = None
    episode: int | None = None
    episode_type: str | None = None
    explicit: bool | None = None
    chapters_url: str | None = None
    chapters_type: str | None = None
    transcripts: str = "[]"  # JSON, canonical (sorted keys) so that an unchanged list compares equal
    persons: str = "[]"
    remote_items: str = "[]"  # podcast:remoteItem, JSON
    enclosure_length: int | None = None  # bytes, as the feed announces them
    # search_text(description, content), when worked out before storing (in a parsing process, for a feed stored
    # for the first time); None: the writer works it out for the entries it stores.
    text: str | None = None
    # The search vocabulary of a new item of this title and ``text``, worked out with the text (None: the writer
    # learns it from the stored text before committing).
    vocabulary: Vocabulary | None = None
    # ``description`` and ``content`` as stored beside ``text`` (core/db/show_notes.py), worked out with the text.
    stored_markup: tuple[str | bytes, str | bytes] | None = None


@record
class FeedData:
    """A parsed feed: the source's own fields and its entries, in feed order."""

    title: str
    link: str | None = None
    description: str = ""
    author: str | None = None
    image_url: str | None = None
    entries: list[EntryData] = field(default_factory=list)
    warning: str | None = None
    podcast_guid: str | None = None
    itunes_type: str | None = None
    explicit: bool | None = None
    locked: bool | None = None
    funding: str = "[]"  # JSON, canonical
    persons: str = "[]"
    podroll: str = "[]"  # podcast:podroll, JSON
    self_url: str | None = None  # where the feed says it lives (atom:link rel="self", JSON Feed's feed_url)
    new_feed_url: str | None = None  # where it says it moved (itunes:new-feed-url)

    @property
    def kind(self) -> SourceKind:
        """A feed with any episode is a podcast; one of articles only is a site."""
        return "podcast" if any(e.kind == "episode" for e in self.entries) else "site"


class ItemState(StrEnum):
    """A kind of item state an operation can change. Counts and lists read again when a kind they read changes
    (ItemFilter.reads), the relation pass runs when one the relations read changes (gui/mainwindow/library/graph.py);
    Up next follows its own writes (no list or count reads the queue)."""

    PLAYED = "played"  # played or read, or not
    POSITION = "position"  # an item came to be under way, or went back to its start (a place saved within an item
    # already under way changes no list: Changes.items redraws its row)
    ARCHIVED = "archived"
    TAGS = "tags"  # the tags on items or sources, or the tags themselves (renamed, deleted, coloured)
    FAVOURITE = "favourite"
    DOWNLOADS = "downloads"  # a download queued, under way, done, failed or deleted
    TEXT = "text"  # what an item says: its title, text, transcript or links (a page fetched, a transcription)
    FEEDS = "feeds"  # a feed was checked: failing, gone or fine again (the sidebar counts the failing ones)


@record
class Changes:
    """What an operation changed, for the GUI to refresh exactly that."""

    items: set[int] = field(default_factory=set)  # the rows to draw again
    structure: bool = False  # items, sources or smart lists were added or removed: lists and counts are read again
    states: set[ItemState] = field(default_factory=set)  # the kinds of item state that changed
    message: str = ""  # a sentence for the status bar


@record(frozen=True)
class Chapter:
    """A chapter of an episode: where it starts (seconds), its title, a link when it has one, and where it comes
    from: ``feed`` (podcast:chapters), ``file`` (the media's own) or ``made`` (by Earmark, from the transcript)."""

    start: float
    title: str
    url: str | None = None
    source: str = "feed"


@record
class PodcastPrefs:
    """A podcast's own playback settings; ``speed`` None means the global ``playback.speed``."""

    speed: float | None = None
    skip_intro: float = 0.0  # seconds skipped at the start of an episode played from its beginning
    skip_outro: float = 0.0  # seconds before the end where the episode counts as finished
    voice_boost: bool = False  # VLC's equalizer and compressor (playback/vlc_filters.py)
    auto_download: bool = False  # new episodes are downloaded after a refresh
    skip_silence: str = "off"  # off, mild or strong (core/audio/silence.py)


@record
class Download:
    """An episode download: where it goes, how far it got. ``status``: queued, downloading, paused, done,
    failed."""

    item_id: int
    url: str
    path: str
    status: str
    size: int | None
    received: int
    error: str | None = None
    finished: str | None = None
    title: str | None = None  # the episode's
    content_type: str | None = None  # the enclosure's, as the feed says
    enclosure_length: int | None = None  # bytes, as the feed announces them

    def as_json(self) -> dict[str, object]:
        """The object printed by ``downloads --json`` (a contract: add, never rename)."""
        return {"item_id": self.item_id, "url": self.url, "path": self.path, "status": self.status,
                "size": self.size, "received": self.received, "error": self.error, "finished": self.finished,
                "title": self.title}

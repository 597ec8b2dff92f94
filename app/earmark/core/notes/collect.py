"""What an export takes: the items that the chosen notes are on, each with its facts and those notes."""

from __future__ import annotations

from dataclasses import field

from earmark.core.chapters import cached_chapters, chapter_index
from earmark.core.db.database import Database
from earmark.core.db.notes import NoteFilter, list_notes
from earmark.core.db.show_notes import markup
from earmark.core.db.tags import source_tags_for_items, tags_for_items
from earmark.core.models import Chapter, Note
from earmark.core.notes.highlight_context import highlight_contexts
from earmark.core.records import record

RELATED_SHOWN, RELATED_MIN_SCORE = 5, 0.25  # related items an export names (from the topic graph, when worked out)


@record
class RelatedItem:
    """An item the topic graph relates to an exported one: linked to when the same export writes it."""

    id: int
    title: str
    address: str | None  # its page, else its audio on the web


@record
class ExportItem:
    """An item with its notes, as exports describe it."""

    id: int
    kind: str
    title: str
    source: str | None
    source_url: str | None
    identity: str
    guid: str | None
    url: str | None
    enclosure_url: str | None
    published: str | None
    duration: float | None
    author: str | None
    description: str
    position: float
    played: bool
    last_played: str | None
    tags: list[str] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    related: list[RelatedItem] = field(default_factory=list)  # its most related items
    source_tags: list[str] = field(default_factory=list)  # its podcast's or site's tags (filters take them too)
    source_author: str | None = None  # its podcast's author (itunes:author) or site's
    contexts: dict[int, tuple[str, str]] = field(default_factory=dict)  # each highlight's sentence, by note id
    chapters: list[Chapter] = field(default_factory=list)  # its feed's, file's or made chapters (timed notes name them)

    def chapter_at(self, at: float) -> Chapter | None:
        """The chapter playing at ``at`` seconds (None without chapters or before the first)."""
        index = chapter_index(self.chapters, at)
        return None if index is None else self.chapters[index]

    @property
    def web_url(self) -> str | None:
        """The item's page, else its audio when that is on the web (never a local path)."""
        if self.url:
            return self.url
        web = self.enclosure_url and self.enclosure_url.startswith(("http://", "https://"))
        return self.enclosure_url if web else None

    def as_json(self) -> dict[str, object]:
        """Everything about the item and its notes: enough to find the item again (source URL and identity)
        and re-create each note (a highlight with its anchor)."""
        return {
            "id": self.id, "kind": self.kind, "title": self.title, "source": self.source,
            "source_url": self.source_url, "identity": self.identity, "guid": self.guid, "url": self.url,
            "enclosure_url": self.enclosure_url, "published": self.published, "duration": self.duration,
            "author": self.author, "description": self.description, "tags": self.tags, "source_tags": self.source_tags,
            "position": self.position, "played": self.played, "last_played": self.last_played,
            "notes": [{"id": n.id, "at": n.at, "text": n.text, "quote": n.quote, "created": n.created,
                       "updated": n.updated, "highlight": n.anchor.as_json() if n.anchor else None}
                      for n in self.notes],
        }


def _in_item_order(note: Note) -> tuple[object, ...]:
    """Timed notes in the episode's order, then the others, highlights in the article's order."""
    return note.at is None, note.at or 0.0, note.anchor.start if note.anchor else -1, note.created, note.id


def collect(db: Database, flt: NoteFilter) -> list[ExportItem]:
    """The items the filter's notes are on, newest first, each with those notes in the episode's order."""
    by_item: dict[int, list[Note]] = {}
    for note in list_notes(db, flt):
        by_item.setdefault(note.item_id, []).append(note)
    if not by_item:
        return []
    ids = list(by_item)
    rows = db.execute(
        f"""SELECT i.id, i.kind, i.title, s.title, s.url, i.identity, i.guid, i.url, i.enclosure_url, i.published,
                   coalesce(i.media_duration, i.duration), i.author, i.description, i.content, i.text,
                   i.position, i.played, i.last_played, s.author
            FROM items i LEFT JOIN sources s ON s.id = i.source_id
            WHERE i.id IN ({','.join('?' * len(ids))}) ORDER BY i.published DESC, i.id DESC""",
        ids,
    ).fetchall()
    tags, source_tags = tags_for_items(db, ids), source_tags_for_items(db, ids)
    related = _related_items(db, ids)
    contexts = highlight_contexts(db, [note for notes in by_item.values() for note in notes if note.is_highlight])
    items = [
        ExportItem(item_id, kind, title, source, source_url, identity, guid, url, enclosure_url, published,
                   duration, author, markup(description, text) or markup(content, text), position, bool(played),
                   last_played, source_author=source_author)
        for (item_id, kind, title, source, source_url, identity, guid, url, enclosure_url, published, duration,
             author, description, content, text, position, played, last_played, source_author) in rows
    ]
    for item in items:
        item.tags = tags.get(item.id, [])
        item.source_tags = source_tags.get(item.id, [])
        item.related = related.get(item.id, [])
        item.notes = sorted(by_item[item.id], key=_in_item_order)
        item.contexts = {note.id: contexts[note.id] for note in item.notes if note.id in contexts}
        if any(note.at is not None for note in item.notes):
            item.chapters = cached_chapters(db, item.id) or []
    return items


def _related_items(db: Database, ids: list[int]) -> dict[int, list[RelatedItem]]:
    """Each item's strongest related items (at most RELATED_SHOWN, scoring at least RELATED_MIN_SCORE), as
    the topic graph last worked them out; nothing when it has not yet."""
    rows = db.execute(
        f"""SELECT r.item_id, i.id, i.title, coalesce(i.url, CASE WHEN i.enclosure_url LIKE 'http://%'
                   OR i.enclosure_url LIKE 'https://%' THEN i.enclosure_url END)
            FROM relations r JOIN items i ON i.id = r.other_id
            WHERE r.item_id IN ({','.join('?' * len(ids))}) AND r.score >= ?
            ORDER BY r.item_id, r.score DESC, r.other_id""", [*ids, RELATED_MIN_SCORE])
    related: dict[int, list[RelatedItem]] = {}
    for item_id, other_id, title, address in rows:
        if len(related.setdefault(item_id, [])) < RELATED_SHOWN:
            related[item_id].append(RelatedItem(other_id, title, address))
    return related

"""The texts the topic graph reads: each item's title, text, transcript, links, names and tags."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from earmark.core.db.database import Database
from earmark.core.db.show_notes import markup
from earmark.core.records import record
from earmark.core.topics import cleaning

BOILERPLATE_SAMPLE = 50  # a source's newest items that decide what its boilerplate is


@record
class Doc:
    """One item as the topic graph sees it."""

    id: int
    source_id: int | None
    title: str
    text: str  # plain text: show notes or article, then the transcript
    markup: str  # the HTML the feed or page gave (for its links)
    url: str | None
    enclosure_url: str | None
    guid: str | None
    remote_items: str
    published: str | None
    chapters: str = ""  # the titles of its chapters (as fetched), one a line
    written: int | None = None  # where ``text`` stops being written text and its transcript starts

    @property
    def written_text(self) -> str:
        """The item's own written text, without the transcript: how the show writes its names."""
        return self.text if self.written is None else self.text[:self.written]


_COLUMNS = """i.id, i.source_id, i.title,
    i.text || coalesce((SELECT char(10) || group_concat(json_extract(c.value, '$[2]'), ' ')
                        FROM transcripts t, json_each(t.cues) c
                        WHERE t.item_id = i.id AND json_valid(t.cues)), ''),
    i.description, i.content, i.url, i.enclosure_url, i.guid, i.remote_items, i.published,
    coalesce((SELECT group_concat(json_extract(c.value, '$.title'), char(10))
              FROM chapters_cache ch, json_each(ch.chapters, '$.chapters') c
              WHERE ch.item_id = i.id AND ch.url NOT LIKE 'made:%' AND json_valid(ch.chapters)), ''),
    length(i.text)"""


def read_docs(db: Database, ids: Iterable[int] | None = None) -> list[Doc]:
    """Every item (or those of ``ids``) with its texts, in id order."""
    if ids is None:
        rows = db.execute(f"SELECT {_COLUMNS} FROM items i ORDER BY i.id").fetchall()
    else:
        wanted = sorted(set(ids))
        rows = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            rows += db.execute(f"SELECT {_COLUMNS} FROM items i WHERE i.id IN ({','.join('?' * len(chunk))})",
                               chunk).fetchall()
    return [_doc(*row) for row in rows]


def _doc(item_id: int, source_id: int | None, title: str, text: str, description: str | bytes, content: str | bytes,
         *rest: Any) -> Doc:
    """A row of _COLUMNS as a Doc: its markup the show notes' and the article's (stored as a pattern over the text
    that starts ``text``, core/db/show_notes.py)."""
    return Doc(item_id, source_id, title, text, markup(description, text) + markup(content, text), *rest)


def read_range(db: Database, first: int, last: int) -> list[Doc]:
    """The items with ids ``first``..``last`` with their texts, in id order."""
    rows = db.execute(f"SELECT {_COLUMNS} FROM items i WHERE i.id BETWEEN ? AND ? ORDER BY i.id", [first, last])
    return [_doc(*row) for row in rows]


def all_boilerplate(db: Database) -> dict[int, frozenset[str]]:
    """The boilerplate lines of every source with enough items to tell."""
    sources = [row[0] for row in db.execute("SELECT source_id FROM items WHERE source_id IS NOT NULL GROUP BY "
                                            "source_id HAVING count(*) >= ?", [cleaning.BOILERPLATE_MIN_ITEMS])]
    found = {source_id: boilerplate_of(db, source_id) for source_id in sources}
    return {source_id: lines for source_id, lines in found.items() if lines}


def boilerplate_of(db: Database, source_id: int | None) -> frozenset[str]:
    """One source's boilerplate lines, read from the library."""
    if source_id is None:
        return frozenset()
    rows = db.execute("SELECT text FROM items WHERE source_id = ? ORDER BY published DESC, id DESC LIMIT ?",
                      [source_id, BOILERPLATE_SAMPLE])
    return cleaning.boilerplate(row[0] for row in rows)


def item_tags(db: Database) -> dict[int, frozenset[str]]:
    """Every tagged item's tags, its source's included."""
    tags: dict[int, set[str]] = {}
    rows = db.execute(
        """SELECT it.item_id, t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id
           UNION SELECT i.id, t.name FROM source_tags st JOIN tags t ON t.id = st.tag_id
                 JOIN items i ON i.source_id = st.source_id""")
    for item_id, name in rows:
        tags.setdefault(item_id, set()).add(name)
    return {item_id: frozenset(names) for item_id, names in tags.items()}


def item_tags_of(db: Database, item_ids: list[int]) -> tuple[dict[int, frozenset[str]], Counter[str]]:
    """The tags of a few items (their sources' included), and how many items carry each of those tags."""
    tags: dict[int, set[str]] = {}
    for start in range(0, len(item_ids), 500):
        chunk = item_ids[start:start + 500]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(
            f"""SELECT it.item_id, t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id
                WHERE it.item_id IN ({marks})
                UNION SELECT i.id, t.name FROM items i JOIN source_tags st ON st.source_id = i.source_id
                      JOIN tags t ON t.id = st.tag_id WHERE i.id IN ({marks})""", chunk + chunk)
        for item_id, name in rows:
            tags.setdefault(item_id, set()).add(name)
    names = sorted({name for found in tags.values() for name in found})
    counts: Counter[str] = Counter()
    for name in names:
        counts[name] = int(db.execute(
            """SELECT count(*) FROM (SELECT it.item_id FROM item_tags it JOIN tags t ON t.id = it.tag_id
                                     WHERE t.name = ?
                                     UNION SELECT i.id FROM items i JOIN source_tags st ON st.source_id = i.source_id
                                           JOIN tags t ON t.id = st.tag_id WHERE t.name = ?)""",
            [name, name]).fetchone()[0])
    return {item_id: frozenset(found) for item_id, found in tags.items()}, counts

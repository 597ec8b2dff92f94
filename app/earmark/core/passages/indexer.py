"""Bringing the passage index up to date with the library: items whose words, transcript or notes changed since
they were indexed are cut again (and given vectors, with a model); items gone are dropped. Run it in a process
of its own (``earmark index-passages``): it grows with the library."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from earmark.core.db.database import Database
from earmark.core.html import to_text
from earmark.core.models import Cue
from earmark.core.passages.cutting import Passage, note_passage, text_passages, transcript_passages
from earmark.core.passages.store import drop_items, replace_item, reset, stamps, worn
from earmark.core.passages.vocabulary import count_words
from earmark.core.records import record

if TYPE_CHECKING:
    from earmark.core.passages.vectors import Embedder

BLOCK = 100  # items a transaction
_STAMPS = """
    SELECT i.id, i.title || ':' || length(i.text) || ':' || length(i.description) || ':'
                 || coalesce(t.fetched, '') || ':' || coalesce(length(t.cues), '') || ':'
                 || (SELECT count(*) || ':' || coalesce(max(n.updated), '') FROM notes n WHERE n.item_id = i.id)
    FROM items i LEFT JOIN transcripts t ON t.item_id = i.id AND t.error IS NULL"""


@record
class IndexResult:
    """What a run did: items (re)indexed and dropped, passages written, seconds taken, the model used."""

    items: int
    dropped: int
    passages: int
    seconds: float
    model: str


def library_stamps(db: Database) -> dict[int, str]:
    """What each item of the library holds now, in a few words (its indexed passages are stale when it changes)."""
    return dict(db.execute(_STAMPS).fetchall())


def index_library(db: Database, conn: sqlite3.Connection, embedder: Embedder | None = None,
                  progress: Callable[[int, int], None] | None = None) -> IndexResult:
    """Index what changed since the last run; ``progress(done, total)`` after each block (it may raise to stop:
    the blocks written stay)."""
    started = time.perf_counter()
    model = embedder.name if embedder is not None else ""
    if worn(conn):
        reset(conn)
    now, before = library_stamps(db), stamps(conn)
    gone = [item_id for item_id in before if item_id not in now]
    with _transaction(conn):
        drop_items(conn, gone)
    todo = [item_id for item_id, stamp in now.items()
            if before.get(item_id, ("", ""))[0] != stamp or (model and before[item_id][1] != model)]
    written = 0
    for first in range(0, len(todo), BLOCK):
        block = todo[first:first + BLOCK]
        cut = [(item_id, title, passages) for item_id, title, passages in item_passages(db, block)]
        texts = [f"{title}. {p.text}" for _i, title, passages in cut for p in passages]
        bits = _bits(embedder, texts) if embedder is not None else None
        with _transaction(conn):
            at = 0
            for item_id, title, passages in cut:
                mine = bits[at:at + len(passages)] if bits is not None else None
                replace_item(conn, item_id, now[item_id], title, passages, mine, model)
                at += len(passages)
        written += len(texts)
        if progress is not None:
            progress(min(first + BLOCK, len(todo)), len(todo))
    count_words(conn)
    return IndexResult(len(todo), len(gone), written, round(time.perf_counter() - started, 2), model)


def _bits(embedder: Embedder, texts: Sequence[str]) -> list[bytes]:
    from earmark.core.passages.vectors import to_bits

    return to_bits(embedder.vectors(texts))


def item_passages(db: Database, item_ids: Sequence[int]) -> Iterator[tuple[int, str, list[Passage]]]:
    """Each item's title and passages: its transcript's windows, its show notes' or text's paragraphs, its notes."""
    marks = ",".join("?" * len(item_ids))
    notes: dict[int, list[Passage]] = {}
    for note_id, item_id, text, quote, at in db.execute(
            f"SELECT id, item_id, text, quote, at FROM notes WHERE item_id IN ({marks}) ORDER BY id", item_ids):
        notes.setdefault(item_id, []).append(note_passage(note_id, text, quote, at))
    for item_id, kind, title, text, description, cues in db.execute(
            f"""SELECT i.id, i.kind, i.title, i.text, i.description, t.cues FROM items i
                LEFT JOIN transcripts t ON t.item_id = i.id AND t.error IS NULL WHERE i.id IN ({marks})""",
            item_ids):
        passages = transcript_passages([Cue(*cue[:3]) for cue in json.loads(cues)]) if cues else []
        passages += text_passages(text or to_text(description), "article" if kind == "article" else "show_notes")
        yield item_id, title, passages + notes.get(item_id, [])


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT on the index (ROLLBACK when the block fails)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")

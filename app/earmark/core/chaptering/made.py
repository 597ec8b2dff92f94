"""Made chapters in the library: made from the item's transcript when it is stored, kept in the chapters cache
under a ``made:`` address (a feed's fetched chapters replace them; they never replace a feed's)."""

from __future__ import annotations

from earmark.core.chaptering.shifts import topic_starts
from earmark.core.chaptering.titles import titles
from earmark.core.chapters import MADE, cached_chapters, chapters_to_json
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.transcripts import store_transcript, stored_transcript
from earmark.core.models import Chapter, Transcript
from earmark.core.timefmt import now_iso


def make_chapters(transcript: Transcript, duration: float | None = None) -> list[Chapter]:
    """Chapters where the transcript's topic shifts, titled (none for a transcript too short for two)."""
    cues = [cue for cue in transcript.cues if cue.text.strip()]
    if not cues:
        return []
    length = max(duration or 0.0, max(cue.end for cue in cues))
    starts = [0.0, *topic_starts(cues, length)]
    if len(starts) < 2:
        return []
    ends = [*starts[1:], float("inf")]
    texts = [" ".join(cue.text for cue in cues if start <= cue.start < end) for start, end in zip(starts, ends,
                                                                                                   strict=True)]
    return [Chapter(start, title, source="made") for start, title in zip(starts, titles(texts), strict=True)]


def store_made_chapters(db: Database, item_id: int) -> list[Chapter]:
    """Make the item's chapters from its stored transcript and keep them, unless its feed names chapters of its
    own (those win). Returns the made chapters (none: no transcript, too short, or the feed's win)."""
    stored = stored_transcript(db, item_id)
    row = db.execute("SELECT chapters_url, duration FROM items WHERE id = ?", [item_id]).fetchone()
    if stored is None or stored.transcript is None or row is None or row[0]:
        return []
    made = make_chapters(stored.transcript, row[1])
    with write_transaction(db):
        db.execute("DELETE FROM chapters_cache WHERE item_id = ? AND url LIKE ?", [item_id, MADE + "%"])
        if made:
            db.execute("INSERT OR IGNORE INTO chapters_cache (item_id, url, chapters, fetched) VALUES (?, ?, ?, ?)",
                       [item_id, MADE + stored.url, chapters_to_json(made), now_iso()])
    return made


def keep_transcript(db: Database, item_id: int, url: str, transcript: Transcript | None,
                    error: str | None = None) -> None:
    """Store a transcript (or why it failed) and the chapters made from it."""
    store_transcript(db, item_id, url, transcript, error)
    if transcript is not None:
        store_made_chapters(db, item_id)


def item_chapters(db: Database, item_id: int) -> list[Chapter]:
    """The item's chapters: its feed's (fetched), else those made from its transcript (made now when the
    transcript has none yet)."""
    found = cached_chapters(db, item_id)
    if found is not None:
        return found
    return store_made_chapters(db, item_id)

"""The cache of fetched transcripts: one per item, kept with the URL it came from (or why it failed)."""

from __future__ import annotations

import json

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.models import Cue, Transcript
from earmark.core.records import record
from earmark.core.timefmt import now_iso


@record
class StoredTranscript:
    """A cached transcript, or the sentence that says why it could not be read."""

    url: str
    fetched: str
    transcript: Transcript | None
    error: str | None = None


def stored_transcript(db: Database, item_id: int) -> StoredTranscript | None:
    """The item's cached transcript (None when it was never fetched)."""
    row = db.execute("SELECT url, type, fetched, cues, skipped, error FROM transcripts WHERE item_id = ?",
                     [item_id]).fetchone()
    if row is None:
        return None
    url, fmt, fetched, cues, skipped, error = row
    if error:
        return StoredTranscript(url, fetched, None, error)
    lines = [Cue(start, end, text, speaker) for start, end, text, speaker in json.loads(cues)]
    return StoredTranscript(url, fetched, Transcript(lines, fmt, skipped))


def store_transcript(db: Database, item_id: int, url: str, transcript: Transcript | None,
                     error: str | None = None) -> None:
    """Cache what fetching the item's transcript gave: the transcript, or the sentence saying why it failed."""
    cues = json.dumps([[c.start, c.end, c.text, c.speaker] for c in transcript.cues] if transcript else [],
                      ensure_ascii=False)
    with write_transaction(db):
        db.execute(
            """INSERT INTO transcripts (item_id, url, type, fetched, cues, skipped, error)
               VALUES (?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (item_id) DO UPDATE SET url = excluded.url, type = excluded.type,
                   fetched = excluded.fetched, cues = excluded.cues, skipped = excluded.skipped,
                   error = excluded.error""",
            [item_id, url, transcript.format if transcript else "", now_iso(), cues,
             transcript.skipped if transcript else 0, error],
        )


def transcript_links(db: Database, item_id: int) -> list[dict[str, str]]:
    """The transcripts the feed names for the item (``url``, ``type``, maybe ``language`` and ``rel``)."""
    row = db.execute("SELECT transcripts FROM items WHERE id = ?", [item_id]).fetchone()
    try:
        links = json.loads(row[0]) if row else []
    except ValueError:
        return []
    return [link for link in links if isinstance(link, dict) and isinstance(link.get("url"), str)]

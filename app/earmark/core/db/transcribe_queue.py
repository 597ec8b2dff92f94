"""The queue of episodes to transcribe on this machine: kept in the library, so it resumes after a restart."""

from __future__ import annotations

from collections.abc import Iterable

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.timefmt import now_iso

# Downloaded episodes with no transcript of any kind (a cached one from the feed, or one made here).
_UNTRANSCRIBED = """SELECT i.id FROM items i JOIN downloads d ON d.item_id = i.id AND d.status = 'done'
    WHERE i.kind = 'episode' AND NOT EXISTS (SELECT 1 FROM transcripts t WHERE t.item_id = i.id AND t.error IS NULL)"""


@record(frozen=True)
class Waiting:
    """An episode in the queue; ``error`` is the sentence of a failed try."""

    item_id: int
    title: str
    error: str | None


def enqueue(db: Database, item_ids: Iterable[int]) -> int:
    """Put episodes in the queue (a failed one is tried again); returns how many were added or retried."""
    now = now_iso()
    added = 0
    with write_transaction(db):
        for item_id in item_ids:
            added += db.execute("""INSERT INTO transcribe_queue (item_id, added) VALUES (?, ?)
                                   ON CONFLICT (item_id) DO UPDATE SET error = NULL WHERE error IS NOT NULL""",
                                [item_id, now]).rowcount
    return added


def enqueue_downloaded(db: Database) -> int:
    """Queue every downloaded episode without a transcript (Transcribe All Downloaded)."""
    return enqueue(db, [row[0] for row in db.execute(_UNTRANSCRIBED)])


def enqueue_new_episodes(db: Database) -> int:
    """Queue the downloaded episodes of podcasts set to "Transcribe New Episodes" that came out after it was
    turned on (one that failed stays failed until the user asks again)."""
    rows = db.execute(f"""{_UNTRANSCRIBED} AND i.added >= (SELECT s.transcribe_new FROM sources s
                          WHERE s.id = i.source_id) AND NOT EXISTS (SELECT 1 FROM transcribe_queue q
                          WHERE q.item_id = i.id)""").fetchall()
    return enqueue(db, [row[0] for row in rows])


def next_waiting(db: Database) -> int | None:
    """The episode to transcribe next (the first queued, failed ones left out)."""
    row = db.execute("SELECT item_id FROM transcribe_queue WHERE error IS NULL ORDER BY added, item_id "
                     "LIMIT 1").fetchone()
    return row[0] if row else None


def waiting(db: Database) -> list[Waiting]:
    """Every episode in the queue, in order (failed ones after)."""
    rows = db.execute("""SELECT q.item_id, i.title, q.error FROM transcribe_queue q JOIN items i ON i.id = q.item_id
                         ORDER BY q.error IS NOT NULL, q.added, q.item_id""")
    return [Waiting(*row) for row in rows]


def finished(db: Database, item_id: int, error: str | None = None) -> None:
    """Take a transcribed episode out of the queue, or keep it there with the sentence saying why it failed."""
    with write_transaction(db):
        if error is None:
            db.execute("DELETE FROM transcribe_queue WHERE item_id = ?", [item_id])
        else:
            db.execute("UPDATE transcribe_queue SET error = ? WHERE item_id = ?", [error, item_id])


def dequeue(db: Database, item_ids: Iterable[int]) -> None:
    """Take episodes out of the queue (the user cancelled them)."""
    with write_transaction(db):
        db.conn.executemany("DELETE FROM transcribe_queue WHERE item_id = ?", [[item_id] for item_id in item_ids])


def set_transcribe_new(db: Database, source_id: int, on: bool) -> None:
    """Turn "Transcribe New Episodes" on (from now) or off for a podcast."""
    with write_transaction(db):
        db.execute("UPDATE sources SET transcribe_new = ? WHERE id = ?", [now_iso() if on else None, source_id])


def transcribes_new(db: Database, source_id: int) -> bool:
    """Whether a podcast's new episodes are transcribed when downloaded."""
    row = db.execute("SELECT transcribe_new FROM sources WHERE id = ?", [source_id]).fetchone()
    return bool(row and row[0])

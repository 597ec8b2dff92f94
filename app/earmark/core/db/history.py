"""Listening (and reading) history: one row per session of an item, kept by the progress-saving path."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from earmark.core.db.database import Database
from earmark.core.db.notes import NoteFilter, scope_clause
from earmark.core.records import record

# Saves of the same item closer together than this belong to one session (a pause for coffee, not a new day).
SESSION_GAP = timedelta(minutes=30)


@record
class HistoryEntry:
    """One session: what was played, when, and from where to where (seconds)."""

    item_id: int
    kind: str
    title: str
    source: str | None
    url: str | None
    started: str
    updated: str
    start_position: float
    position: float
    duration: float | None
    finished: bool

    def as_json(self) -> dict[str, object]:
        """The object of the JSON history export."""
        return {
            "item_id": self.item_id, "kind": self.kind, "title": self.title, "source": self.source,
            "url": self.url, "started": self.started, "updated": self.updated,
            "start_position": self.start_position, "position": self.position, "duration": self.duration,
            "finished": self.finished,
        }


def record_play(db: Database, item_id: int, position: float, finished: bool,
                now: datetime | None = None, speed: float = 1.0, silence_saved: float = 0.0) -> None:
    """Extend the item's current session to ``position``, or open a new one (call inside a write transaction,
    before the item's own position changes: a new session starts where the item was). ``speed`` is the speed
    playing now; ``silence_saved`` the seconds of silence skipped since the last save (added up)."""
    moment = (now or datetime.now(UTC)).replace(microsecond=0)
    stamp = moment.isoformat()
    last = db.execute(
        "SELECT id, updated, finished FROM play_history WHERE item_id = ? ORDER BY updated DESC, id DESC LIMIT 1",
        [item_id],
    ).fetchone()
    if last is not None and not last[2] and _parse(last[1]) >= moment - SESSION_GAP:
        db.execute("""UPDATE play_history SET position = ?, updated = ?, finished = ?, speed = ?,
                          silence_saved = silence_saved + ? WHERE id = ?""",
                   [position, stamp, finished, speed, max(0.0, silence_saved), last[0]])
        return
    db.execute(
        """INSERT INTO play_history (item_id, started, updated, start_position, position, finished, speed,
                                     silence_saved)
           SELECT id, ?, ?, CASE WHEN played THEN 0 ELSE position END, ?, ?, ?, ? FROM items WHERE id = ?""",
        [stamp, stamp, position, finished, speed, max(0.0, silence_saved), item_id],
    )


def _parse(iso: str) -> datetime:
    when = datetime.fromisoformat(iso)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def list_history(db: Database, flt: NoteFilter = NoteFilter()) -> list[HistoryEntry]:  # noqa: B008 - frozen
    """Sessions of the items the filter takes (its text is ignored), oldest first."""
    where, params = scope_clause(flt)
    rows = db.execute(
        f"""SELECT h.item_id, i.kind, i.title, s.title, coalesce(i.url, i.enclosure_url), h.started, h.updated,
                   h.start_position, h.position, coalesce(i.media_duration, i.duration), h.finished
            FROM play_history h JOIN items i ON i.id = h.item_id LEFT JOIN sources s ON s.id = i.source_id
            WHERE {where} ORDER BY h.started, h.id""",
        params,
    )
    return [HistoryEntry(item_id, kind, title, source, url, started, updated, start, position, duration, bool(done))
            for item_id, kind, title, source, url, started, updated, start, position, duration, done in rows]

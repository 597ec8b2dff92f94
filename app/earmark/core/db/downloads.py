"""Download records: which episode goes to which file, and how far each download got."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.downloads.names import download_path, unique_path
from earmark.core.errors import NotFoundError
from earmark.core.models import Download
from earmark.core.timefmt import now_iso

_SELECT = """SELECT d.item_id, d.url, d.path, d.status, d.size, d.received, d.error, d.finished, i.title,
                    i.enclosure_type, i.enclosure_length FROM downloads d LEFT JOIN items i ON i.id = d.item_id"""


def _download(row: tuple[object, ...]) -> Download:
    """A record as stored, except that an unfinished one counts the bytes its .part file holds now (the
    stored count is only written on pause and at the end)."""
    record = Download(*row)  # type: ignore[arg-type]
    if record.status != "done":
        try:
            record.received = Path(record.path + ".part").stat().st_size
        except OSError:
            pass
    return record


def get_download(db: Database, item_id: int) -> Download | None:
    """The download record of an episode, if it has one."""
    row = db.execute(f"{_SELECT} WHERE d.item_id = ?", [item_id]).fetchone()
    return _download(row) if row else None


def list_downloads(db: Database) -> list[Download]:
    """Every download, newest first."""
    return [_download(row) for row in db.execute(f"{_SELECT} ORDER BY d.added DESC, d.item_id")]


def add_download(db: Database, item_id: int, folder: Path) -> Download:
    """Record that an episode is to be downloaded into ``folder`` (an existing record is kept, a failed or
    paused one is queued again)."""
    with write_transaction(db):
        existing = get_download(db, item_id)
        if existing is not None:
            if existing.status in ("failed", "paused"):
                db.execute("UPDATE downloads SET status = 'queued', error = NULL WHERE item_id = ?", [item_id])
                existing.status, existing.error = "queued", None
            return existing
        row = db.execute(
            """SELECT i.title, i.enclosure_url, i.enclosure_type, s.title FROM items i
               LEFT JOIN sources s ON s.id = i.source_id WHERE i.id = ?""", [item_id]).fetchone()
        if row is None:
            raise NotFoundError(f"There is no item with id {item_id}.")
        title, url, content_type, podcast = row
        if not url:
            raise NotFoundError(f"“{title}” has no audio to download.")
        taken = {r[0] for r in db.execute("SELECT path FROM downloads")}
        path = unique_path(download_path(folder, podcast, title, url, content_type), taken)
        db.execute("INSERT INTO downloads (item_id, url, path, status, added) VALUES (?, ?, ?, 'queued', ?)",
                   [item_id, url, str(path), now_iso()])
    found = get_download(db, item_id)
    assert found is not None
    return found


def update_download(db: Database, item_id: int, status: str, *, received: int | None = None,
                    size: int | None = None, error: str | None = None) -> None:
    """Record a download's state (progress is recorded on pause and at the end, not for every chunk)."""
    with write_transaction(db):
        db.execute(
            """UPDATE downloads SET status = ?, received = coalesce(?, received), size = coalesce(?, size),
                   error = ?, finished = CASE WHEN ? = 'done' THEN ? ELSE finished END WHERE item_id = ?""",
            [status, received, size, error, status, now_iso(), item_id],
        )


def remove_download(db: Database, item_id: int) -> Download | None:
    """Forget a download and delete its file (and partial file); returns what was removed."""
    with write_transaction(db):
        found = get_download(db, item_id)
        db.execute("DELETE FROM downloads WHERE item_id = ?", [item_id])
    if found is not None:
        for path in (Path(found.path), Path(found.path + ".part")):
            path.unlink(missing_ok=True)
    return found


def local_file(db: Database, item_id: int) -> Path | None:
    """The downloaded file of an episode when it is complete and still on disk."""
    found = get_download(db, item_id)
    if found is None or found.status != "done":
        return None
    path = Path(found.path)
    return path if path.is_file() else None


def pending_downloads(db: Database) -> list[Download]:
    """Downloads to (re)start: queued ones, and ones interrupted while downloading (the app was closed)."""
    return [_download(row) for row in db.execute(
        f"{_SELECT} WHERE d.status IN ('queued', 'downloading') ORDER BY d.added, d.item_id")]


def disk_usage(db: Database) -> int:
    """Bytes the downloads take on disk (complete files and partial ones)."""
    total = 0
    for (path,) in db.execute("SELECT path FROM downloads"):
        for candidate in (Path(path), Path(path + ".part")):
            try:
                total += candidate.stat().st_size
            except OSError:
                continue
    return total


def delete_played_downloads(db: Database, days: int, now: datetime | None = None) -> list[int]:
    """Delete the downloads of episodes played more than ``days`` days ago; returns their item ids."""
    if days <= 0:
        return []
    cutoff = ((now or datetime.now(UTC)) - timedelta(days=days)).replace(microsecond=0).isoformat()
    ids = [row[0] for row in db.execute(
        """SELECT d.item_id FROM downloads d JOIN items i ON i.id = d.item_id
           WHERE i.played = 1 AND d.status = 'done' AND coalesce(i.last_played, d.finished) <= ?""", [cutoff])]
    for item_id in ids:
        remove_download(db, item_id)
    return ids


def newest_item_id(db: Database) -> int:
    """The highest item id so far: items stored later have higher ids (rowids grow)."""
    return int(db.execute("SELECT coalesce(max(id), 0) FROM items").fetchone()[0])


def new_episode_ids(db: Database, source_id: int, after_id: int) -> list[int]:
    """Episodes of a podcast stored after item ``after_id`` that have audio and no download yet."""
    return [row[0] for row in db.execute(
        """SELECT i.id FROM items i WHERE i.source_id = ? AND i.kind = 'episode' AND i.id > ?
           AND i.enclosure_url IS NOT NULL AND i.id NOT IN (SELECT item_id FROM downloads)
           ORDER BY i.published DESC, i.id DESC""", [source_id, after_id])]

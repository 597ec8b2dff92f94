"""The covers table: what the library knows of each image address (core/images keeps the files)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.images.fetch import CoverState

_COLUMNS = "url, file, etag, last_modified, checked, problem"


def cover_state(db: Database, url: str) -> CoverState:
    """The state of ``url``'s image (a fresh one when it was never fetched)."""
    row = db.execute(f"SELECT {_COLUMNS} FROM covers WHERE url = ?", [url]).fetchone()
    return CoverState(*row) if row else CoverState(url)


def record_covers(db: Database, states: Iterable[CoverState]) -> None:
    """Keep what fetching found."""
    with write_transaction(db):
        db.conn.executemany(f"INSERT OR REPLACE INTO covers ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                       [(s.url, s.file, s.etag, s.last_modified, s.checked, s.problem) for s in states])


def covers_due(db: Database, hours: float = 24.0) -> list[str]:
    """The podcast and site covers not asked about for ``hours`` (a refresh asks again, conditionally)."""
    since = (datetime.now(UTC) - timedelta(hours=hours)).isoformat(timespec="seconds")
    rows = db.execute("""SELECT DISTINCT s.image_url FROM sources s LEFT JOIN covers c ON c.url = s.image_url
                         WHERE s.image_url IS NOT NULL AND (c.checked IS NULL OR c.checked < ?)""", [since])
    return [row[0] for row in rows]

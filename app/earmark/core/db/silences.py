"""The silent spans of each analysed episode (found once, by core/audio/analyse.py)."""

from __future__ import annotations

import json

from earmark.core.audio.silence import Span
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.timefmt import now_iso


@record
class Silences:
    """An episode's analysis: its quiet spans, or why it could not be analysed."""

    item_id: int
    analysed: str
    duration: float | None
    spans: list[Span]
    error: str | None = None


def store_silences(db: Database, item_id: int, spans: list[Span], duration: float | None,
                   error: str | None = None) -> None:
    """Keep an episode's analysis (replacing an earlier one)."""
    with write_transaction(db):
        db.execute(
            """INSERT INTO silences (item_id, analysed, duration, spans, error) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (item_id) DO UPDATE SET analysed = excluded.analysed, duration = excluded.duration,
                   spans = excluded.spans, error = excluded.error""",
            [item_id, now_iso(), duration, json.dumps([[round(a, 3), round(b, 3)] for a, b in spans]), error],
        )


def get_silences(db: Database, item_id: int) -> Silences | None:
    """The episode's analysis, None when it was not analysed yet."""
    row = db.execute("SELECT analysed, duration, spans, error FROM silences WHERE item_id = ?", [item_id]).fetchone()
    if row is None:
        return None
    analysed, duration, spans, error = row
    try:
        pairs = [(float(a), float(b)) for a, b in json.loads(spans)]
    except (ValueError, TypeError):
        pairs = []
    return Silences(item_id, analysed, duration, pairs, error)

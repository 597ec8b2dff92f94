"""Listening statistics from the history: time listened (per day, week, month and podcast), time saved by speed
and by skipped silence, episodes finished, articles read and reading time.

Each session covered ``position - start_position`` seconds of its episode. Of those, ``silence_saved`` were
silence skipped; the rest played at the session's speed, so it took ``rest / speed`` seconds of the listener's
time (``listened``) and speed saved ``rest - listened``. Covered = listened + saved by speed + saved by
silence. Days, weeks (starting on Monday) and months are the local calendar's, by when the session started.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import field
from datetime import UTC, date, datetime, time, timedelta

from earmark.core.db.database import Database
from earmark.core.records import record

NO_PODCAST = "Without a podcast"
PERIOD_START: dict[str, Callable[[date], date]] = {
    "day": lambda day: day,
    "week": lambda day: day - timedelta(days=day.weekday()),  # weeks start on Monday
    "month": lambda day: day.replace(day=1),
}


@record
class SourceTime:
    """Time listened to one podcast (``source_id`` None: episodes added on their own)."""

    source_id: int | None
    title: str
    listened_seconds: float = 0.0


@record
class ListeningStats:
    """The statistics of the sessions since a day (or all of them)."""

    since: date | None
    listened_seconds: float = 0.0
    saved_by_speed_seconds: float = 0.0
    saved_by_silence_seconds: float = 0.0
    episodes_started: int = 0
    episodes_finished: int = 0
    articles_read: int = 0
    reading_seconds: float = 0.0
    per_source: list[SourceTime] = field(default_factory=list)
    days: dict[date, float] = field(default_factory=dict)  # listened seconds per local day, oldest first

    @property
    def completion(self) -> float | None:
        """The share of the episodes listened to that were finished (None when none was)."""
        return self.episodes_finished / self.episodes_started if self.episodes_started else None

    def weeks(self) -> dict[date, float]:
        """Listened seconds per week (keyed by its Monday)."""
        return _grouped(self.days, PERIOD_START["week"])

    def months(self) -> dict[date, float]:
        """Listened seconds per month (keyed by its first day)."""
        return _grouped(self.days, PERIOD_START["month"])

    def as_json(self) -> dict[str, object]:
        """The object ``earmark stats --json`` prints."""
        return {
            "since": self.since.isoformat() if self.since else None,
            "listened_seconds": round(self.listened_seconds, 1),
            "saved_by_speed_seconds": round(self.saved_by_speed_seconds, 1),
            "saved_by_silence_seconds": round(self.saved_by_silence_seconds, 1),
            "episodes_started": self.episodes_started,
            "episodes_finished": self.episodes_finished,
            "completion": None if self.completion is None else round(self.completion, 3),
            "articles_read": self.articles_read,
            "reading_seconds": round(self.reading_seconds, 1),
            "per_source": [{"source_id": s.source_id, "title": s.title,
                            "listened_seconds": round(s.listened_seconds, 1)} for s in self.per_source],
            "per_day": _periods(self.days, "date", lambda d: d.isoformat()),
            "per_week": _periods(self.weeks(), "week", lambda d: d.isoformat()),
            "per_month": _periods(self.months(), "month", lambda d: d.strftime("%Y-%m")),
        }


def listening_stats(db: Database, since: date | None = None) -> ListeningStats:
    """The statistics of the sessions started on or after ``since`` (a local day; None: all)."""
    stats = ListeningStats(since)
    params: list[object] = []
    where = "1"
    if since is not None:
        midnight = datetime.combine(since, time()).astimezone()  # local midnight; stored stamps are UTC
        where, params = "h.started >= ?", [midnight.astimezone(UTC).isoformat()]
    rows = db.execute(
        f"""SELECT h.item_id, i.kind, i.source_id, s.title, h.started, max(0, h.position - h.start_position),
                   h.speed, h.silence_saved, h.finished
            FROM play_history h JOIN items i ON i.id = h.item_id LEFT JOIN sources s ON s.id = i.source_id
            WHERE {where} ORDER BY h.started, h.id""",
        params,
    )
    sources: dict[int | None, SourceTime] = {}
    started: set[int] = set()
    finished: set[int] = set()
    read: set[int] = set()
    days: dict[date, float] = defaultdict(float)
    for item_id, kind, source_id, source_title, when, covered, speed, silence, done in rows:
        if kind == "article":
            stats.reading_seconds += covered
            if done:
                read.add(item_id)
            continue
        silence = min(max(0.0, silence or 0.0), covered)
        played = covered - silence
        listened = played / speed if speed and speed > 0 else played
        stats.listened_seconds += listened
        stats.saved_by_speed_seconds += played - listened
        stats.saved_by_silence_seconds += silence
        started.add(item_id)
        if done:
            finished.add(item_id)
        entry = sources.setdefault(source_id, SourceTime(source_id, source_title or NO_PODCAST))
        entry.listened_seconds += listened
        days[_local_day(when)] += listened
    stats.episodes_started, stats.episodes_finished, stats.articles_read = len(started), len(finished), len(read)
    stats.per_source = sorted(sources.values(), key=lambda s: (-s.listened_seconds, s.title.casefold()))
    stats.days = dict(sorted(days.items()))
    return stats


def _local_day(iso: str) -> date:
    moment = datetime.fromisoformat(iso)
    return moment.astimezone().date() if moment.tzinfo else moment.date()


def _grouped(days: dict[date, float], key: Callable[[date], date]) -> dict[date, float]:
    totals: dict[date, float] = defaultdict(float)
    for day, seconds in days.items():
        totals[key(day)] += seconds
    return dict(sorted(totals.items()))


def _periods(totals: dict[date, float], name: str, label: Callable[[date], str]) -> list[dict[str, object]]:
    return [{name: label(day), "listened_seconds": round(seconds, 1)} for day, seconds in totals.items()]


def series(days: dict[date, float], unit: str, first: date, last: date) -> list[tuple[date, float]]:
    """Seconds listened per ``unit`` ("day", "week" or "month") from ``first`` to ``last``, periods without
    listening included (as 0), each keyed by its first day."""
    start = PERIOD_START[unit]
    totals = _grouped(days, start)
    out: list[tuple[date, float]] = []
    current = start(first)
    while current <= last:
        out.append((current, totals.get(current, 0.0)))
        if unit == "month":
            current = (current + timedelta(days=32)).replace(day=1)
        else:
            current += timedelta(days=1 if unit == "day" else 7)
    return out

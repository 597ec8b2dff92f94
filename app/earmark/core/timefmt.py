"""Parsing and formatting of durations and timestamps."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime

_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:\.\d+)?$")


def parse_duration(text: object) -> float | None:
    """Seconds from an iTunes-style duration (``1500``, ``12:30``, ``1:02:03``); None for junk."""
    if text is None:
        return None
    value = str(text).strip()
    if not value:
        return None
    seconds = None if ":" in value else _float(value)  # the usual "01:02:03" is no float: not tried
    if seconds is None:
        match = _CLOCK.match(value)
        if not match:
            return None
        hours, minutes, secs = (int(g) if g else 0 for g in match.groups())
        if secs >= 60 or (hours and minutes >= 60):
            return None
        seconds = hours * 3600 + minutes * 60 + secs
    if not 0 < seconds < 7 * 24 * 3600:
        return None
    return seconds


def _float(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def format_clock(seconds: float | None) -> str:
    """``m:ss`` or ``h:mm:ss``; an em dash when unknown."""
    if seconds is None or not 0 <= seconds < float("inf"):  # also NaN
        return "—"
    total = int(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def iso_from_struct(value: time.struct_time | None) -> str | None:
    """ISO 8601 (UTC) from feedparser's parsed dates."""
    if value is None:
        return None
    try:
        return datetime(*value[:6], tzinfo=UTC).isoformat()
    except (TypeError, ValueError):
        return None


def now_iso() -> str:
    """The current time as ISO 8601 UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def format_ago(iso: str | None, now: datetime | None = None) -> str:
    """How long ago an ISO 8601 time was, in the words a status column uses (``never`` when unknown)."""
    if not iso:
        return "never"
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return "never"
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seconds = ((now or datetime.now(UTC)) - when).total_seconds()
    if seconds < 60:
        return "just now"
    for unit, size in (("day", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if unit == 'day' and count > 1 else ''} ago"
    return "just now"


def format_span(seconds: float) -> str:
    """A length of time as people say it: ``45 s``, ``12 min``, ``3 h 05 min``."""
    if seconds < 60:
        return f"{int(seconds)} s"
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"

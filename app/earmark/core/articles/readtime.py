"""Estimated reading time: an article's words at an unhurried reading pace."""

from __future__ import annotations

WORDS_PER_MINUTE = 230


def reading_seconds(text: str) -> float | None:
    """Seconds to read ``text`` (whole seconds); None when it has no words."""
    words = len(text.split())
    return max(1.0, float(round(words * 60 / WORDS_PER_MINUTE))) if words else None


def reading_minutes(seconds: float | None) -> str:
    """``6 min read``, or ``under a minute``; empty when unknown."""
    if not seconds:
        return ""
    minutes = round(seconds / 60)
    return f"{minutes} min read" if minutes >= 1 else "under a minute"

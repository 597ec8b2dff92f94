"""Skipping silence: the levels, and which parts of an episode's quiet spans each one skips.

The analysis keeps every quiet span of at least MIN_SPAN seconds. A level skips the spans at least its
``min_length`` long, keeping ``kept`` seconds of each (half at each side): the jump lands in silence and leaves
from silence, so it makes no click and speech keeps its natural pauses.
"""

from __future__ import annotations

from earmark.core.records import record

MIN_SPAN = 0.3  # seconds: the shortest quiet span stored


@record(frozen=True)
class SilenceLevel:
    """How much silence a level skips."""

    name: str
    min_length: float  # skip quiet spans at least this long (seconds)
    kept: float  # of each skipped span, keep this much (seconds)


LEVELS = {"mild": SilenceLevel("mild", 1.0, 0.5), "strong": SilenceLevel("strong", 0.5, 0.2)}
SILENCE_LEVELS = ("off", *LEVELS)

Span = tuple[float, float]


def skipped(spans: list[Span], level: str) -> list[Span]:
    """The parts of ``spans`` the level jumps over (none for ``off`` or an unknown level)."""
    chosen = LEVELS.get(level)
    if chosen is None:
        return []
    margin = chosen.kept / 2
    return [(start + margin, end - margin) for start, end in spans if end - start >= chosen.min_length]


def saved_seconds(spans: list[Span], level: str) -> float:
    """The seconds of the episode the level skips."""
    return sum(end - start for start, end in skipped(spans, level))


def jump_target(skips: list[Span], position: float) -> float | None:
    """Where to jump when playing at ``position`` (inside a skipped part), else None."""
    for start, end in skips:
        if start <= position < end - 0.05:
            return end
        if start > position:
            break
    return None

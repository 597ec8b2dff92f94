"""Finding an episode's silent spans from its window levels: quiet is below a threshold set from the episode's
own loudness (speech near its loud end, a noise floor far below), and a span is kept when it lasts MIN_SPAN or
more. Runs once per episode (the spans are kept in the library)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from earmark.core.audio.silence import MIN_SPAN, Span
from earmark.core.db.database import Database
from earmark.core.db.downloads import local_file
from earmark.core.db.items import get_item
from earmark.core.db.silences import Silences, get_silences, store_silences
from earmark.core.errors import AudioError, EarmarkError

QUIET_BELOW_LOUD_DB = 35.0  # quiet: this far below the episode's loud level (its 95th percentile window)
QUIET_AT_MOST_DB = -40.0  # and never above this (a quiet recording's pauses)
QUIET_AT_LEAST_DB = -65.0  # nor below this (a recording's noise floor is not speech)


def silent_spans(levels: np.ndarray, window: float) -> list[Span]:
    """The spans (start, end in seconds) where ``levels`` (dBFS per ``window`` seconds) stay quiet for at least
    MIN_SPAN."""
    if levels.size == 0:
        return []
    loud = float(np.percentile(levels, 95))
    threshold = min(QUIET_AT_MOST_DB, max(QUIET_AT_LEAST_DB, loud - QUIET_BELOW_LOUD_DB))
    quiet = np.concatenate([[False], levels < threshold, [False]])
    edges = np.flatnonzero(np.diff(quiet.astype(np.int8)))
    starts, ends = edges[0::2], edges[1::2]
    return [(round(float(a) * window, 3), round(float(b) * window, 3))
            for a, b in zip(starts, ends, strict=True) if (b - a) * window >= MIN_SPAN]


def analyse_source(source: str, progress: Callable[[float], None] | None = None) -> tuple[list[Span], float]:
    """The silent spans of the audio at ``source`` and its length in seconds."""
    from earmark.core.audio.decode import WINDOW, window_levels  # PyAV: loaded on first use

    levels = window_levels(source, progress)
    return silent_spans(levels, WINDOW), round(levels.size * WINDOW, 3)


def episode_source(db: Database, item_id: int) -> str:
    """What to analyse: the downloaded file when there is one, else the episode's stream."""
    item = get_item(db, item_id)
    if item.enclosure_url is None:
        raise EarmarkError(f"“{item.title}” has no audio to analyse.")
    local = local_file(db, item_id)
    return str(local) if local else item.enclosure_url


def analyse_episode(db: Database, item_id: int, again: bool = False) -> Silences:
    """The episode's silences, analysed now unless they were before (``again``: analyse anyway). An episode
    that cannot be analysed is remembered with the sentence saying why (tried again only with ``again``)."""
    known = get_silences(db, item_id)
    if known is not None and not again:
        return known
    source = episode_source(db, item_id)
    try:
        spans, duration = analyse_source(source)
    except AudioError as exc:
        store_silences(db, item_id, [], None, str(exc))
    else:
        store_silences(db, item_id, spans, duration)
    found = get_silences(db, item_id)
    assert found is not None
    return found

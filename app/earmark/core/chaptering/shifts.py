"""Where the topic of a transcript shifts: TextTiling over its concepts (the topic graph's analyser), blocks of
about twenty seconds compared window against window; the deepest dips in likeness become chapter starts, between
3 and 12 per hour."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from earmark.core.models import Cue
from earmark.core.topics.concepts import concepts

BLOCK_SECONDS = 20.0  # a block of speech compared with its neighbours
WINDOW = 4  # blocks on each side of a gap (80 s: a topic is not settled in less)
PER_HOUR = (3, 12)  # chapters per hour of speech, at least and at most
MIN_CHAPTER = 90.0  # seconds: a shorter stretch is a remark, not a chapter

Vector = dict[str, float]


def blocks(cues: Sequence[Cue]) -> list[tuple[float, list[Cue]]]:
    """The cues in blocks of about BLOCK_SECONDS, each with the time it starts (a cue's start)."""
    found: list[tuple[float, list[Cue]]] = []
    for cue in cues:
        if not found or cue.start - found[-1][0] >= BLOCK_SECONDS:
            found.append((cue.start, []))
        found[-1][1].append(cue)
    return found


def weighted(counts: list[Counter[str]]) -> list[Vector]:
    """Each block's concepts weighted by tf-idf within the episode: words said all through it weigh nothing."""
    spread = Counter(term for count in counts for term in count)
    total = len(counts)
    return [{term: n * math.log(total / spread[term]) for term, n in count.items() if spread[term] < total}
            for count in counts]


def likeness(a: Vector, b: Vector) -> float:
    """The cosine of two weighted blocks (0 when either is empty)."""
    dot = sum(weight * b.get(term, 0.0) for term, weight in a.items())
    norm = math.sqrt(sum(w * w for w in a.values()) * sum(w * w for w in b.values()))
    return dot / norm if norm else 0.0


def _summed(vectors: list[Vector]) -> Vector:
    total: Vector = {}
    for vector in vectors:
        for term, weight in vector.items():
            total[term] = total.get(term, 0.0) + weight
    return total


def depths(vectors: list[Vector]) -> list[float]:
    """For each gap before block n (n ≥ 1), how deep the likeness of the windows around it dips below the
    highest likeness on either side (TextTiling's depth score)."""
    scores = [likeness(_summed(vectors[max(0, n - WINDOW):n]), _summed(vectors[n:n + WINDOW]))
              for n in range(1, len(vectors))]
    found = []
    for n, score in enumerate(scores):
        left = max(scores[:n + 1])
        right = max(scores[n:])
        found.append(left + right - 2 * score)
    return found


def topic_starts(cues: Sequence[Cue], duration: float) -> list[float]:
    """The times a new topic starts (the first chapter's start, 0, left out), as many as the length allows:
    at least 3 and at most 12 chapters per hour, none shorter than MIN_CHAPTER. Empty when the episode is too
    short for two chapters."""
    hours = duration / 3600
    most = math.floor(PER_HOUR[1] * hours) - 1
    least = math.ceil(PER_HOUR[0] * hours) - 1
    parts = blocks(cues)
    if most < 1 or len(parts) < 2:
        return []
    vectors = weighted([Counter(concepts(" ".join(cue.text for cue in cue_list))) for _, cue_list in parts])
    gaps = depths(vectors)
    deep = sorted(range(len(gaps)), key=lambda n: -gaps[n])
    mean = sum(gaps) / len(gaps)
    spread = math.sqrt(sum((g - mean) ** 2 for g in gaps) / len(gaps))
    chosen: list[float] = []
    for n in deep:
        if len(chosen) >= most or (len(chosen) >= least and gaps[n] < mean + spread / 2):
            break
        at = parts[n + 1][0]
        edges = [0.0, duration, *chosen]
        if all(abs(at - edge) >= MIN_CHAPTER for edge in edges):
            chosen.append(at)
    return sorted(chosen)

"""How related two items are: text similarity plus what ties them otherwise (citations, a series, shared tags, a
podroll), and the reasons that are not about shared concepts (those are worked out when a list is read)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Any, overload

from earmark.core.records import record
from earmark.core.topics.citations import BEFORE, FIRST, LINK, REMOTE

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

PREREQUISITE, FOLLOW_UP, CITES, CITED_BY = "prerequisite", "follow-up", "cites", "cited by"
REMOTE_ITEM = "feed: remote item"
PODROLL, SIMILAR = "podroll", "similar text"
SERIES = "same series"  # reasons read "same series: Inductor"
# Reasons from the first item's side, for a citation (item, cited, how): first for the item, then for the cited.
_CITATION_REASONS = {FIRST: (PREREQUISITE, FOLLOW_UP), BEFORE: (FOLLOW_UP, PREREQUISITE), LINK: (CITES, CITED_BY),
                     REMOTE: (REMOTE_ITEM, REMOTE_ITEM)}
_CITATION_BONUS = {PREREQUISITE: 0.6, FOLLOW_UP: 0.6, CITES: 0.4, CITED_BY: 0.4, REMOTE_ITEM: 0.4}
CITATION_ORDER = (PREREQUISITE, FOLLOW_UP, CITES, CITED_BY, REMOTE_ITEM)
TAG_BONUS, TAG_BONUS_MAX = 0.3, 0.4  # per shared tag (scaled by how rare it is), at most
SERIES_BONUS = 0.25
MENTION_BONUS = 0.2  # one item's text names what the other's title is about
PODROLL_BONUS = 0.1
MIN_SCORE = 0.04  # weaker pairs are not related
SPECIFIC_FLOOR = 0.02  # two items sharing no specific concept are related only by plain words this close, or
PLAIN_FLOOR = 0.15  # other ties
RELATED_PER_ITEM = 12
SMALL_TAG = 50  # items sharing a tag this rare are scored even when their texts differ
SERIES_MAX = 60  # more items sharing a title's start than this are a show's naming, not a series
SERIES_NEAR = 3  # the episodes before and after an item in its series are scored with it whatever their texts
_SERIES = re.compile(r"^\s*(?P<name>[^:–—|]{2,40}?)\s*(?:\s[-–—|]\s|:\s)\S")


def citation_reasons(rows: Iterable[tuple[int, int, str]]) -> dict[tuple[int, int], set[str]]:
    """For citations (item, cited, how): the reasons of each ordered pair, from its first item's side."""
    reasons: dict[tuple[int, int], set[str]] = {}
    for item_id, cited_id, how in rows:
        mine, theirs = _CITATION_REASONS[how]
        reasons.setdefault((item_id, cited_id), set()).add(mine)
        reasons.setdefault((cited_id, item_id), set()).add(theirs)
    return reasons


def series_name(title: str) -> str | None:
    """The series a title says it belongs to: what comes before " - " or ": " (``Inductor - IR`` → ``Inductor``),
    when that is a short name rather than a sentence."""
    match = _SERIES.match(title)
    if match is None:
        return None
    name = match.group("name").strip()
    return name if len(name.split()) <= 4 and any(c.isalpha() for c in name) else None


def rarity(count: int, total: int) -> float:
    """1 for a tag on two items of a large library, 0 for a tag on every item."""
    if total < 2 or count >= total:
        return 0.0
    return math.log(total / max(count, 1)) / math.log(total)


@record
class Ties:
    """What relates items besides their texts, for the items of one pass (keyed by item id): citations (with the
    reasons from each side), series names, each item's source, podroll pairs of sources, and tag weights."""

    citations: dict[tuple[int, int], set[str]] = field(default_factory=dict)
    series: dict[int, str] = field(default_factory=dict)
    sources: dict[int, int | None] = field(default_factory=dict)
    podroll: set[tuple[int, int]] = field(default_factory=set)

    def bonus(self, a: int, b: int) -> tuple[float, list[str]]:
        """The bonus of ``b`` for ``a`` from citations and a podroll, with those reasons (``a``'s side), and from
        a series (its reason is told when read: see reasons.py)."""
        score = SERIES_BONUS if self.same_series(a, b) else 0.0
        reasons: list[str] = []
        cited = self.citations.get((a, b))
        if cited:
            reasons += [reason for reason in CITATION_ORDER if reason in cited]
            score += max(_CITATION_BONUS[r] for r in cited)
        if self.podroll and (self.sources.get(a), self.sources.get(b)) in self.podroll:
            reasons.append(PODROLL)
            score += PODROLL_BONUS
        return score, reasons

    def same_series(self, a: int, b: int) -> bool:
        """Whether both items are in one series."""
        name = self.series.get(a)
        return name is not None and self.series.get(b) == name

    def partners(self) -> dict[int, set[int]]:
        """Items that must be scored together whatever their texts say: citations, and the SERIES_NEAR items
        before and after each in its series."""
        found: dict[int, set[int]] = {}
        for a, b in self.citations:
            found.setdefault(a, set()).add(b)
        members: dict[str, list[int]] = {}
        for item_id, name in self.series.items():
            members.setdefault(name, []).append(item_id)
        for group in members.values():
            group.sort()
            for place, item_id in enumerate(group):
                near = group[max(0, place - SERIES_NEAR):place] + group[place + 1:place + 1 + SERIES_NEAR]
                found.setdefault(item_id, set()).update(near)
        return found

    def series_numbers(self, item_ids: list[int]) -> np.ndarray:
        """Each item's series as a number (-1: in none), for comparing many pairs at once."""
        import numpy as np

        numbers: dict[str, int] = {}
        return np.fromiter((numbers.setdefault(name, len(numbers)) if (name := self.series.get(i)) is not None
                            else -1 for i in item_ids), dtype=np.int64, count=len(item_ids))


def keep_series(series: dict[int, str], sources: dict[int, int | None]) -> dict[int, str]:
    """Series names shared by two to SERIES_MAX items of one source (a name on one item is no series)."""
    members: dict[tuple[int | None, str], list[int]] = {}
    for item_id, name in series.items():
        members.setdefault((sources.get(item_id), name.lower()), []).append(item_id)
    return {item_id: series[item_id] for group in members.values() if 2 <= len(group) <= SERIES_MAX
            for item_id in group}


def tag_bonus(tags: csr_matrix, rows: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The shared-tag bonus of each pair: TAG_BONUS for each shared tag scaled by its rarity, at most
    TAG_BONUS_MAX (``tags``: items × tags, each entry the tag's rarity)."""
    import numpy as np

    if tags.nnz == 0 or len(rows) == 0:
        return np.zeros(len(rows), np.float32)
    shared = np.asarray(tags[rows].multiply(tags[others] > 0).sum(axis=1), dtype=np.float32).ravel()
    return np.minimum(np.float32(TAG_BONUS_MAX), np.float32(TAG_BONUS) * shared)


@overload
def kept(cosine: float, specific: float, ties: float) -> bool: ...


@overload
def kept(cosine: np.ndarray, specific: np.ndarray, ties: np.ndarray) -> np.ndarray: ...


def kept(cosine: Any, specific: Any, ties: Any) -> Any:
    """Which pairs can be related (arrays of pairs, or one pair's numbers): they share a specific concept, or plain
    words strongly, or another tie."""
    return (specific >= SPECIFIC_FLOOR) | (cosine >= PLAIN_FLOOR) | (ties > 0)


def best(item_ids: np.ndarray, others: np.ndarray, scores: np.ndarray, keep: np.ndarray,
         limit: int = RELATED_PER_ITEM) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of scored pairs (``item_ids[n]``, ``others[n]``), those kept and of at least MIN_SCORE, each item's
    ``limit`` best, best first."""
    import numpy as np

    live = keep & (scores >= MIN_SCORE)
    item_ids, others, scores = item_ids[live], others[live], scores[live]
    order = np.lexsort((others, -scores, item_ids))
    item_ids, others, scores = item_ids[order], others[order], scores[order]
    if len(item_ids) == 0:
        return item_ids, others, scores
    first = np.concatenate(([True], item_ids[1:] != item_ids[:-1]))
    group_start = np.maximum.accumulate(np.where(first, np.arange(len(item_ids)), 0))
    within = np.arange(len(item_ids)) - group_start < limit
    return item_ids[within], others[within], scores[within]

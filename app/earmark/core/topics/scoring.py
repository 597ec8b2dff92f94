"""How related two items are: text similarity plus what they share (citations, tags, topics), with reasons."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from earmark.core.topics.citations import BEFORE, FIRST, LINK, REMOTE

PREREQUISITE, FOLLOW_UP, CITES, CITED_BY = "prerequisite", "follow-up", "cites", "cited by"
REMOTE_ITEM = "feed: remote item"
PODROLL, SIMILAR = "podroll", "similar text"
# Reasons from the first item's side, for a citation (item, cited, how): first for the item, then for the cited.
_CITATION_REASONS = {FIRST: (PREREQUISITE, FOLLOW_UP), BEFORE: (FOLLOW_UP, PREREQUISITE), LINK: (CITES, CITED_BY),
                     REMOTE: (REMOTE_ITEM, REMOTE_ITEM)}
_CITATION_BONUS = {PREREQUISITE: 0.6, FOLLOW_UP: 0.6, CITES: 0.4, CITED_BY: 0.4, REMOTE_ITEM: 0.4}
_CITATION_ORDER = (PREREQUISITE, FOLLOW_UP, CITES, CITED_BY, REMOTE_ITEM)
TAG_BONUS, TAG_BONUS_MAX = 0.3, 0.4  # per shared tag (scaled by how rare it is), at most
TOPIC_BONUS, TOPICS_SHOWN = 0.05, 3
PODROLL_BONUS = 0.1
MIN_SCORE = 0.08  # weaker pairs are not related
RELATED_PER_ITEM = 20


def citation_reasons(rows: Iterable[tuple[int, int, str]]) -> dict[tuple[int, int], set[str]]:
    """For citations (item, cited, how): the reasons of each ordered pair, from its first item's side."""
    reasons: dict[tuple[int, int], set[str]] = {}
    for item_id, cited_id, how in rows:
        mine, theirs = _CITATION_REASONS[how]
        reasons.setdefault((item_id, cited_id), set()).add(mine)
        reasons.setdefault((cited_id, item_id), set()).add(theirs)
    return reasons


@dataclass(slots=True)
class Context:
    """What scoring needs beyond the text similarity: tags, topics and citations of the items concerned."""

    total: int
    tags: dict[int, frozenset[str]] = field(default_factory=dict)
    tag_counts: Counter[str] = field(default_factory=Counter)
    topics: dict[int, dict[str, float]] = field(default_factory=dict)  # item → its topics' weights
    labels: dict[str, str] = field(default_factory=dict)  # term → how it is usually written
    citations: dict[tuple[int, int], set[str]] = field(default_factory=dict)
    sources: dict[int, int | None] = field(default_factory=dict)
    podroll: set[tuple[int, int]] = field(default_factory=set)  # (source, source) pairs, both ways

    def score(self, a: int, b: int, cosine: float) -> tuple[float, list[str]]:
        """How related ``b`` is to ``a`` (0 and more) and why, strongest reason first."""
        reasons: list[str] = []
        score = cosine
        cited = self.citations.get((a, b))
        if cited:
            reasons += [reason for reason in _CITATION_ORDER if reason in cited]
            score += max(_CITATION_BONUS[r] for r in cited)
        if self.podroll:
            source_a, source_b = self.sources.get(a), self.sources.get(b)
            if source_a is not None and source_b is not None and (source_a, source_b) in self.podroll:
                reasons.append(PODROLL)
                score += PODROLL_BONUS
        tags_a = self.tags.get(a)
        if tags_a:
            shared_tags = sorted(tags_a & self.tags.get(b, frozenset()), key=lambda tag: (self.tag_counts[tag], tag))
            rarity = [self._rarity(tag) for tag in shared_tags]
            score += min(TAG_BONUS_MAX, TAG_BONUS * sum(rarity))
            reasons += [f"tag: {tag}" for tag, rare in zip(shared_tags, rarity, strict=True) if rare > 0]
        topics = self._shared_topics(a, b)
        score += TOPIC_BONUS * len(topics)
        reasons += [f"topic: {self.labels.get(term, term)}" for term in topics]
        if not reasons:
            reasons.append(SIMILAR)
        return score, reasons

    def _rarity(self, tag: str) -> float:
        """1 for a tag on two items of a large library, 0 for a tag on every item."""
        count = self.tag_counts[tag]
        if self.total < 2 or count >= self.total:
            return 0.0
        return math.log(self.total / max(count, 1)) / math.log(self.total)

    def _shared_topics(self, a: int, b: int) -> list[str]:
        mine, theirs = self.topics.get(a), self.topics.get(b)
        if not mine or not theirs:
            return []
        common = mine.keys() & theirs.keys()
        if not common:
            return []
        shared = sorted(common, key=lambda t: (-mine[t] * theirs[t], t))
        chosen: list[str] = []
        for term in shared:
            if not any(f" {term} " in f" {other} " or f" {other} " in f" {term} " for other in chosen):
                chosen.append(term)
            if len(chosen) == TOPICS_SHOWN:
                break
        return chosen


def strongest(scored: Iterable[tuple[int, float, list[str]]], limit: int = RELATED_PER_ITEM
              ) -> list[tuple[int, float, list[str]]]:
    """The ``limit`` best-scored (other, score, reasons) of at least MIN_SCORE, best first."""
    kept = [row for row in scored if row[1] >= MIN_SCORE]
    return sorted(kept, key=lambda row: (-row[1], row[0]))[:limit]

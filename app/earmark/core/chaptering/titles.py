"""A made chapter's title: its most specific terms, the ones said often in it and seldom in the episode's other
chapters, names (AOTAutograd, torch.compile) before plain words, written as the transcript writes them."""

from __future__ import annotations

import math
from collections import Counter

from earmark.core.topics.concepts import concepts, surfaces
from earmark.core.topics.vocabulary import common_stems

TERMS = 2  # a title names this many terms
# What a term says of a chapter beside how often it is said: a name (TorchDynamo, FX) or a phrase (dynamic shape)
# more than a word, an everyday word (equal, latest) least.
NAME_WEIGHT, PHRASE_WEIGHT, PLAIN_WEIGHT = 2.0, 2.0, 0.5


def _weight(term: str, named: set[str], plain: frozenset[str]) -> float:
    if term in named:
        return NAME_WEIGHT
    if " " in term:
        return PHRASE_WEIGHT
    return PLAIN_WEIGHT if term in plain else 1.0


def titles(texts: list[str]) -> list[str]:
    """One title per chapter text: its TERMS most specific terms, or "Part N" when it says nothing specific."""
    named: set[str] = set()
    plain = common_stems()
    counted = [Counter(concepts(text, named)) for text in texts]
    spread = Counter(term for counts in counted for term in counts)
    found = []
    for number, (text, counts) in enumerate(zip(texts, counted, strict=True), 1):
        scored = sorted(((n * math.log((1 + len(texts)) / spread[term]) * _weight(term, named, plain), term)
                         for term, n in counts.items() if n >= 2), reverse=True)
        chosen: list[str] = []
        for _, term in scored:
            if not any(term in other or other in term for other in chosen):
                chosen.append(term)
            if len(chosen) == TERMS:
                break
        found.append(_written(text, chosen) if chosen else f"Part {number}")
    return found


def _written(text: str, terms: list[str]) -> str:
    """The terms as the text most often writes them, the first with a capital: "TorchDynamo, guards"."""
    ways: dict[str, Counter[str]] = {term: Counter() for term in terms}
    for term, surface in surfaces(text):
        if term in ways:
            ways[term][surface] += 1
    shown = [ways[term].most_common(1)[0][0] if ways[term] else term for term in terms]
    shown[0] = shown[0][:1].upper() + shown[0][1:]
    return ", ".join(shown)

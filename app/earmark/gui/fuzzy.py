"""Fuzzy matching for the command palette: every typed character in order, word starts and runs preferred."""

from __future__ import annotations

NAME_BONUS = 10.0


def fuzzy_score(query: str, text: str) -> float | None:
    """How well ``text`` matches ``query`` (higher is better), or None when it does not match: each
    character of the query (spaces ignored, case-insensitive) must appear in ``text`` in order."""
    needle = "".join(query.lower().split())
    if not needle:
        return 0.0
    haystack = text.lower()
    score = 0.0
    at = 0
    previous = -2
    for char in needle:
        found = haystack.find(char, at)
        if found < 0:
            return None
        if found == previous + 1:
            score += 3.0  # a run of consecutive characters
        if found == 0 or not haystack[found - 1].isalnum():
            score += 5.0  # the start of a word
        score -= (found - at) * 0.1  # characters skipped
        previous, at = found, found + 1
    return score - len(haystack) * 0.01  # shorter texts first among equals


def fuzzy_sorted(query: str, entries: list[tuple[str, str]]) -> list[int]:
    """Indexes of the (name, context) entries matching ``query``, best first (ties keep their order). A match
    in the name alone beats one that needs the context ("Up Next: Play Next" for "next" is about its name)."""
    scored = []
    for index, (name, context) in enumerate(entries):
        scores = [s for s in (fuzzy_score(query, name), fuzzy_score(query, f"{context} {name}")) if s is not None]
        if scores:
            scored.append((max(scores[0] + NAME_BONUS if len(scores) == 2 else scores[0], *scores), index))
    return [index for _score, index in sorted(scored, key=lambda pair: (-pair[0], pair[1]))]

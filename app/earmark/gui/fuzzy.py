"""Fuzzy matching for the command palette: every typed character in order, word starts and runs preferred;
after those, the rows the query would match but for a slip of the finger (rapidfuzz). bench/libraries.py
measures both against rapidfuzz alone (docs/libraries.md)."""

from __future__ import annotations

NAME_BONUS = 10.0
SLIP_CUTOFF = 70.0  # rapidfuzz's WRatio (0-100) a row needs to be offered for a query with a slip


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
    """Indexes of the (name, context) entries matching ``query``, best first: those that hold its characters in
    order, then those that would but for a slip of the finger ("chapetr", "chapter next")."""
    found = in_order(query, entries)
    return found + [index for index in slips(query, entries) if index not in set(found)]


def in_order(query: str, entries: list[tuple[str, str]]) -> list[int]:
    """Indexes of the (name, context) entries holding the query's characters in order, best first (ties keep
    their order). A match in the name alone beats one that needs the context ("Up Next: Play Next" for "next"
    is about its name)."""
    scored = []
    for index, (name, context) in enumerate(entries):
        scores = [s for s in (fuzzy_score(query, name), fuzzy_score(query, f"{context} {name}")) if s is not None]
        if scores:
            scored.append((max(scores[0] + NAME_BONUS if len(scores) == 2 else scores[0], *scores), index))
    return [index for _score, index in sorted(scored, key=lambda pair: (-pair[0], pair[1]))]


def slips(query: str, entries: list[tuple[str, str]]) -> list[int]:
    """Indexes of the entries ``query`` is close to (letters swapped, left out or wrong, words in another
    order), best first: rapidfuzz's WRatio on the name, or the context and name."""
    from rapidfuzz import fuzz, process, utils  # loaded when the palette is first used, not at start-up

    if not query.strip():
        return []
    scores: dict[int, float] = {}
    for texts in ([name for name, _context in entries], [f"{context} {name}" for name, context in entries]):
        for _text, score, index in process.extract(query, texts, scorer=fuzz.WRatio, limit=None,
                                                   processor=utils.default_process, score_cutoff=SLIP_CUTOFF):
            scores[index] = max(score, scores.get(index, 0.0))
    return sorted(scores, key=lambda index: (-scores[index], index))

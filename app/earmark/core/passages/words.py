"""A question's words: the FTS5 query that finds passages holding any of them (bm25 ranks those holding more,
and rarer, higher), and where they stand in an answer's text, to mark them."""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_]+")
_SUFFIX = re.compile(r"(?:ing|ed|es|s|ly)$")
STOPWORDS = frozenset("""a about after all also an and any are as at be because been before being between both but
by can could did do does doing during each few for from had has have having he her here hers him his how i if in
into is it its itself just me more most my no nor not of off on once only or other our out over own same she
should so some such than that the their them then there these they this those through to too under until up very
was we were what when where which while who whom why will with would you your yours tell talk talked say said
explain explained thing things way ways""".split())


def question_words(question: str) -> list[str]:
    """The words of the question that say something (lower case, each once, stop words left out)."""
    words = [word for word in _WORD.findall(question.lower()) if word not in STOPWORDS]
    return list(dict.fromkeys(words))


def match_expression(words: Iterable[str]) -> str:
    """An FTS5 query for passages holding any of the words; words written ``+word`` are all required."""
    required = [f'"{word[1:]}"' for word in words if word.startswith("+")]
    if required:
        return " AND ".join(required)
    return " OR ".join(f'"{word}"' for word in words)


def stem(word: str) -> str:
    """A rough stem, to tell that "graphs" and "graph" are one word when marking and placing answers."""
    word = word.lower()
    return _SUFFIX.sub("", word) if len(word) > 3 else word


def marks(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """Where the question's words stand in ``text`` (start and end offsets, in order)."""
    wanted = {stem(word) for word in words}
    return [(m.start(), m.end()) for m in _WORD.finditer(text) if stem(m.group()) in wanted]


def overlap(text: str, words: Iterable[str]) -> int:
    """How many of the question's words ``text`` holds."""
    wanted = {stem(word) for word in words}
    return len(wanted & {stem(m.group()) for m in _WORD.finditer(text)})

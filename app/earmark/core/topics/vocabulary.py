"""The tables the topic graph reads words with: stems, plain English words, words of the trade that say nothing,
aliases (the analyser's maintained table, resources/text/aliases.txt, and the acronyms the library defines) and
broader concepts (resources/topics)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from earmark.core.package_data import resource_folder
from earmark.core.text import looks_technical, maintained, normal_form


def table(name: str) -> list[str]:
    """The lines of a table in resources/topics, comments left out."""
    text = (resource_folder() / "topics" / name).read_text(encoding="utf-8")
    return [kept for line in text.splitlines() if (kept := line.split("#", 1)[0].strip())]


@lru_cache(maxsize=1)
def _stemmer() -> Callable[[str], str]:
    import Stemmer  # PyStemmer: Snowball's English stemmer in C (no type hints: mypy ignores it in pyproject)

    # Without its own cache: stem() keeps one in front of it, and filling the stemmer's made each word's first
    # stemming three times slower (the 10,900 plain English words: 14 ms instead of 5, in every process).
    return Stemmer.Stemmer("english", 0).stemWord


@lru_cache(maxsize=262144)
def stem(word: str) -> str:
    """A lower-case word's stem (``strides``, ``striding`` → ``stride``); names with digits, dots or underscores
    stay as they are."""
    return _stemmer()(word) if word.isalpha() else word


def concept_word(surface: str) -> str:
    """A written word as concepts keep it: a plain word by its stem, a name whole (lower case)."""
    lower = normal_form(surface)
    return lower if looks_technical(surface) else stem(lower)


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Plain English words: they weigh in similarity, but do not name a topic on their own."""
    return frozenset(line.lower() for line in table("common-words.txt"))


@lru_cache(maxsize=1)
def common_stems() -> frozenset[str]:
    """The stems of the plain English words (a word of that stem is plain whatever its ending)."""
    return frozenset(stem(word) for word in common_words())


@lru_cache(maxsize=1)
def generic_terms() -> frozenset[str]:
    """Words and phrases of the trade that say nothing about what an item is about."""
    return frozenset(" ".join(stem(w) for w in line.lower().split()) for line in table("generic-words.txt"))


_learnt: tuple[tuple[str, str], ...] = ()  # the library's acronyms and their expansions (set_learnt_aliases)


def set_learnt_aliases(pairs: Iterable[tuple[str, str]]) -> bool:
    """Read texts with the library's own acronyms too, (acronym, expansion) as core/db/search_words.py learns
    them; whether they differ from those read with so far (the caches of words read before are then stale)."""
    global _learnt
    learnt = tuple(sorted(set(pairs)))
    if learnt == _learnt:
        return False
    _learnt = learnt
    for cached in (aliases, phrase_starts, broader, family_names):
        cached.cache_clear()
    return True


@lru_cache(maxsize=1)
def aliases() -> dict[str, str]:
    """Each alias (as concepts keep it) → the concept its group is kept under, from the analyser's maintained table
    and the library's acronyms (an expansion of two words or more, neither side a word of the trade that says
    nothing: "PyTorch (PT)" does not make PyTorch a topic). A name the maintained table knows keeps its group."""
    found: dict[str, str] = {}
    table, generic = maintained(), generic_terms()
    for acronym, expansion in _learnt:
        if len(expansion.split()) < 2 or {_raw_concept(acronym), _raw_concept(expansion)} & generic:
            continue
        if expansion not in table:
            table.add(acronym, expansion)
        elif acronym not in table:
            table.add(expansion, acronym)
    for group in table.groups():
        kept = _raw_concept(group[0])
        for name in group[1:]:
            found[_raw_concept(name)] = kept
    return found


def _raw_concept(name: str) -> str:
    return " ".join(concept_word(word) for word in name.split())


def as_concept(name: str) -> str:
    """A name from a table as the concept its words make (``Half precision`` → ``fp16``, its alias group's)."""
    words = _raw_concept(name)
    return aliases().get(words, words)


@lru_cache(maxsize=1)
def phrase_starts() -> dict[str, int]:
    """First word of each multi-word alias or generic phrase → the most words such a phrase has."""
    starts: dict[str, int] = {}
    for name in (*aliases(), *generic_terms()):
        words = name.split()
        if len(words) > 1:
            starts[words[0]] = max(starts.get(words[0], 0), len(words))
    return starts


@lru_cache(maxsize=1)
def broader() -> dict[str, tuple[str, ...]]:
    """Each name (one or two words, as concepts) → the broader concepts it belongs to (resources/topics)."""
    found: dict[str, tuple[str, ...]] = {}
    for line in table("broader.txt"):
        family, _sep, members = line.partition("=")
        concept = as_concept(family)
        for member in members.split("|"):
            name = as_concept(member)
            if name != concept and concept not in found.get(name, ()):
                found[name] = (*found.get(name, ()), concept)
    return found


@lru_cache(maxsize=1)
def family_names() -> dict[str, str]:
    """Each broader concept → its name as the table writes it (``concurr`` → ``concurrency``): no text need ever
    write it for a label."""
    return {as_concept(line.partition("=")[0]): line.partition("=")[0].strip() for line in table("broader.txt")}

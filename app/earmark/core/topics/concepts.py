"""The concepts a text is about, as the topic graph compares them: technical words split and kept whole
(AOTAutograd is ``aotautograd``, ``aot`` and ``autograd``), two-word phrases, aliases read as one name (TorchDynamo
is ``dynamo``), and no stop words, generic words of the trade or numbers on their own."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import chain

from earmark.core.topics.cleaning import STOP_WORDS
from earmark.core.topics.cleaning import stem as crude_singular

_CHUNK = re.compile(r"[.!?;:](?:\s|$)|[,()\[\]{}\"“”«»|]|\s[-–—]\s|\n")  # phrases never cross these
_TOKEN = re.compile(r"[A-Za-z_][\w]*(?:[.\-/+][A-Za-z_\d]\w*)*\+*|\d+(?:\.\d+)*[A-Za-z]?\w*")
_PIECES = re.compile(f"({_CHUNK.pattern})|({_TOKEN.pattern})")  # a chunk boundary, or a word
_SPLIT = re.compile(r"[._\-/+]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_POSSESSIVE = re.compile(r"['’]s\b")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
MIN_PART = 3  # shorter pieces of a split name are no concept of their own ("aot" is, "py" is not)


def _table(name: str) -> list[str]:
    text = (resources.files("earmark.resources") / "topics" / name).read_text(encoding="utf-8")
    return [line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip()]


@lru_cache(maxsize=1)
def _stemmer() -> Callable[[str], str]:
    import Stemmer  # PyStemmer: Snowball's English stemmer in C (no type hints: mypy ignores it in pyproject)

    return Stemmer.Stemmer("english").stemWord


@lru_cache(maxsize=262144)
def stem(word: str) -> str:
    """A lower-case word's stem (``strides``, ``striding`` → ``stride``); names with digits, dots or underscores
    stay as they are."""
    return _stemmer()(word) if word.isalpha() else word


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Plain English words: they weigh in similarity, but do not name a topic on their own."""
    return frozenset(line.lower() for line in _table("common-words.txt"))


@lru_cache(maxsize=1)
def generic_terms() -> frozenset[str]:
    """Words and phrases of the trade that say nothing about what an item is about (resources/topics)."""
    return frozenset(" ".join(stem(w) for w in line.lower().split()) for line in _table("generic-words.txt"))


@lru_cache(maxsize=1)
def aliases() -> dict[str, str]:
    """Each alias (one to four words, lower case) → the name its concept is kept under (resources/topics)."""
    table: dict[str, str] = {}
    for line in _table("aliases.txt"):
        names = [" ".join(stem(w) for w in name.strip().lower().split()) for name in line.split("=")]
        for name in names[1:]:
            table[name] = names[0]
    return table


@lru_cache(maxsize=1)
def broader() -> dict[str, tuple[str, ...]]:
    """Each name (one or two words, as concepts) → the broader concepts it belongs to (resources/topics)."""
    table: dict[str, tuple[str, ...]] = {}
    for line in _table("broader.txt"):
        family, _sep, members = line.partition("=")
        concept = _as_concept(family)
        for member in members.split("|"):
            name = _as_concept(member)
            if name != concept and concept not in table.get(name, ()):
                table[name] = (*table.get(name, ()), concept)
    return table


@lru_cache(maxsize=1)
def family_names() -> dict[str, str]:
    """Each broader concept → its name as the table writes it (``concurr`` → ``concurrency``): no text need ever
    write it for a label."""
    return {_as_concept(line.partition("=")[0]): line.partition("=")[0].strip() for line in _table("broader.txt")}


def _as_concept(name: str) -> str:
    """A name from a table as the concept its words make (``Half precision`` → ``half precis``)."""
    words = " ".join(_word(word) for word in name.split())
    return aliases().get(words, words)


def _word(surface: str) -> str:
    """A word's lower-case form as concepts keep it: a plain word stemmed, a name whole."""
    lower = surface.lower().strip("_+")
    return lower if looks_technical(surface) else stem(lower)


@lru_cache(maxsize=1)
def _phrase_starts() -> dict[str, int]:
    """First word of each multi-word alias or generic phrase → the most words such a phrase has."""
    starts: dict[str, int] = {}
    for name in (*aliases(), *generic_terms()):
        words = name.split()
        if len(words) > 1:
            starts[words[0]] = max(starts.get(words[0], 0), len(words))
    return starts


@dataclass(slots=True, frozen=True)
class Token:
    """One written word: its concept (None for stop words, numbers and generic words), what it adds to a text's
    concepts (the concept and the parts of a compound name), and how it was written."""

    term: str | None
    emits: tuple[str, ...]
    surface: str
    word: str  # the lower-case, singular form that multi-word names are matched on (numbers included)
    names: tuple[str, ...] = ()  # what it adds that are names, not plain English words (AOTAutograd, functorch)
    wider: tuple[str, ...] = ()  # the broader concepts it belongs to (uint16: dtype)


@lru_cache(maxsize=262144)
def token(surface: str) -> Token:
    """What one written word stands for: a plain word by its stem, a name (NumPy, AOTAutograd, uint16) whole."""
    lower = surface.lower().strip("_+")
    if not lower or lower[0].isdigit() or lower in STOP_WORDS or (len(lower) < 3 and not surface.isupper()):
        return Token(None, (), surface, lower)
    technical = looks_technical(surface)
    whole = _word(surface)
    term = aliases().get(whole, whole)
    generic = generic_terms()
    if term in generic:
        return Token(None, (), surface, whole)
    pieces = [p for piece in _SPLIT.split(surface.strip("_")) for p in _CAMEL.findall(piece)]
    if any(len(p) < MIN_PART and not p.isdigit() for p in pieces):  # ATen, NumPy, PyTorch: one name, no parts
        pieces = []
    parts = [stem(p.lower()) for p in pieces if p.isalpha() and p.lower() not in STOP_WORDS]
    parts = [p for p in dict.fromkeys(parts) if p != term and p != whole and p not in generic]
    plain = not technical and (lower in common_words() or crude_singular(lower) in common_words())
    return Token(term, (term, *parts), surface, whole, () if plain else (term,), broader().get(term, ()))


def looks_technical(surface: str) -> bool:
    """Written as a name rather than a word: capitals after the first letter (AOTAutograd, CUDA), digits,
    dots or underscores (FP8, torch.compile, __torch_function__)."""
    return (any(c.isupper() for c in surface[1:]) or any(c.isdigit() or c in "._" for c in surface)) \
        and any(c.isalpha() for c in surface)


def tokens(text: str) -> Iterator[list[Token]]:
    """The words of ``text``, chunk by chunk (a phrase never crosses a sentence end, a comma or a bracket)."""
    chunk: list[Token] = []
    for _boundary, word in _PIECES.findall(_URL.sub(" ", _POSSESSIVE.sub("", text))):
        if word:
            chunk.append(token(word))
        elif chunk:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _phrases_named(chunk: list[Token], starts: dict[str, int]) -> tuple[list[str], set[int]]:
    """Multi-word aliases found in a chunk (``fully sharded data parallel`` → ``fsdp``) and generic phrases (``pull
    request``: neither word counts), with the places they cover."""
    table, generic = aliases(), generic_terms()
    found: list[str] = []
    covered: set[int] = set()
    for place, tok in enumerate(chunk):
        longest = starts.get(tok.word)
        if not longest or place in covered:
            continue
        for size in range(min(longest, len(chunk) - place), 1, -1):
            words = " ".join(t.word for t in chunk[place:place + size])
            name = table.get(words)
            if name or words in generic:
                if name:
                    found.append(name)
                covered.update(range(place, place + size))
                break
    return found, covered


def concepts(text: str, named: set[str] | None = None) -> list[str]:
    """Every concept occurrence in ``text``: the terms of its words (and the parts of compound names), and its
    two-word phrases, generic ones left out, then once each the broader concepts they belong to; ``named`` (when
    given) gathers the concepts that are names rather than plain English words."""
    starts, table, wider = _phrase_starts(), aliases(), broader()
    found: list[str] = []
    families: set[str] = set()
    for chunk in tokens(text):
        if not starts.keys().isdisjoint([t.word for t in chunk]):
            aliased, covered = _phrases_named(chunk, starts)
            found += aliased
            chunk = [Token(None, (), t.surface, t.word) if place in covered else t for place, t in enumerate(chunk)]
        found.extend(chain.from_iterable(tok.emits for tok in chunk))
        families.update(chain.from_iterable(tok.wider for tok in chunk))
        if named is not None:
            named.update(chain.from_iterable(tok.names for tok in chunk))
        if len(chunk) > 1:
            terms = [tok.term for tok in chunk]
            phrases = [table.get(phrase, phrase) for phrase in
                       (f"{a} {b}" for a, b in zip(terms, terms[1:], strict=False) if a and b)]
            found += phrases
            families.update(family for phrase in phrases for family in wider.get(phrase, ()))
    if families:
        found += sorted(families)
        if named is not None:
            named.update(families)
    return found


def surfaces(text: str) -> Iterator[tuple[str, str]]:
    """(concept, how it was written) for the words and phrases of ``text``: what labels are chosen from."""
    for chunk in tokens(text):
        previous: Token | None = None
        for tok in chunk:
            if tok.term is None:
                previous = None
                continue
            yield tok.term, tok.surface.strip("_")
            if previous is not None:
                yield f"{previous.term} {tok.term}", f"{previous.surface} {tok.surface}"
            previous = tok



"""The concepts a text is about, as the topic graph compares them, read with the shared analyser (core/text):
compound names kept whole and by their parts (AOTAutograd is ``aotautograd``, ``aot`` and ``autograd``), two-word
phrases within a sentence, aliases read as one concept (TorchDynamo is ``dynamo``), then the broader concepts
named (uint16: ``dtype``); no stop words, generic words of the trade, or numbers on their own."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, repeat
from operator import attrgetter

from earmark.core.records import record
from earmark.core.text import looks_technical, word
from earmark.core.text.words import run_surfaces
from earmark.core.topics.cleaning import STOP_WORDS
from earmark.core.topics.cleaning import stem as crude_singular
from earmark.core.topics.vocabulary import (
    aliases,
    broader,
    common_stems,
    common_words,
    concept_word,
    generic_terms,
    phrase_starts,
)

MIN_PART = 3  # a compound with a shorter piece is one name (NumPy, FP8); its pieces are no concepts of their own
MAX_TOKENS = 262144  # written words whose Token is kept (the table starts again when full)


@record(frozen=True)
class Token:
    """One written word: its concept (None for stop words, numbers and generic words), what it adds to a text's
    concepts (the concept and the parts of a compound name), and how it was written."""

    term: str | None
    emits: tuple[str, ...]
    surface: str
    word: str  # the form multi-word aliases and generic phrases are matched on (numbers included)
    names: tuple[str, ...] = ()  # what it adds that are names, not plain English words (AOTAutograd, functorch)
    wider: tuple[str, ...] = ()  # the broader concepts it belongs to (uint16: dtype)


def token(surface: str) -> Token:
    """What one written word stands for: a plain word by its stem, a name (NumPy, AOTAutograd, uint16) whole."""
    written = word(surface)
    lower = written.whole
    if not lower or lower[0].isdigit() or lower in STOP_WORDS or (len(lower) < 3 and not surface.isupper()):
        return Token(None, (), surface, lower)
    whole = concept_word(surface)
    term = aliases().get(whole, whole)
    generic = generic_terms()
    if term in generic:
        return Token(None, (), surface, whole)
    pieces = written.parts
    if any(len(piece) < MIN_PART and not piece.isdigit() for piece in pieces):
        pieces = ()
    parts = [concept_word(p) for p in pieces if p.isalpha() and p not in STOP_WORDS]
    parts = [p for p in dict.fromkeys(parts) if p != term and p != whole and p not in generic]
    plain = not looks_technical(surface) and (lower in common_words() or crude_singular(lower) in common_words()
                                              or whole in common_stems())  # "modelling" is as plain as "model"
    return Token(term, (term, *parts), surface, whole, () if plain else (term,), broader().get(term, ()))


class _Tokens(dict[str, Token]):
    """Each written word's Token, worked out the first time the word is met: a text's words are looked up with
    map() at C speed (a plain dict's lookup, no Python call per word)."""

    def __missing__(self, surface: str) -> Token:
        if len(self) >= MAX_TOKENS:
            self.clear()
        found = self[surface] = token(surface)
        return found


_TOKENS = _Tokens()
_term, _emits, _word = attrgetter("term"), attrgetter("emits"), attrgetter("word")
_names, _wider = attrgetter("names"), attrgetter("wider")


def forget_tokens() -> None:
    """Forget the Tokens of the words read so far (they were read with aliases that changed)."""
    _TOKENS.clear()


def tokens(text: str) -> Iterator[list[Token]]:
    """The words of ``text``, run by run (a phrase never crosses a sentence end, a comma or a bracket)."""
    lookup = _TOKENS.__getitem__
    for surfaces in run_surfaces(text):
        yield list(map(lookup, surfaces))


def _phrases_named(chunk: list[Token], starts: dict[str, int]) -> tuple[list[str], set[int]]:
    """Multi-word aliases found in a run (``fully sharded data parallel`` → ``fsdp``) and generic phrases (``pull
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
            if name is not None or words in generic:
                if name is not None and name not in generic:  # "pull request" is "pr": generic too
                    found.append(name)
                covered.update(range(place, place + size))
                break
    return found, covered


def concepts(text: str, named: set[str] | None = None) -> list[str]:
    """Every concept occurrence in ``text``: the terms of its words (and the parts of compound names), and its
    two-word phrases, generic ones left out, then once each the broader concepts they belong to; ``named`` (when
    given) gathers the concepts that are names rather than plain English words."""
    starts, table, wider = phrase_starts(), aliases(), broader()
    no_phrase_starts = starts.keys().isdisjoint
    found: list[str] = []
    read: list[Token] = []  # every word's Token, those inside a multi-word alias or generic phrase blanked
    phrases: list[str] = []
    lookup = _TOKENS.__getitem__
    for surfaces in run_surfaces(text):
        chunk = list(map(lookup, surfaces))
        if not no_phrase_starts(map(_word, chunk)):
            aliased, covered = _phrases_named(chunk, starts)
            found += aliased
            chunk = [Token(None, (), t.surface, t.word) if place in covered else t for place, t in enumerate(chunk)]
        found += chain.from_iterable(map(_emits, chunk))
        read += chunk
        if len(chunk) > 1:
            terms = list(map(_term, chunk))
            pairs = [f"{a} {b}" for a, b in zip(terms, terms[1:], strict=False) if a and b]
            pairs = list(map(table.get, pairs, pairs))
            found += pairs
            phrases += pairs
    families = set(chain.from_iterable(map(_wider, read)))
    families.update(chain.from_iterable(map(wider.get, phrases, repeat(()))))
    if named is not None:
        named.update(chain.from_iterable(map(_names, read)))
    if families:
        found += sorted(families)
        if named is not None:
            named.update(families)
    return found


def surfaces(text: str) -> Iterator[tuple[str, str]]:
    """(concept, how it was written) for the words and phrases of ``text``: what labels are chosen from."""
    table = aliases()
    for chunk in tokens(text):
        previous: Token | None = None
        for tok in chunk:
            if tok.term is None:
                previous = None
                continue
            yield tok.term, tok.surface.strip("_")
            if previous is not None:
                phrase = f"{previous.term} {tok.term}"
                yield table.get(phrase, phrase), f"{previous.surface} {tok.surface}"
            previous = tok

"""The first step of a full relation pass: every item's concepts counted, read from the library in blocks and kept
as flat arrays of numbers (term id, count, in the title), never as one Python object per item."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import field

from earmark.core.records import record
from earmark.core.topics import cleaning, concepts
from earmark.core.topics.corpus import Doc
from earmark.core.topics.vocabulary import family_names

IN_TITLE, NAMED = 1, 2  # flags of an (item, term) entry and of a term


class _Numbers(dict[str, int]):
    """Term → its number in ``vocabulary``: a term met for the first time is numbered and added there (and to
    ``flags``), so a text's terms are numbered by one map() at C speed."""

    def __init__(self, vocabulary: list[str], flags: bytearray) -> None:
        super().__init__((term, number) for number, term in enumerate(vocabulary))
        self.vocabulary, self.flags = vocabulary, flags

    def __missing__(self, term: str) -> int:
        number = self[term] = len(self.vocabulary)
        self.vocabulary.append(term)
        self.flags.append(0)
        return number


@record
class Analysed:
    """What the analysis of every item found: for item ``ids[n]``, its entries are ``terms[starts[n]:starts[n+1]]``
    (term ids) with their ``counts`` and ``flags`` (IN_TITLE); ``vocabulary`` maps ids back to terms, and
    ``term_flags`` says which terms were written as names rather than plain words, or form a whole title (NAMED)."""

    ids: array = field(default_factory=lambda: array("q"))
    starts: array = field(default_factory=lambda: array("q", [0]))
    terms: array = field(default_factory=lambda: array("i"))
    counts: array = field(default_factory=lambda: array("I"))
    flags: array = field(default_factory=lambda: array("B"))
    vocabulary: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)  # term → id (a _Numbers while items are added)
    term_flags: bytearray = field(default_factory=bytearray)
    surfaces: dict[str, Counter[str]] = field(default_factory=dict)
    sample_texts: int = 0  # items still to come whose whole text (not just the title) labels concepts

    def __post_init__(self) -> None:
        self.index = _Numbers(self.vocabulary, self.term_flags)

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, doc: Doc, shared: frozenset[str]) -> None:
        """Count one item's concepts (its title's marked)."""
        named: set[str] = set()
        title = concepts.concepts(doc.title, named)
        body = Counter(concepts.concepts(cleaning.clean(doc.text, shared), named))
        body.update(title)
        number = self.index.__getitem__
        self.terms.extend(map(number, body))
        self.counts.extend(body.values())
        self.flags.extend(map(set(title).__contains__, body))  # True is IN_TITLE
        self.ids.append(doc.id)
        self.starts.append(len(self.terms))
        term_flags = self.term_flags
        for term in named:
            term_flags[number(term)] |= NAMED
        titled = list(dict.fromkeys(title))
        if len(titled) == 1:  # the title is one concept ("vmap", "Strides"): it names a topic
            term_flags[number(titled[0])] |= NAMED
        # Labels come from what the show wrote: a transcript's writing is the speech engine's guess ("reference
        # counting" where the show writes "Reference counting").
        self._surfaces(f"{doc.title}\n{doc.written_text}" if self.sample_texts > 0 else doc.title)
        self.sample_texts -= 1

    def _surfaces(self, text: str) -> None:
        for term, surface in concepts.surfaces(text):
            if term not in self.index:
                continue
            counter = self.surfaces.get(term)
            if counter is None:
                counter = self.surfaces[term] = Counter()
            counter[surface] += 1

    def labels(self) -> dict[str, str]:
        """How each concept is usually written, where that differs from the concept itself."""
        found = {term: name for term, name in family_names().items() if term != name}
        for term, counter in self.surfaces.items():
            label = counter.most_common(1)[0][0]
            if label != term:
                found[term] = label
        return found


    def merge(self, other: Analysed) -> None:
        """Take in another analysis (of items after these), mapping its term ids onto these."""
        import numpy as np

        mapping = np.fromiter(map(self.index.__getitem__, other.vocabulary), dtype=np.int32,
                              count=len(other.vocabulary))
        offset = len(self.terms)
        self.terms.frombytes(mapping[np.frombuffer(other.terms, dtype=np.int32)].tobytes())
        self.counts.extend(other.counts)
        self.flags.extend(other.flags)
        self.ids.extend(other.ids)
        self.starts.frombytes((np.frombuffer(other.starts, dtype=np.int64)[1:] + offset).tobytes())
        flags = np.frombuffer(bytes(other.term_flags), dtype=np.uint8)
        flagged = np.flatnonzero(flags)
        mine = np.frombuffer(self.term_flags, dtype=np.uint8)  # a view: released before the vocabulary grows
        mine[mapping[flagged]] |= flags[flagged]
        del mine
        for term, counter in other.surfaces.items():
            kept = self.surfaces.get(term)
            if kept is None:
                self.surfaces[term] = counter
            else:
                kept.update(counter)


def analyse_block(docs: list[Doc], shared: Callable[[int | None], frozenset[str]], sample_texts: int) -> Analysed:
    """One block of items analysed on its own (``shared``: a source's boilerplate lines; the whole texts of its
    first ``sample_texts`` items label concepts, of the others just the titles)."""
    analysed = Analysed(sample_texts=sample_texts)
    for doc in docs:
        analysed.add(doc, shared(doc.source_id))
    analysed.index = {}  # not needed once done (and not worth sending to another process)
    return analysed

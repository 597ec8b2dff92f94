"""The first step of a full relation pass: every item's concepts counted, read from the library in blocks and kept
as flat arrays of numbers (term id, count, in the title), never as one Python object per item."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from earmark.core.topics import cleaning, concepts
from earmark.core.topics.corpus import Doc
from earmark.core.topics.vocabulary import family_names

IN_TITLE, NAMED = 1, 2  # flags of an (item, term) entry and of a term


@dataclass(slots=True)
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
    index: dict[str, int] = field(default_factory=dict)
    term_flags: bytearray = field(default_factory=bytearray)
    surfaces: dict[str, Counter[str]] = field(default_factory=dict)
    sample_texts: int = 0  # items still to come whose whole text (not just the title) labels concepts

    def __len__(self) -> int:
        return len(self.ids)

    def _id(self, term: str) -> int:
        number = self.index.get(term)
        if number is None:
            number = self.index[term] = len(self.vocabulary)
            self.vocabulary.append(term)
            self.term_flags.append(0)
        return number

    def add(self, doc: Doc, shared: frozenset[str]) -> None:
        """Count one item's concepts (its title's marked)."""
        named: set[str] = set()
        title = concepts.concepts(doc.title, named)
        body = Counter(concepts.concepts(cleaning.clean(doc.text, shared), named))
        body.update(title)
        in_title = set(title)
        index = self.index
        numbers = [index.get(term) for term in body]
        for place, (term, number) in enumerate(zip(body, numbers, strict=True)):
            if number is None:
                numbers[place] = self._id(term)
        self.terms.extend(numbers)
        self.counts.extend(body.values())
        self.flags.extend([IN_TITLE if term in in_title else 0 for term in body])
        self.ids.append(doc.id)
        self.starts.append(len(self.terms))
        for term in named:
            self.term_flags[self.index[term]] |= NAMED
        titled = list(dict.fromkeys(title))
        if len(titled) == 1:  # the title is one concept ("vmap", "Strides"): it names a topic
            self.term_flags[self.index[titled[0]]] |= NAMED
        self._surfaces(f"{doc.title}\n{doc.text}" if self.sample_texts > 0 else doc.title)
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

        index = self.index
        numbers = [index.get(term, -1) for term in other.vocabulary]
        for place, number in enumerate(numbers):
            if number < 0:
                numbers[place] = self._id(other.vocabulary[place])
        mapping = np.asarray(numbers, dtype=np.int32)
        offset = len(self.terms)
        self.terms.frombytes(mapping[np.frombuffer(other.terms, dtype=np.int32)].astype(np.int32).tobytes())
        self.counts.extend(other.counts)
        self.flags.extend(other.flags)
        self.ids.extend(other.ids)
        self.starts.extend(start + offset for start in other.starts[1:])
        for number, flag in enumerate(other.term_flags):
            if flag:
                self.term_flags[int(mapping[number])] |= flag
        for term, counter in other.surfaces.items():
            mine = self.surfaces.get(term)
            if mine is None:
                self.surfaces[term] = counter
            else:
                mine.update(counter)


def analyse_block(docs: list[Doc], shared: Callable[[int | None], frozenset[str]], sample_texts: int) -> Analysed:
    """One block of items analysed on its own (``shared``: a source's boilerplate lines; the whole texts of its
    first ``sample_texts`` items label concepts, of the others just the titles)."""
    analysed = Analysed(sample_texts=sample_texts)
    for doc in docs:
        analysed.add(doc, shared(doc.source_id))
    analysed.index = {}  # not needed once done (and not worth sending to another process)
    return analysed

"""The first step of a full relation pass: every item's concepts counted, read from the library in blocks and kept
as flat arrays of numbers (term id, count, in the title), never as one Python object per item."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from earmark.core.topics import concepts, phrases
from earmark.core.topics.corpus import Doc

LABEL_SAMPLE = 400  # items whose wording decides how a concept is shown (``CUDA graphs`` for ``cuda graph``)
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
        body = Counter(concepts.concepts(phrases.clean(doc.text, shared), named))
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
        if len(self.ids) <= LABEL_SAMPLE:
            self._surfaces(f"{doc.title}\n{doc.text}")
        else:
            self._surfaces(doc.title)

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
        found = {}
        for term, counter in self.surfaces.items():
            label = counter.most_common(1)[0][0]
            if label != term:
                found[term] = label
        return found


def analyse(blocks: Iterable[list[Doc]], shared: Callable[[int | None], frozenset[str]],
            on_block: Callable[[list[Doc]], None] | None = None) -> Analysed:
    """Analyse items block by block (``shared``: a source's boilerplate lines); ``on_block`` sees each block
    once analysed (to store its links, report progress, or stop)."""
    analysed = Analysed()
    for block in blocks:
        for doc in block:
            analysed.add(doc, shared(doc.source_id))
        if on_block is not None:
            on_block(block)
    return analysed

"""Text vectors: TF-IDF over key phrases, kept to each item's strongest terms (its topics come first).

The full build uses scikit-learn's TfidfVectorizer (imported only here, when relations are worked out in full);
a single new item is weighted with the term counts stored by the last full build, in plain Python, with the
same formula (smoothed idf, sublinear tf, unit length).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from earmark.core.topics import phrases
from earmark.core.topics.corpus import Doc

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

# An item's vector keeps its strongest terms only (shared common words add noise and cost): TERMS_PER_ITEM, or
# twice the square root of its distinct terms for long articles, up to MAX_TERMS_PER_ITEM.
TERMS_PER_ITEM, MAX_TERMS_PER_ITEM = 24, 64
TOPICS_PER_ITEM = 8  # the topics an item is listed under: its strongest terms that name topics
TOPICS_COMPARED = 16  # the topics two items' shared topics are looked for in
MAX_SHARE = 0.5  # a term in more than this share of the items says nothing about any of them
MIN_ITEMS_FOR_MAX_SHARE = 10


@dataclass(slots=True)
class Vectors:
    """Each item's kept terms as a sparse matrix (rows: ``ids``; columns: ``vocabulary``; rows of unit length),
    the number of items that have each term, how each term is usually written, and which terms name topics."""

    ids: list[int]
    matrix: csr_matrix
    vocabulary: list[str]
    counts: dict[str, int]
    labels: dict[str, str]
    total: int
    topical: frozenset[str] = frozenset()


LABEL_SAMPLE = 300  # items whose wording decides how a term is shown (``cuda graphs`` for ``cuda graph``)


def _analyzed(docs: list[Doc], shared: dict[int, frozenset[str]]) -> tuple[list[list[str]], dict[str, str]]:
    texts = [doc.phrase_text(shared.get(doc.source_id or -1, frozenset())) for doc in docs]
    surfaces: dict[str, Counter[str]] = {}
    for text in texts[:LABEL_SAMPLE]:
        for term, surface in phrases.phrases(text):
            if term not in surfaces:
                surfaces[term] = Counter()
            surfaces[term][surface] += 1
    labels = {term: label for term, counter in surfaces.items() if (label := counter.most_common(1)[0][0]) != term}
    return [phrases.terms(text) for text in texts], labels


def is_topical(term: str, title_words: frozenset[str]) -> bool:
    """Whether a term can name a topic: a phrase of two or more words, a word that some item's title uses, or a
    technical word (with a digit, dot or underscore). Plain words like "practical" or "turns" cannot."""
    return " " in term or term in title_words or any(c.isdigit() or c in "._" for c in term)


def title_words(titles: list[str]) -> frozenset[str]:
    """The single-word terms of every title."""
    return frozenset(term for title in titles for term in phrases.terms(title) if " " not in term)


def build_vectors(docs: list[Doc], shared: dict[int, frozenset[str]]) -> Vectors:
    """Vectors for every item of ``docs`` (``shared``: each source's boilerplate lines)."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer

    analyzed, labels = _analyzed(docs, shared)
    max_df = MAX_SHARE if len(docs) >= MIN_ITEMS_FOR_MAX_SHARE else 1.0
    vectorizer = TfidfVectorizer(analyzer=lambda terms: terms, min_df=2, max_df=max_df, sublinear_tf=True,
                                 dtype=np.float32)
    try:
        matrix = vectorizer.fit_transform(analyzed).tocsr()
    except ValueError:  # no term is shared by two items (or every term is in too many)
        return Vectors([doc.id for doc in docs], _empty(len(docs)), [], {}, labels, len(docs))
    vocabulary = list(vectorizer.get_feature_names_out())
    counts = np.bincount(matrix.indices, minlength=len(vocabulary))
    in_titles = title_words([doc.title for doc in docs])
    return Vectors([doc.id for doc in docs], _strongest(matrix), vocabulary,
                   {term: int(count) for term, count in zip(vocabulary, counts, strict=True)},
                   {term: labels[term] for term in vocabulary if term in labels}, len(docs),
                   frozenset(term for term in vocabulary if is_topical(term, in_titles)))


def kept_terms(distinct: int) -> int:
    """How many of its ``distinct`` terms an item's vector keeps."""
    return min(MAX_TERMS_PER_ITEM, max(TERMS_PER_ITEM, int(2 * math.sqrt(distinct))))


def _empty(rows: int) -> csr_matrix:
    from scipy.sparse import csr_matrix

    return csr_matrix((rows, 0), dtype="float32")


def _strongest(matrix: csr_matrix) -> csr_matrix:
    """Each row cut to its TERMS_PER_ITEM largest entries, sorted strongest first, and scaled to unit length."""
    import numpy as np
    from scipy.sparse import csr_matrix

    indptr = [0]
    indices: list[np.ndarray] = []
    data: list[np.ndarray] = []
    for row in range(matrix.shape[0]):
        start, end = matrix.indptr[row], matrix.indptr[row + 1]
        values, columns = matrix.data[start:end], matrix.indices[start:end]
        order = np.argsort(-values, kind="stable")[:kept_terms(len(values))]
        kept = values[order]
        norm = float(np.sqrt(np.dot(kept, kept))) or 1.0
        indices.append(columns[order])
        data.append(kept / norm)
        indptr.append(indptr[-1] + len(order))
    return csr_matrix((np.concatenate(data) if data else np.zeros(0, np.float32),
                       np.concatenate(indices) if indices else np.zeros(0, np.int32), indptr),
                      shape=matrix.shape, dtype=np.float32)


def weigh(found: Counter[str], counts: dict[str, int], total: int) -> list[tuple[str, float]]:
    """One item's kept terms and weights, strongest first, from its term frequencies ``found`` and the stored
    ``counts`` of ``total`` items: the vector a full build would have given it (terms no two items shared at the
    last full build are left out, as there)."""
    weights = {term: (1.0 + math.log(tf)) * (math.log((1 + total) / (1 + counts[term])) + 1.0)
               for term, tf in found.items() if term in counts}
    norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
    kept = sorted(((term, w / norm) for term, w in weights.items()),
                  key=lambda tw: (-tw[1], tw[0]))[:kept_terms(len(weights))]
    length = math.sqrt(sum(w * w for _term, w in kept)) or 1.0
    return [(term, w / length) for term, w in kept]

"""Text vectors: TF-IDF over concepts, kept to each item's strongest terms, with concepts named in the title and
specific concepts weighing more (specific: not a plain English word, nor in more than a fifth of the items).
Worked out with numpy over the flat arrays of the analysis; a single new item is weighed in plain Python with the
counts stored by the last full pass and the same formula (smoothed idf, sublinear tf, unit length)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from earmark.core.records import record
from earmark.core.topics.analysis import IN_TITLE, NAMED, Analysed

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

# An item's vector keeps its strongest terms only (shared common words add noise and cost): TERMS_PER_ITEM, or
# twice the square root of its distinct terms for long articles, up to MAX_TERMS_PER_ITEM.
TERMS_PER_ITEM, MAX_TERMS_PER_ITEM = 24, 48
TOPICS_PER_ITEM = 8  # the topics an item is listed under: its strongest specific concepts
MAX_SHARE = 0.5  # a term in more than this share of the items says nothing about any of them
MIN_ITEMS_FOR_MAX_SHARE = 10
SPECIFIC_SHARE = 0.2  # a concept in more items than this share is too broad to say why two of them are related
TITLE_BOOST = 2.0  # a concept the title names is what the item is about
SPECIFIC_BOOST = 2.0  # a phrase or a technical name says more than a plain word
ROW_BLOCK = 5000  # items weighed at once


@record
class Vectors:
    """Each item's kept terms as a sparse matrix (rows: ``ids``; columns: ``vocabulary``; rows of unit length,
    their terms strongest first), how many items have each term (``counts``), which terms are specific enough to
    name a relation, and how terms are usually written."""

    ids: np.ndarray
    matrix: csr_matrix
    vocabulary: list[str]
    counts: np.ndarray
    specific: np.ndarray
    labels: dict[str, str]
    total: int
    titles: csr_matrix  # each row's specific concepts named in its title (rows of unit length)


def term_weight(count: int, items: int, total: int, in_title: bool, specific: bool) -> float:
    """One term's TF-IDF weight in an item, before the item's vector is cut and scaled (the full pass works the
    same formula out with numpy)."""
    weight = (1.0 + math.log(count)) * (math.log((1 + total) / (1 + items)) + 1.0)
    return weight * (TITLE_BOOST if in_title else 1.0) * (SPECIFIC_BOOST if specific else 1.0)


def kept_terms(distinct: int) -> int:
    """How many of its ``distinct`` terms an item's vector keeps."""
    return min(MAX_TERMS_PER_ITEM, max(TERMS_PER_ITEM, int(2 * math.sqrt(max(distinct, 0)))))


def build_vectors(analysed: Analysed) -> Vectors:
    """Every analysed item's vector."""
    import numpy as np
    from scipy.sparse import csr_matrix

    total = len(analysed)
    starts = np.frombuffer(analysed.starts, dtype=np.int64)
    terms = np.frombuffer(analysed.terms, dtype=np.int32)
    counts = np.frombuffer(analysed.counts, dtype=np.uint32)
    flags = np.frombuffer(analysed.flags, dtype=np.uint8)
    items = np.bincount(terms, minlength=len(analysed.vocabulary))
    ceiling = MAX_SHARE * total if total >= MIN_ITEMS_FOR_MAX_SHARE else total
    usable = (items >= 2) & (items <= ceiling)
    term_flags = np.frombuffer(bytes(analysed.term_flags), dtype=np.uint8)
    phrase = np.fromiter((" " in term for term in analysed.vocabulary), dtype=bool, count=len(analysed.vocabulary))
    specific = phrase | ((term_flags & NAMED) > 0)
    if total >= MIN_ITEMS_FOR_MAX_SHARE:
        specific &= items <= SPECIFIC_SHARE * total
    idf = (np.log((1.0 + total) / (1.0 + items)) + 1.0).astype(np.float32)
    factor = idf * np.where(specific, np.float32(SPECIFIC_BOOST), np.float32(1.0)) * usable
    parts = [_strongest(start, min(total, start + ROW_BLOCK), starts, terms, counts, flags, factor)
             for start in range(0, total, ROW_BLOCK)]
    rows = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
    columns = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, np.int32)
    weights = np.concatenate([p[2] for p in parts]) if parts else np.zeros(0, np.float32)
    titled = np.concatenate([p[3] for p in parts]) if parts else np.zeros(0, bool)
    del parts
    kept = np.unique(columns)  # the vocabulary is cut to the terms some vector keeps
    remap = np.full(len(analysed.vocabulary), -1, dtype=np.int32)
    remap[kept] = np.arange(len(kept), dtype=np.int32)
    indptr = np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=total)))).astype(np.int64)
    matrix = csr_matrix((weights, remap[columns], indptr), shape=(total, len(kept)), dtype=np.float32)
    titled &= specific[columns]
    in_title = np.bincount(rows[titled], minlength=total).astype(np.float32)
    titles = csr_matrix((1.0 / np.sqrt(in_title[rows[titled]]), (rows[titled], remap[columns[titled]])),
                        shape=(total, len(kept)), dtype=np.float32)
    vocabulary = [analysed.vocabulary[number] for number in kept.tolist()]
    wanted = set(vocabulary)
    labels = {term: label for term, label in analysed.labels().items() if term in wanted}
    return Vectors(np.frombuffer(analysed.ids, dtype=np.int64).copy(), matrix, vocabulary, items[kept],
                   specific[kept], labels, total, titles)


def _strongest(first_row: int, end_row: int, starts: np.ndarray, terms: np.ndarray, counts: np.ndarray,
               flags: np.ndarray, factor: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows ``first_row``..``end_row``: each row's kept_terms strongest entries (weight above 0), strongest first,
    scaled to unit length, and whether the title names them (a block at a time: the work arrays stay small)."""
    import numpy as np

    lo, hi = int(starts[first_row]), int(starts[end_row])
    columns = terms[lo:hi]
    weights = (1.0 + np.log(counts[lo:hi].astype(np.float32))) * factor[columns]
    titled = (flags[lo:hi] & IN_TITLE) > 0
    weights[titled] *= np.float32(TITLE_BOOST)
    rows = np.repeat(np.arange(first_row, end_row, dtype=np.int64), np.diff(starts[first_row:end_row + 1]))
    # Row, then weight descending, ties in entry order (as a lexsort): one stable sort of a 64-bit key, the row
    # above a weight's bits inverted (the bits of a float that is not negative order as the float does).
    bits = weights.astype(np.float32, copy=False).view(np.int32)
    order = np.argsort(((rows - first_row) << 32) | (0x7FFFFFFF - bits).astype(np.int64), kind="stable")
    rows, columns, weights, titled = rows[order], columns[order], weights[order], titled[order]
    live = weights > 0
    rows, columns, weights, titled = rows[live], columns[live], weights[live], titled[live]
    local = rows - first_row
    per_row = np.bincount(local, minlength=end_row - first_row)
    first = np.concatenate(([0], np.cumsum(per_row)[:-1]))
    rank = np.arange(len(rows)) - first[local]
    limit = np.minimum(MAX_TERMS_PER_ITEM, np.maximum(TERMS_PER_ITEM, (2 * np.sqrt(per_row)).astype(np.int64)))
    keep = rank < limit[local]
    rows, columns, weights, titled = rows[keep], columns[keep], weights[keep], titled[keep]
    norms = np.sqrt(np.bincount(rows - first_row, weights=weights.astype(np.float64) ** 2,
                                minlength=end_row - first_row))
    norms[norms == 0] = 1.0
    return rows, columns, (weights / norms[rows - first_row]).astype(np.float32), titled


def weigh(found: dict[str, int], in_title: Iterable[str], stored: dict[str, tuple[int, bool]], total: int
          ) -> list[tuple[str, float]]:
    """One item's kept terms and weights, strongest first, from its term frequencies ``found`` and the ``stored``
    (items, specific) of ``total`` items at the last full pass: the vector a full pass would have given it (terms
    that pass did not keep are left out, as there)."""
    titled = set(in_title)
    weights = {term: term_weight(count, stored[term][0], total, term in titled, stored[term][1])
               for term, count in found.items() if term in stored}
    kept = sorted(weights.items(), key=lambda tw: (-tw[1], tw[0]))[:kept_terms(len(found))]
    length = math.sqrt(sum(w * w for _term, w in kept)) or 1.0
    return [(term, w / length) for term, w in kept]

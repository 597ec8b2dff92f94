"""Each item's most similar items without comparing all pairs: an item's strongest terms meet each term's strongest
items only (capped posting lists, the floor), in blocks of rows of a sparse product; the candidates found are then
scored exactly (cosine over the whole vectors, and over the specific concepts alone)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from earmark.core.records import record

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

QUERY_TERMS = 16  # an item looks for neighbours through its strongest terms
POSTINGS = 128  # each term leads to its strongest items only: a term shared by thousands says little
CANDIDATES = 30  # the most promising items of each row, scored exactly


@record
class Pairs:
    """Candidate pairs of one block of rows: ``rows[n]`` and ``others[n]`` (row numbers) with their cosine over
    the whole vectors and over the specific concepts alone."""

    rows: np.ndarray
    others: np.ndarray
    cosine: np.ndarray
    specific: np.ndarray  # over the strongest QUERY_TERMS terms of each (those the library keeps: the reasons)
    mentions: np.ndarray  # how much either names the other's title concepts


class Neighbours:
    """Finds candidate pairs block by block for a matrix of unit-length rows whose terms are sorted strongest
    first; ``specific`` marks the columns that are specific concepts."""

    def __init__(self, matrix: csr_matrix, specific: np.ndarray, titles: csr_matrix) -> None:
        import numpy as np
        from scipy.sparse import csr_matrix

        self.matrix = matrix
        self.titles = titles
        self.specific = specific.astype(np.float32)
        self.queries = _first_terms(matrix, QUERY_TERMS)
        postings = matrix.tocsc()
        column = np.repeat(np.arange(postings.shape[1]), np.diff(postings.indptr))
        order = np.lexsort((-postings.data, column))
        rank = np.arange(postings.nnz) - postings.indptr[column[order]]
        postings.data[order[rank >= POSTINGS]] = 0.0
        postings.eliminate_zeros()
        self.postings_t: csr_matrix = csr_matrix(postings.T)

    def block(self, start: int, end: int, extra: dict[int, set[int]]) -> Pairs:
        """Candidate pairs for rows ``start``..``end``, including the ``extra`` ones (row → rows) that are related
        in other ways (citations, series, rare tags) whatever their texts say."""
        import numpy as np

        product = (self.queries[start:end] @ self.postings_t).tocsr()
        rows: list[np.ndarray] = []
        others: list[np.ndarray] = []
        for offset in range(end - start):
            row = start + offset
            lo, hi = product.indptr[offset], product.indptr[offset + 1]
            columns, values = product.indices[lo:hi], product.data[lo:hi]
            if len(values) > CANDIDATES + 1:
                columns = columns[np.argpartition(-values, CANDIDATES)[:CANDIDATES + 1]]
            wanted = extra.get(row)
            if wanted:
                columns = np.union1d(columns, np.fromiter(wanted, dtype=columns.dtype, count=len(wanted)))
            columns = columns[columns != row]
            rows.append(np.full(len(columns), row, dtype=np.int64))
            others.append(columns.astype(np.int64))
        pair_rows = np.concatenate(rows) if rows else np.zeros(0, np.int64)
        pair_others = np.concatenate(others) if others else np.zeros(0, np.int64)
        if len(pair_rows) == 0:
            empty = np.zeros(0, np.float32)
            return Pairs(pair_rows, pair_others, empty, empty, empty)
        mine, theirs = self.matrix[pair_rows], self.matrix[pair_others]
        products = mine.multiply(theirs).tocsr()
        strongest = self.queries[pair_rows].multiply(self.queries[pair_others]).tocsr()
        mentions = np.maximum(_sums(mine.multiply(self.titles[pair_others])),
                              _sums(self.titles[pair_rows].multiply(theirs)))
        return Pairs(pair_rows, pair_others, _sums(products),
                     np.asarray(strongest @ self.specific, dtype=np.float32).ravel(), mentions)


def _first_terms(matrix: csr_matrix, count: int) -> csr_matrix:
    """Each row cut to its first ``count`` entries (its strongest terms: rows are sorted strongest first)."""
    import numpy as np
    from scipy.sparse import csr_matrix

    lengths = np.minimum(np.diff(matrix.indptr), count)
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    positions = np.repeat(matrix.indptr[:-1], lengths) + (np.arange(indptr[-1]) - np.repeat(indptr[:-1], lengths))
    return csr_matrix((matrix.data[positions], matrix.indices[positions], indptr), shape=matrix.shape)


def _sums(matrix: csr_matrix) -> np.ndarray:
    """Each row's sum."""
    import numpy as np

    return np.asarray(matrix.sum(axis=1), dtype=np.float32).ravel()

"""The full relation pass: read and analyse every item in blocks (storing its links as it goes), weigh the vectors,
then find, score and store each block of items' related items, each block in a short transaction of its own.
Stopping it at any point (an exception, SIGTERM) leaves every stored item consistent: what was not reached keeps
its last relations and stays to be worked out."""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import field

from earmark.core.db import relation_pass
from earmark.core.db import relations as store
from earmark.core.db.database import Database
from earmark.core.plurals import counted
from earmark.core.records import record
from earmark.core.topics.analysis import Analysed
from earmark.core.topics.analysis_pool import analyse_library
from earmark.core.topics.corpus import all_boilerplate
from earmark.core.topics.library_ties import rare_tag_partners, read_ties, tag_matrix
from earmark.core.topics.neighbours import QUERY_TERMS, Neighbours
from earmark.core.topics.scoring import MENTION_BONUS, SERIES_BONUS, SMALL_TAG, Ties, best, kept, tag_bonus
from earmark.core.topics.vectors import Vectors, build_vectors

Progress = Callable[[float, str], None]
PAIR_BLOCK = 2000  # items whose related items are found at once
WRITE_ITEMS = 500  # items whose terms and relations are stored in one transaction
TERMS_STORED = QUERY_TERMS  # an item's strongest terms kept in the library (its reasons, topics, new items' matches)
ANALYSIS_SHARE = 0.6  # of the progress bar
# How the pass's connection writes: foreign keys off (rows of items deleted meanwhile are dropped at the end), and
# a larger page cache (the term index grows by inserts in term order).
WRITE_SETTINGS = {"foreign_keys": 0, "cache_size": -65536}  # see relation_pass.pragmas


@record
class PassResult:
    """What a full pass did, and how long each step took (for the benchmark)."""

    items: int
    relations: int = 0
    terms: int = 0
    seconds: dict[str, float] = field(default_factory=dict)


def _quiet(_share: float, _what: str) -> None:
    return None


def full_pass(db: Database, progress: Progress = _quiet) -> PassResult:
    """Work out and store every item's terms, links and related items."""
    clock = _Clock()
    seq = store.dirty_seq(db)
    total = int(db.execute("SELECT count(*) FROM items").fetchone()[0])
    progress(0.0, f"Reading {counted(total, 'item')}")
    shared = all_boilerplate(db)
    series: dict[int, str] = {}
    sources: dict[int, int | None] = {}
    with relation_pass.pragmas(db, **WRITE_SETTINGS):
        analysed = Analysed()
        for facts in analyse_library(db, shared):
            analysed.merge(facts.analysed)
            relation_pass.replace_links(db, facts.first, facts.last, facts.links, facts.keys, facts.concepts)
            for item_id, (name, source_id) in facts.series.items():
                series[item_id] = name
                sources[item_id] = source_id
            progress(ANALYSIS_SHARE * len(analysed) / max(total, 1), f"Reading items: {len(analysed):,} of {total:,}")
        clock.lap("analysis")
        vectors = build_vectors(analysed)
        del analysed
        clock.lap("vectors")
        result = _relate(db, vectors, read_ties(db, series, sources), progress, clock)
        relation_pass.finish(db, ((term, int(count), vectors.labels.get(term), bool(specific)) for term, count, specific
                                  in zip(vectors.vocabulary, vectors.counts.tolist(), vectors.specific.tolist(),
                                         strict=True)), vectors.ids.tolist(), seq)
        clock.lap("finish")
    result.seconds = clock.seconds
    return result


def _relate(db: Database, vectors: Vectors, ties: Ties, progress: Progress,
            clock: _Clock) -> PassResult:
    """Find, score and store the related items of every row, a block at a time."""
    import numpy as np

    ids = vectors.ids
    rows_of = {int(item_id): row for row, item_id in enumerate(ids.tolist())} if len(ids) else {}
    extra: dict[int, set[int]] = {}
    for partners in (ties.partners(), rare_tag_partners(db, SMALL_TAG)):
        for item_id, others in partners.items():
            row = rows_of.get(item_id)
            if row is not None:
                extra.setdefault(row, set()).update(rows_of[o] for o in others if o in rows_of)
    cites = np.zeros(len(ids), dtype=bool)  # rows with citations (or, with podrolls, every row): scored in Python
    cites[[rows_of[a] for a, _b in ties.citations if a in rows_of]] = True
    if ties.podroll:
        podcasts = {source for pair in ties.podroll for source in pair}
        cites |= np.fromiter((ties.sources.get(i) in podcasts for i in ids.tolist()), dtype=bool, count=len(ids))
    series = ties.series_numbers(ids.tolist())
    tags = tag_matrix(db, ids)
    neighbours = Neighbours(vectors.matrix, vectors.specific, vectors.titles)
    relation_pass.drop_indexes(db)  # made again, sorted once, by relation_pass.finish
    clock.lap("candidates set up")
    result = PassResult(items=len(ids))
    for start in range(0, len(ids), PAIR_BLOCK):
        end = min(len(ids), start + PAIR_BLOCK)
        pairs = neighbours.block(start, end, extra)
        bonus = tag_bonus(tags, pairs.rows, pairs.others)
        same = series[pairs.rows]
        bonus += np.where((same >= 0) & (same == series[pairs.others]), np.float32(SERIES_BONUS), np.float32(0.0))
        reasons: dict[int, list[str]] = {}
        for place in np.flatnonzero(cites[pairs.rows]).tolist():
            a, b = int(ids[pairs.rows[place]]), int(ids[pairs.others[place]])
            extra_score, why = ties.bonus(a, b)
            if why:
                bonus[place] += extra_score - (SERIES_BONUS if ties.same_series(a, b) else 0.0)  # added above
                reasons[place] = why
        scores = pairs.cosine + MENTION_BONUS * pairs.mentions + bonus
        keep = kept(pairs.cosine, pairs.specific, bonus)
        places = np.arange(len(scores))
        rows, chosen, _scores = best(pairs.rows, places, scores, keep)
        relations = [(int(ids[row]), int(ids[pairs.others[place]]), float(scores[place]), reasons.get(place))
                     for row, place in zip(rows.tolist(), chosen.tolist(), strict=True)]
        terms = list(_terms(vectors, start, end))
        _store(db, ids[start:end].tolist(), terms, relations)
        result.relations += len(relations)
        result.terms += len(terms)
        progress(ANALYSIS_SHARE + (1 - ANALYSIS_SHARE) * end / len(ids), f"Relating items: {end:,} of {len(ids):,}")
    clock.lap("relations")
    return result


def _store(db: Database, item_ids: list[int], terms: list[tuple[int, str, float, int]],
           relations: list[tuple[int, int, float, list[str] | None]]) -> None:
    """Store a block's terms and relations (both in item order), WRITE_ITEMS items a transaction: the window's
    own writes never wait long behind the pass."""
    term_keys = [row[0] for row in terms]
    relation_keys = [row[0] for row in relations]
    for start in range(0, len(item_ids), WRITE_ITEMS):
        part = item_ids[start:start + WRITE_ITEMS]
        first, last = part[0], part[-1]
        relation_pass.replace_block(
            db, part, terms[bisect_left(term_keys, first):bisect_right(term_keys, last)],
            relations[bisect_left(relation_keys, first):bisect_right(relation_keys, last)])


def _terms(vectors: Vectors, start: int, end: int) -> list[tuple[int, str, float, int]]:
    """The stored terms of rows ``start``..``end``: (item, term, weight, rank)."""
    matrix, vocabulary = vectors.matrix, vectors.vocabulary
    found = []
    for row in range(start, end):
        lo = matrix.indptr[row]
        hi = min(matrix.indptr[row + 1], lo + TERMS_STORED)
        item_id = int(vectors.ids[row])
        found += [(item_id, vocabulary[column], weight, rank) for rank, (column, weight)
                  in enumerate(zip(matrix.indices[lo:hi].tolist(), matrix.data[lo:hi].tolist(), strict=True))]
    return found


class _Clock:
    """Seconds spent in each step."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.seconds[name] = now - self._last
        self._last = now

"""Working out relations: in full (vectors of every item, all pairs compared in sparse blocks) or for a few new
or changed items (against the stored term index), and choosing which of the two an update needs."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import sqlite_utils

from earmark.core.db import relations as store
from earmark.core.db.connection import write_transaction
from earmark.core.topics import citations, phrases
from earmark.core.topics.corpus import Doc, boilerplate_of, item_tags, read_docs, source_boilerplate
from earmark.core.topics.scoring import RELATED_PER_ITEM, Context, citation_reasons, strongest
from earmark.core.topics.vectors import TOPICS_COMPARED, Vectors, build_vectors, weigh

Progress = Callable[[float, str], None]
CANDIDATES = RELATED_PER_ITEM + 10  # most similar texts scored per item
SMALL_TAG = 50  # items sharing a tag this rare are scored even when their texts differ
BLOCK = 1000  # rows of the similarity matrix worked out at once
INCREMENTAL_LIMIT = 200  # more pending items than this (or than a fifth of the library): build in full


@dataclass(slots=True)
class UpdateResult:
    """What an update of the relations did."""

    items: int  # items worked out
    full: bool


def _no_progress(_share: float, _what: str) -> None:
    return None


def compute_build(db: sqlite_utils.Database, progress: Progress = _no_progress) -> store.GraphBuild:
    """Work out every item's terms, links and related items (reads only: the result is stored by store_build)."""
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    seq = store.dirty_seq(db)
    progress(0.0, "Reading the library")
    docs = read_docs(db)
    shared = source_boilerplate(docs)
    seconds["read"] = time.perf_counter() - started
    progress(0.1, "Finding key phrases")
    vectors = build_vectors(docs, shared)
    seconds["vectors"] = time.perf_counter() - started - sum(seconds.values())
    links = [(doc.id, target, how) for doc in docs
             for target, how in citations.item_links(doc.markup, doc.text, doc.remote_items)]
    keys = [(key, doc.id) for doc in docs
            for key in citations.item_keys(doc.title, doc.url, doc.enclosure_url, doc.guid)]
    context = _context(db, docs, vectors, links, keys)
    seconds["citations"] = time.perf_counter() - started - sum(seconds.values())
    progress(0.5, "Comparing items")
    relations = _all_relations(vectors, context, progress)
    seconds["relations"] = time.perf_counter() - started - sum(seconds.values())
    terms = [(item_id, vectors.vocabulary[column], float(weight), rank)
             for row, item_id in enumerate(vectors.ids)
             for rank, (column, weight) in enumerate(_row(vectors, row))]
    counts = [(term, count, vectors.labels.get(term), term in vectors.topical)
              for term, count in vectors.counts.items()]
    return store.GraphBuild([doc.id for doc in docs], terms, counts, links, keys, relations, vectors.total, seq,
                            seconds)


def _row(vectors: Vectors, row: int) -> list[tuple[int, float]]:
    matrix = vectors.matrix
    start, end = matrix.indptr[row], matrix.indptr[row + 1]
    return list(zip(matrix.indices[start:end].tolist(), matrix.data[start:end].tolist(), strict=True))


def _context(db: sqlite_utils.Database, docs: list[Doc], vectors: Vectors, links: list[tuple[int, str, str]],
             keys: list[tuple[str, int]]) -> Context:
    by_key: dict[str, set[int]] = {}
    for key, item_id in keys:
        by_key.setdefault(key, set()).add(item_id)
    resolved = {(item_id, cited, how) for item_id, target, how in links for cited in by_key.get(target, ())
                if cited != item_id}
    tags = item_tags(db)
    context = Context(total=len(docs), tags=tags, tag_counts=Counter(t for names in tags.values() for t in names),
                      labels=vectors.labels, citations=citation_reasons(resolved),
                      sources={doc.id: doc.source_id for doc in docs}, podroll=_podroll(db))
    for row, item_id in enumerate(vectors.ids):
        topical = [(term, weight) for column, weight in _row(vectors, row)
                   if (term := vectors.vocabulary[column]) in vectors.topical]
        context.topics[item_id] = dict(topical[:TOPICS_COMPARED])
    return context


def _podroll(db: sqlite_utils.Database) -> set[tuple[int, int]]:
    """Pairs of sources (both ways) where one recommends the other in its podcast:podroll."""
    sources = db.execute("SELECT id, podcast_guid, url, podroll FROM sources").fetchall()
    by_key = {}
    for source_id, guid, url, _podroll in sources:
        for key in (f"guid:{guid}" if guid else None, citations.url_key(url)):
            if key:
                by_key[key] = source_id
    pairs = set()
    for source_id, _guid, _url, podroll in sources:
        for key in citations.podroll_targets(podroll):
            other = by_key.get(key)
            if other is not None and other != source_id:
                pairs |= {(source_id, other), (other, source_id)}
    return pairs


def _all_relations(vectors: Vectors, context: Context, progress: Progress) -> list[store.RelationRow]:
    """Each item's strongest related items: the most similar texts in blocks of the sparse product, plus the
    items it cites or is cited by and those sharing a rare tag."""
    import numpy as np

    ids = vectors.ids
    extra: dict[int, set[int]] = {}
    for a, b in context.citations:
        extra.setdefault(a, set()).add(b)
    by_tag: dict[str, list[int]] = {}
    for item_id, names in context.tags.items():
        for name in names:
            if context.tag_counts[name] <= SMALL_TAG:
                by_tag.setdefault(name, []).append(item_id)
    for members in by_tag.values():
        for item_id in members:
            extra.setdefault(item_id, set()).update(members)
    position = {item_id: row for row, item_id in enumerate(ids)}
    matrix = vectors.matrix
    transposed = matrix.T.tocsr()
    result: list[store.RelationRow] = []
    for start in range(0, len(ids), BLOCK):
        block = (matrix[start:start + BLOCK] @ transposed).tocsr()
        for offset in range(block.shape[0]):
            row = start + offset
            item_id = ids[row]
            lo, hi = block.indptr[offset], block.indptr[offset + 1]
            columns, values = block.indices[lo:hi], block.data[lo:hi]
            wanted = [position[o] for o in extra.get(item_id, ()) if o in position]
            everything = dict(zip(columns.tolist(), values.tolist(), strict=True)) if wanted else {}
            if len(values) > CANDIDATES + 1:
                top = np.argpartition(-values, CANDIDATES)[:CANDIDATES + 1]
                columns, values = columns[top], values[top]
            cosine = {ids[c]: float(v) for c, v in zip(columns.tolist(), values.tolist(), strict=True)}
            cosine.update((ids[c], float(everything.get(c, 0.0))) for c in wanted if ids[c] not in cosine)
            cosine.pop(item_id, None)
            best = strongest((other, *context.score(item_id, other, value)) for other, value in cosine.items())
            result += [(item_id, other, score, reasons) for other, score, reasons in best]
        progress(0.5 + 0.5 * min(1.0, (start + BLOCK) / max(1, len(ids))), "Comparing items")
    return result


def index_items(db: sqlite_utils.Database, item_ids: list[int]) -> UpdateResult:
    """Work out the terms, links and relations of a few new or changed items against the stored index, leaving
    every other item's stored vector as it is (one transaction)."""
    with write_transaction(db):
        total = int(store.state(db, "total") or 0)
        docs = read_docs(db, item_ids)
        tags = item_tags(db)
        tag_counts = Counter(t for names in tags.values() for t in names)
        podroll = _podroll(db)
        for doc in docs:
            _index_one(db, doc, total, tags, tag_counts, podroll)
    return UpdateResult(len(docs), full=False)


def _index_one(db: sqlite_utils.Database, doc: Doc, total: int, tags: dict[int, frozenset[str]],
               tag_counts: Counter[str], podroll: set[tuple[int, int]]) -> None:
    found = Counter(phrases.terms(doc.phrase_text(boilerplate_of(db, doc.source_id))))
    weighted = weigh(found, store.term_counts(db, found), total)
    store.replace_item(db, doc.id, [(doc.id, term, weight, rank) for rank, (term, weight) in enumerate(weighted)],
                       citations.item_links(doc.markup, doc.text, doc.remote_items),
                       citations.item_keys(doc.title, doc.url, doc.enclosure_url, doc.guid))
    cosine = dict(store.similar_by_terms(db, weighted, doc.id, CANDIDATES))
    cited = store.citations_of(db, doc.id)
    partners = {b for a, b, _how in cited} | {a for a, b, _how in cited}
    mine = tags.get(doc.id, frozenset())
    rare = [name for name in mine if tag_counts[name] <= SMALL_TAG]
    partners |= {item_id for item_id, names in tags.items() if names & set(rare)}
    partners.discard(doc.id)
    for other in partners - cosine.keys():
        cosine[other] = 0.0
    sources = dict(db.execute(f"SELECT id, source_id FROM items WHERE id IN ({','.join('?' * (len(cosine) + 1))})",
                              [doc.id, *cosine]).fetchall())
    topics = store.topics_of(db, [doc.id, *cosine], TOPICS_COMPARED)
    context = Context(total=max(total, 1), tags=tags, tag_counts=tag_counts, topics=topics,
                      labels=store.labels(db, {t for terms in topics.values() for t in terms}),
                      citations=citation_reasons(cited), sources=sources, podroll=podroll)
    best = strongest((other, *context.score(doc.id, other, value)) for other, value in cosine.items())
    rows: list[store.RelationRow] = [(doc.id, other, score, reasons) for other, score, reasons in best]
    for other, _score, _reasons in best:
        score, reasons = context.score(other, doc.id, cosine[other])
        rows.append((other, doc.id, score, reasons))
    store.add_relations(db, doc.id, rows, RELATED_PER_ITEM)


def needs_full_build(db: sqlite_utils.Database, pending: int) -> bool:
    """Whether ``pending`` items are better worked out with a full build: never built yet, or so many new
    items that the stored term counts no longer describe the library."""
    if store.state(db, "built") is None:
        return True
    indexed = store.indexed_count(db)
    since = int(store.state(db, "since_build") or 0)
    return pending > min(INCREMENTAL_LIMIT, max(1, indexed // 5)) or since + pending > max(indexed // 2, 10)


def update_relations(db: sqlite_utils.Database, progress: Progress = _no_progress) -> UpdateResult:
    """Bring the relations up to date (the command line's way; the window splits the full build between a
    worker and the writer)."""
    pending = store.pending_item_ids(db)
    if not pending:
        return UpdateResult(0, full=False)
    if needs_full_build(db, len(pending)):
        build = compute_build(db, progress)
        store.store_build(db, build)
        return UpdateResult(len(build.item_ids), full=True)
    return index_items(db, pending)

"""Keeping relations up to date: a full pass (full_pass.py) the first time and after many changes, else each new or
changed item worked out against the stored index (its concepts weighed with the stored counts, candidates through
the term index, scored as the full pass would)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING

from earmark.core.db import relation_pass
from earmark.core.db import relations as store
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.topics import citations, cleaning, concepts
from earmark.core.topics.corpus import Doc, boilerplate_of, item_tags_of, read_docs
from earmark.core.topics.learnt_aliases import use_library_aliases
from earmark.core.topics.library_ties import podroll_pairs, ties_of
from earmark.core.topics.neighbours import CANDIDATES, QUERY_TERMS
from earmark.core.topics.scoring import (
    MIN_SCORE,
    RELATED_PER_ITEM,
    SMALL_TAG,
    TAG_BONUS,
    TAG_BONUS_MAX,
    kept,
    rarity,
)
from earmark.core.topics.teaching import item_concepts
from earmark.core.topics.vectors import weigh

if TYPE_CHECKING:
    from earmark.core.topics.full_pass import Progress

INCREMENTAL_LIMIT = 200  # more pending items than this (or than a fifth of the library): a full pass
# Fresh term rows (items worked out since the last full pass, ~24 each) kept in their small index before an update
# moves them into the big one: the move rewrites most of the big index's pages whatever their number, the small
# index costs each refresh a page per ~1,000 rows.
FRESH_TERMS_LIMIT = 50_000
# An update reads the library through memory-mapped I/O: the pages it reads all over (other items' terms, titles
# and lists) are used where the system keeps them instead of each being copied in (~15 % of its CPU at 100,000
# items). Not the full pass: its peak memory would count the pages mapped.
MAPPED_BYTES = 1 << 30


@record
class UpdateResult:
    """What an update of the relations did."""

    items: int
    full: bool
    steps: dict[str, float] = field(default_factory=dict)  # seconds of each step of a full pass (or of a merge)


def _quiet(_share: float, _what: str) -> None:
    return None


def index_items(db: Database, item_ids: list[int],
                before_writing: Callable[[], None] = lambda: None) -> UpdateResult:
    """Work out the terms, links and relations of a few new or changed items against the stored index, leaving
    every other item's stored vector as it is (one transaction).

    The items are read and analysed before the transaction (again inside it when another connection wrote
    meanwhile), and ``before_writing`` runs between: the command waits there for its copy of the WAL (see
    core/db/checkpoint.py), which has had that time to finish."""
    with relation_pass.pragmas(db, mmap_size=MAPPED_BYTES):
        changes = _data_version(db)
        prepared = _prepare(db, item_ids)
        before_writing()
        # Foreign keys unchecked: each row names the item worked out or items this transaction read (checking cost
        # two lookups in the items a row, ~7 % of the update).
        with relation_pass.pragmas(db, foreign_keys=0), write_transaction(db):
            relation_pass.restore_indexes(db)  # a stopped full pass dropped them (the term index finds candidates)
            if _data_version(db) != changes:
                prepared = _prepare(db, item_ids)
            for item in prepared.items:
                _index_one(db, item, prepared)
    steps: dict[str, float] = {}
    if store.fresh_terms(db) > FRESH_TERMS_LIMIT:  # once the relations are stored and shown
        started = time.perf_counter()
        store.merge_fresh_terms(db)
        steps["merge"] = time.perf_counter() - started
    return UpdateResult(len(prepared.items), full=False, steps=steps)


@record
class _Item:
    """One item as it is to be stored: its weighted terms (strongest first), links, names and title concepts, and
    the items that share a rare tag with it."""

    id: int
    weighted: list[tuple[str, float]]
    links: set[tuple[str, str]]
    keys: set[str]
    concepts: list[tuple[str, float]]
    tagged: set[int]


@record
class _Prepared:
    """What a few items' relations are worked out from: the items, the stored counts of their terms, the library's
    podroll pairs, and the number of items at the last full pass (at least 1)."""

    items: list[_Item]
    stats: dict[str, tuple[int, bool]]
    podroll: set[tuple[int, int]]
    total: int


def _prepare(db: Database, item_ids: list[int]) -> _Prepared:
    docs = read_docs(db, item_ids)
    shared: dict[int | None, frozenset[str]] = {}
    for doc in docs:
        if doc.source_id not in shared:
            shared[doc.source_id] = boilerplate_of(db, doc.source_id)
    found = {doc.id: _concepts_of(doc, shared[doc.source_id]) for doc in docs}
    # the stored counts of every item's terms at once (items of a refresh share most of their words)
    stats = store.term_stats(db, (term for _title, counts in found.values() for term in counts))
    total = max(int(store.state(db, "total") or 0), 1)
    tags, tag_counts = item_tags_of(db, [doc.id for doc in docs])
    items = [_Item(doc.id, weigh(found[doc.id][1], found[doc.id][0], stats, total),
                   citations.item_links(doc.markup, doc.text, doc.remote_items),
                   citations.item_keys(doc.title, doc.url, doc.enclosure_url, doc.guid),
                   item_concepts(doc.title, doc.chapters, doc.text),
                   _tagged(db, [name for name in tags.get(doc.id, ()) if tag_counts[name] <= SMALL_TAG]))
             for doc in docs]
    return _Prepared(items, stats, podroll_pairs(db), total)


def _data_version(db: Database) -> int:
    """A number that changes whenever another connection commits to the library."""
    return int(db.execute("PRAGMA data_version").fetchone()[0])


def _concepts_of(doc: Doc, shared: frozenset[str]) -> tuple[list[str], Counter[str]]:
    """An item's concepts: those of its title, and how often each is found in the title and the text."""
    title = concepts.concepts(doc.title)
    found = Counter(concepts.concepts(cleaning.clean(doc.text, shared)))
    found.update(title)
    return title, found


def _index_one(db: Database, item: _Item, prepared: _Prepared) -> None:
    weighted, stats, total = item.weighted, prepared.stats, prepared.total
    store.replace_item(db, item.id, [(item.id, term, weight, rank) for rank, (term, weight) in enumerate(weighted)],
                       item.links, item.keys, item.concepts)
    candidates = [other for other, _part in store.similar_by_terms(db, weighted[:QUERY_TERMS], item.id, CANDIDATES)]
    ties = ties_of(db, item.id, candidates, prepared.podroll)
    partners = set(ties.partners().get(item.id, set())) | item.tagged
    others = sorted((set(candidates) | partners) - {item.id})
    mine = dict(weighted)
    vectors = store.vectors_of(db, others)
    specific = {term for term in mine if stats[term][1]}  # shared terms are mine
    tags, tag_counts = item_tags_of(db, [item.id, *others])
    rows: list[store.RelationRow] = []
    for other in others:
        theirs = vectors.get(other, {})
        common = mine.keys() & theirs.keys()
        cosine = sum(mine[t] * theirs[t] for t in common)
        specific_cosine = sum(mine[t] * theirs[t] for t in common if t in specific)
        shared_tags = tags.get(item.id, frozenset()) & tags.get(other, frozenset())
        tag_score = min(TAG_BONUS_MAX, TAG_BONUS * sum(rarity(tag_counts[t], total) for t in shared_tags))
        for a, b in ((item.id, other), (other, item.id)):
            bonus, why = ties.bonus(a, b)
            score = cosine + tag_score + bonus
            if score >= MIN_SCORE and kept(cosine, specific_cosine, bonus + tag_score):
                rows.append((a, b, score, why))
    mine_rows = sorted((r for r in rows if r[0] == item.id), key=lambda r: (-r[2], r[1]))[:RELATED_PER_ITEM]
    chosen = {r[1] for r in mine_rows}
    store.add_relations(db, item.id, mine_rows + [r for r in rows if r[0] != item.id and r[0] in chosen],
                        RELATED_PER_ITEM)


def _tagged(db: Database, names: list[str]) -> set[int]:
    """The items carrying any of ``names`` (rare tags: a few items each)."""
    found: set[int] = set()
    for name in names:
        found.update(row[0] for row in db.execute(
            """SELECT it.item_id FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE t.name = ?
               UNION SELECT i.id FROM items i JOIN source_tags st ON st.source_id = i.source_id
                     JOIN tags t ON t.id = st.tag_id WHERE t.name = ?""", [name, name]))
    return found


def needs_full_build(db: Database, pending: int) -> bool:
    """Whether ``pending`` items are better worked out with a full pass: never done yet, or so many new items that
    the stored term counts no longer describe the library."""
    if store.state(db, "built") is None:
        return True
    indexed = store.indexed_count(db)
    since = int(store.state(db, "since_build") or 0)
    return pending > min(INCREMENTAL_LIMIT, max(1, indexed // 5)) or since + pending > max(indexed // 2, 10)


def update_relations(db: Database, progress: Progress = _quiet, full: bool = False,
                     before_writing: Callable[[], None] = lambda: None) -> UpdateResult:
    """Bring the relations up to date (in this process: the command line's way; the window runs
    ``earmark update-relations`` in a process of its own); ``full`` works every item out again. ``before_writing``
    runs before the first write (see index_items)."""
    use_library_aliases(db)
    if full:
        from earmark.core.topics.full_pass import full_pass  # its modules (the worker pool...): only for one

        before_writing()
        done = full_pass(db, progress)
        return UpdateResult(done.items, full=True, steps=done.seconds)
    built = store.state(db, "built") is not None  # not after a migration that needs every item worked out
    if built and store.up_to_date(db):
        return UpdateResult(0, full=False)
    pending = store.pending_item_ids(db)
    if built and not pending:
        return UpdateResult(0, full=False)
    if needs_full_build(db, len(pending)):
        return update_relations(db, progress, full=True, before_writing=before_writing)
    return index_items(db, pending, before_writing)

"""The topic graph's tables: each item's terms, links and names, its related items, and what is out of date."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.relation_pass import pragmas
from earmark.core.errors import NotFoundError
from earmark.core.models import Related
from earmark.core.timefmt import now_iso

TermRow = tuple[int, str, float, int]  # item, term, weight, rank
RelationRow = tuple[int, int, float, list[str]]  # item, other, score, reasons


def dirty_seq(db: Database) -> int:
    """The newest queued change (0 when none)."""
    return int(db.execute("SELECT coalesce(max(seq), 0) FROM graph_dirty").fetchone()[0])


def pending_item_ids(db: Database) -> list[int]:
    """Items whose relations are missing or out of date (new, or their text or tags changed)."""
    rows = db.execute(
        """SELECT i.id FROM items i LEFT JOIN graph_index g ON g.item_id = i.id WHERE g.item_id IS NULL
           UNION SELECT d.item_id FROM graph_dirty d JOIN items i ON i.id = d.item_id ORDER BY 1""")
    return [row[0] for row in rows]


def up_to_date(db: Database) -> bool:
    """Whether every item's relations are worked out and none changed since (two counts and a look: quick at any
    size, where finding the pending items reads every item)."""
    row = db.execute("""SELECT (SELECT count(*) FROM items) = (SELECT count(*) FROM graph_index)
                               AND NOT EXISTS (SELECT 1 FROM graph_dirty)""").fetchone()
    return bool(row[0])


def indexed_count(db: Database) -> int:
    """How many items have relations worked out."""
    return int(db.execute("SELECT count(*) FROM graph_index").fetchone()[0])


def state(db: Database, key: str) -> str | None:
    """A value the graph keeps about itself (``total``: items at the last full build; ``built``: when)."""
    row = db.execute("SELECT value FROM graph_state WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def replace_item(db: Database, item_id: int, terms: Sequence[TermRow], links: Iterable[tuple[str, str]],
                 keys: Iterable[str], concepts: Iterable[tuple[str, float]] = ()) -> None:
    """Drop an item's terms, links, names, title concepts and relations (both ways) and store its new terms
    (fresh: in the small term index until merged), links, names and title concepts."""
    for table, column in (("item_terms", "item_id"), ("item_links", "item_id"), ("item_keys", "item_id"),
                          ("item_concepts", "item_id"), ("relations", "item_id"), ("relations", "other_id")):
        db.execute(f"DELETE FROM {table} WHERE {column} = ?", [item_id])
    db.conn.executemany("INSERT INTO item_terms (item_id, term, weight, rank, fresh) VALUES (?, ?, ?, ?, 1)", terms)
    db.conn.executemany("INSERT INTO item_links VALUES (?, ?, ?)", ((item_id, t, how) for t, how in links))
    db.conn.executemany("INSERT INTO item_keys VALUES (?, ?)", ((key, item_id) for key in keys))
    db.conn.executemany("INSERT INTO item_concepts VALUES (?, ?, ?)", ((t, item_id, s) for t, s in concepts))


def add_relations(db: Database, item_id: int, related: Sequence[RelationRow], limit: int) -> None:
    """Store an item's related items, and the item among theirs (each keeps its ``limit`` best, by score then id),
    and mark it worked out.

    What the others keep is worked out before writing, and only what changes is written: most of the others do
    not keep the item (100 new items at 100,000 items: 74 of 1,200), and inserting each row only to trim it off
    again rewrote a page of the relations for each (~600 pages of 32 KiB)."""
    rows = [(a, b, round(score, 4), reasons) for a, b, score, reasons in related]
    stored = [row for row in rows if row[0] == item_id]
    theirs: dict[int, list[tuple[int, int, float, list[str]]]] = {}
    for row in rows:
        if row[0] != item_id:
            theirs.setdefault(row[0], []).append(row)
    deletes: list[tuple[int, int]] = []
    for other, listed in _lists_of(db, sorted(theirs)).items():
        offered = {(a, b): score for a, b, score, _reasons in theirs[other]}
        ranked = sorted({**listed, **offered}.items(), key=lambda entry: (-entry[1], entry[0][1]))
        kept = {key for key, _score in ranked[:limit]}
        stored += [row for row in theirs[other] if (row[0], row[1]) in kept]
        deletes += [key for key, _score in ranked[limit:] if key in listed]  # as an insert then a trim would
    inserts = [(a, b, score, json.dumps(reasons)) for a, b, score, reasons in stored]
    db.conn.executemany("INSERT OR REPLACE INTO relations VALUES (?, ?, ?, ?)", inserts)
    db.conn.executemany("DELETE FROM relations WHERE item_id = ? AND other_id = ?", deletes)
    db.execute("INSERT OR REPLACE INTO graph_index VALUES (?, ?)", [item_id, now_iso()])
    db.execute("DELETE FROM graph_dirty WHERE item_id = ?", [item_id])
    db.execute("""INSERT INTO graph_state VALUES ('since_build', '1')
                  ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1""")


def _lists_of(db: Database, item_ids: list[int]) -> dict[int, dict[tuple[int, int], float]]:
    """The stored related items of a few items: for each, (item, other) → score."""
    found: dict[int, dict[tuple[int, int], float]] = {item: {} for item in item_ids}
    for start in range(0, len(item_ids), 500):
        chunk = item_ids[start:start + 500]
        for item, other, score in db.execute(
                f"SELECT item_id, other_id, score FROM relations WHERE item_id IN ({','.join('?' * len(chunk))})",
                chunk):
            found[item][(item, other)] = score
    return found


def term_stats(db: Database, terms: Iterable[str]) -> dict[str, tuple[int, bool]]:
    """For each of ``terms`` the last full pass kept: how many items had it, and whether it is specific."""
    wanted = list(dict.fromkeys(terms))
    found: dict[str, tuple[int, bool]] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        rows = db.execute(f"SELECT term, items, topic FROM term_counts WHERE term IN ({','.join('?' * len(chunk))})",
                          chunk)
        found.update((term, (items, bool(topic))) for term, items, topic in rows)
    return found


def vectors_of(db: Database, item_ids: Iterable[int]) -> dict[int, dict[str, float]]:
    """The stored vectors (term → weight) of a few items."""
    wanted = list(dict.fromkeys(item_ids))
    found: dict[int, dict[str, float]] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        for item_id, term, weight in db.execute(
                f"SELECT item_id, term, weight FROM item_terms WHERE item_id IN ({','.join('?' * len(chunk))})", chunk):
            found.setdefault(item_id, {})[term] = weight
    return found


def similar_by_terms(db: Database, terms: Sequence[tuple[str, float]], exclude: int,
                     limit: int) -> list[tuple[int, float]]:
    """The items whose stored vectors are closest to ``terms`` (the part of the cosine those terms make, best
    first), through the term index: the big one and the small one of the fresh rows (an item's rows are all in
    one or all in the other)."""
    if not terms:
        return []
    values = ",".join("(?, ?)" for _ in terms)
    rows = db.execute(
        f"""WITH mine(term, weight) AS (VALUES {values})
            SELECT item_id, sum(part) AS cosine FROM (
                SELECT t.item_id, t.weight * mine.weight AS part FROM mine
                JOIN item_terms t INDEXED BY item_terms_by_term ON t.term = mine.term WHERE t.fresh = 0
                UNION ALL
                SELECT t.item_id, t.weight * mine.weight FROM mine
                JOIN item_terms t INDEXED BY item_terms_fresh ON t.term = mine.term WHERE t.fresh = 1)
            WHERE item_id != ? GROUP BY item_id ORDER BY cosine DESC, item_id LIMIT ?""",
        [value for term, weight in terms for value in (term, weight)] + [exclude, limit])
    return [(item_id, float(cosine)) for item_id, cosine in rows]


def fresh_terms(db: Database) -> int:
    """How many term rows are in the small index of fresh rows."""
    return int(db.execute("SELECT count(*) FROM item_terms INDEXED BY item_terms_fresh WHERE fresh = 1").fetchone()[0])


MERGE_CACHE_KIB = 65_536  # the merge dirties most of the big term index's pages (~50 MB at 100,000 items)


def merge_fresh_terms(db: Database) -> None:
    """Move the fresh term rows into the big term index (a transaction of its own). Read through the small index,
    they come in term order, so the big index is written from one end to the other; with a page cache that holds
    the pages it dirties, each is written once, at the commit (with the default cache, spilt and written again: a
    merge at 100,000 items took 1.0 s instead of 0.7)."""
    with pragmas(db, cache_size=-MERGE_CACHE_KIB), write_transaction(db):
        db.execute("UPDATE item_terms INDEXED BY item_terms_fresh SET fresh = 0 WHERE fresh = 1")


def citations_of(db: Database, item_id: int) -> list[tuple[int, int, str]]:
    """The citations (item, cited, how) from and to an item."""
    return [tuple(row) for row in db.execute(
        """SELECT item_id, cited_id, how FROM citations WHERE item_id = ?
           UNION SELECT l.item_id, k.item_id, l.how FROM item_keys k JOIN item_links l ON l.target = k.key
                 WHERE k.item_id = ? AND l.item_id != ?""", [item_id, item_id, item_id])]


def all_citations(db: Database) -> list[tuple[int, int, str]]:
    """Every resolved citation (item, cited, how)."""
    return [tuple(row) for row in db.execute("SELECT item_id, cited_id, how FROM citations")]


def related_items(db: Database, item_id: int, limit: int = 10) -> list[Related]:
    """The items most related to ``item_id``, best first, as last worked out."""
    if db.execute("SELECT 1 FROM items WHERE id = ?", [item_id]).fetchone() is None:
        raise NotFoundError(f"There is no item with id {item_id}.")
    rows = db.execute(
        """SELECT r.other_id, i.title, i.kind, s.title, r.score, r.reasons FROM relations r
           JOIN items i ON i.id = r.other_id LEFT JOIN sources s ON s.id = i.source_id
           WHERE r.item_id = ? ORDER BY r.score DESC, r.other_id LIMIT ?""", [item_id, limit])
    return [Related(other, title, kind, source, score, json.loads(reasons))
            for other, title, kind, source, score, reasons in rows]


def is_indexed(db: Database, item_id: int) -> bool:
    """Whether the item's relations are worked out and up to date."""
    return db.execute("""SELECT 1 FROM graph_index g WHERE g.item_id = ?
                         AND NOT EXISTS (SELECT 1 FROM graph_dirty d WHERE d.item_id = g.item_id)""",
                      [item_id]).fetchone() is not None


def topic_counts(db: Database, per_item: int) -> list[tuple[str, int]]:
    """Every topic with the number of items it is among the ``per_item`` strongest topics of (two items or
    more), most items first."""
    rows = db.execute(
        """SELECT coalesce(label, term), count(*) AS n FROM (
               SELECT t.term, c.label, row_number() OVER (PARTITION BY t.item_id ORDER BY t.rank) AS place
               FROM item_terms t JOIN term_counts c ON c.term = t.term WHERE c.topic)
           WHERE place <= ? GROUP BY term HAVING n >= 2 ORDER BY n DESC, term""", [per_item])
    return [(topic, count) for topic, count in rows]

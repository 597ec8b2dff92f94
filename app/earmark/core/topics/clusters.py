"""Topic clusters of the graph shown: groups of items more related among themselves than to the rest (igraph's
multilevel community detection over the weighted edges), each named by the concept its items share most."""

from __future__ import annotations

import math
import random
from collections import Counter

from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.topics.vocabulary import common_words

MAX_CLUSTERS = 10  # the largest clusters get a colour and a name; the others are shown as "other"
MIN_SIZE = 3  # a cluster of fewer items is no topic of its own
NAMING_TERMS = 8  # an item's strongest concepts that can name its cluster
SEED = 8


@record
class Cluster:
    """A topic cluster: its number (0: the largest), name and how many items it holds."""

    number: int
    name: str
    size: int


def find_clusters(db: Database, items: list[int], edges: list[tuple[int, int, float]]
                  ) -> tuple[list[Cluster], dict[int, int]]:
    """Group ``items`` into clusters over the weighted ``edges`` (a, b, weight) and name them: the MAX_CLUSTERS
    largest, and each item's cluster number (items in none of them are left out)."""
    import igraph

    index = {item_id: number for number, item_id in enumerate(items)}
    kept = [(index[a], index[b], w) for a, b, w in edges if a in index and b in index and a != b]
    if not items or not kept:
        return [], {}
    graph = igraph.Graph(n=len(items), edges=[(a, b) for a, b, _w in kept])
    weights = [max(0.01, w) for _a, _b, w in kept]
    igraph.set_random_number_generator(random.Random(SEED))  # the same clusters (and colours) every time
    try:
        membership = graph.community_multilevel(weights=weights).membership
    finally:
        igraph.set_random_number_generator(random)
    groups: dict[int, list[int]] = {}
    for number, group in enumerate(membership):
        groups.setdefault(group, []).append(items[number])
    largest = sorted((members for members in groups.values() if len(members) >= MIN_SIZE),
                     key=lambda members: (-len(members), min(members)))[:MAX_CLUSTERS]
    names = _names(db, largest)
    clusters = []
    by_item: dict[int, int] = {}
    for number, members in enumerate(largest):
        clusters.append(Cluster(number, names[number], len(members)))
        by_item.update((item_id, number) for item_id in members)
    return clusters, by_item


def _names(db: Database, groups: list[list[int]]) -> list[str]:
    """Each group's name: the concept most of its items have and the other groups' few (as it is written): a
    specific one, or a broad name (PT2), never plain English words."""
    wanted = [item_id for members in groups for item_id in members]
    plain = common_words()
    concepts: dict[int, list[str]] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"""SELECT t.item_id, t.term, c.topic FROM item_terms t JOIN term_counts c ON c.term = t.term
                              WHERE t.rank < ? AND t.item_id IN ({marks})""", [NAMING_TERMS, *chunk])
        for item_id, term, topic in rows:
            words = term.split()
            if (topic or len(words) == 1) and not all(word in plain for word in words):
                concepts.setdefault(item_id, []).append(term)
    everywhere = Counter(term for terms in concepts.values() for term in terms)
    names: list[str] = []
    for members in groups:
        inside = Counter(term for item_id in members for term in concepts.get(item_id, []))
        scored = [(count * math.log((1 + len(wanted)) / everywhere[term]), term) for term, count in inside.items()
                  if count >= 2 and term not in names]
        names.append(max(scored)[1] if scored else f"group {len(names) + 1}")
    labels = dict(db.execute(f"SELECT term, label FROM term_counts WHERE label IS NOT NULL AND term IN "
                             f"({','.join('?' * len(names))})", names).fetchall()) if names else {}
    return [labels.get(name, name) for name in names]

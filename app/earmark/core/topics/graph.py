"""Graph data for the topic graph view and its exports: items as nodes (optionally with topic nodes), related
pairs as weighted edges, arrows for prerequisites, filtered and cut to a neighbourhood."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import field

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter, where_clause
from earmark.core.models import ItemKind
from earmark.core.records import record
from earmark.core.topics.clusters import Cluster, find_clusters
from earmark.core.topics.reasons import explain
from earmark.core.topics.scoring import CITED_BY, CITES, FOLLOW_UP, PREREQUISITE

MAX_NODES = 2000  # the strongest-connected items are shown when a filter leaves more
READ_ALL = 2 * MAX_NODES  # up to this many items matching, all are read (else the hubs only, found in SQL)
EDGES_PER_NODE = 6  # an edge is drawn when it is among the strongest of one of its two items
TOPIC_NODES = 40
TOPIC = "topic"  # the kind of a topic node (items are "episode" or "article")


@record(frozen=True)
class GraphFilter:
    """Which part of the graph to show: filters on the items, a minimum edge weight, and optionally only the
    neighbourhood (``depth`` steps) of ``center``."""

    tag: str | None = None
    source_id: int | None = None
    kind: ItemKind | None = None
    min_weight: float = 0.0
    center: int | None = None
    depth: int = 1
    topics: bool = False


@record
class Node:
    """An item (or a topic: negative id, kind ``topic``) with its place in the layout, when it has one."""

    id: int
    title: str
    kind: str
    source_id: int | None = None
    source: str | None = None
    degree: int = 0
    x: float | None = None
    y: float | None = None
    cluster: int | None = None  # its topic cluster's number (see clusters.py), None: in no named cluster


@record
class Edge:
    """Two related nodes, how strongly and why (from ``a``'s side); ``first`` is the one to take first when
    the pair is a prerequisite or a citation."""

    a: int
    b: int
    weight: float
    reasons: list[str]
    first: int | None = None


@record
class GraphData:
    """What the view draws: nodes and edges, and how many items matched before the MAX_NODES cut."""

    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    matched: int = 0
    clusters: list[Cluster] = field(default_factory=list)  # the topic clusters, largest first


def first_of(a: int, b: int, reasons: list[str]) -> int | None:
    """Which of a pair to take first, from the reasons on ``a``'s side (None: no order)."""
    if PREREQUISITE in reasons or CITES in reasons:
        return b
    if FOLLOW_UP in reasons or CITED_BY in reasons:
        return a
    return None


def all_edges(db: Database, min_weight: float = 0.0) -> dict[tuple[int, int], Edge]:
    """Every related pair once (the stronger side's score), keyed (smaller id, larger id)."""
    edges: dict[tuple[int, int], Edge] = {}
    for a, b, score, reasons in db.execute("SELECT item_id, other_id, score, reasons FROM relations WHERE score >= ?",
                                           [min_weight]):
        key = (min(a, b), max(a, b))
        known = edges.get(key)
        if known is None or score > known.weight:
            why = json.loads(reasons)
            edges[key] = Edge(a, b, score, why, first_of(a, b, why))
    return edges


def strongest_edges(edges: list[Edge], per_node: int = EDGES_PER_NODE) -> list[Edge]:
    """The edges among the ``per_node`` strongest of either of their nodes (prerequisites always)."""
    ranked: dict[int, list[Edge]] = {}
    for edge in sorted(edges, key=lambda e: -e.weight):
        for node in (edge.a, edge.b):
            ranked.setdefault(node, []).append(edge)
    kept = {id(edge) for node_edges in ranked.values() for edge in node_edges[:per_node]}
    return [edge for edge in edges if id(edge) in kept or edge.first is not None]


def _shown_ids(db: Database, flt: GraphFilter) -> tuple[list[int] | None, int]:
    """The items the graph can show (None: every item the filter matches, few enough to read them all), and how
    many match. A large library shows its hubs (the items most others list as related), found in SQL: the window
    never reads every relation of a library of 100,000 items."""
    where, params = where_clause(ItemFilter(kind=flt.kind, source_id=flt.source_id, tag=flt.tag))
    if flt.center is not None:
        near = _near(db, flt.center, flt.depth, flt.min_weight)
        return near, len(near)
    matched = int(db.execute(f"SELECT count(*) FROM items i JOIN graph_index g ON g.item_id = i.id WHERE {where}",
                             params).fetchone()[0])
    if matched <= READ_ALL:
        return None, matched
    rows = db.execute(f"""SELECT r.other_id FROM relations r JOIN items i ON i.id = r.other_id
                          WHERE {where} AND r.score >= ? GROUP BY r.other_id ORDER BY count(*) DESC, r.other_id
                          LIMIT ?""", [*params, flt.min_weight, READ_ALL])
    return [row[0] for row in rows], matched


def _near(db: Database, center: int, depth: int, min_weight: float) -> list[int]:
    """``center`` and the items within ``depth`` relations of it (either way), read relation by relation."""
    reached, frontier = {center}, {center}
    for _step in range(max(1, depth)):
        marks = ",".join("?" * len(frontier))
        rows = db.execute(f"""SELECT item_id, other_id FROM relations WHERE score >= ?
                              AND (item_id IN ({marks}) OR other_id IN ({marks}))""",
                          [min_weight, *frontier, *frontier])
        frontier = {n for a, b in rows for n in (a, b)} - reached
        reached |= frontier
        if not frontier:
            break
    return sorted(reached)


def _edges_among(db: Database, ids: set[int], min_weight: float) -> dict[tuple[int, int], Edge]:
    """The related pairs among ``ids`` once (the stronger side's score), keyed (smaller id, larger id)."""
    edges: dict[tuple[int, int], Edge] = {}
    wanted = sorted(ids)
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        rows = db.execute(f"""SELECT item_id, other_id, score, reasons FROM relations
                              WHERE item_id IN ({','.join('?' * len(chunk))}) AND score >= ?""", [*chunk, min_weight])
        for a, b, score, reasons in rows:
            key = (min(a, b), max(a, b))
            known = edges.get(key)
            if b in ids and (known is None or score > known.weight):
                why = json.loads(reasons)
                edges[key] = Edge(a, b, score, why, first_of(a, b, why))
    return edges


def read_graph(db: Database, flt: GraphFilter) -> GraphData:
    """The nodes and edges ``flt`` asks for, with their stored positions."""
    shown, matched = _shown_ids(db, flt)
    where, params = where_clause(ItemFilter(kind=flt.kind, source_id=flt.source_id, tag=flt.tag))
    if shown is not None:
        where, params = f"{where} AND i.id IN (SELECT value FROM json_each(?))", [*params, json.dumps(shown)]
    rows = db.execute(f"""SELECT i.id, i.title, i.kind, i.source_id, s.title, l.x, l.y FROM items i
                          JOIN graph_index g ON g.item_id = i.id LEFT JOIN sources s ON s.id = i.source_id
                          LEFT JOIN graph_layout l ON l.item_id = i.id WHERE {where}""", params).fetchall()
    nodes = {row[0]: Node(row[0], row[1], row[2], row[3], row[4], 0, row[5], row[6]) for row in rows}
    if shown is None:
        edges = [edge for edge in all_edges(db, flt.min_weight).values() if edge.a in nodes and edge.b in nodes]
    else:
        edges = list(_edges_among(db, set(nodes), flt.min_weight).values())
    if flt.center is not None:
        keep = neighbourhood(flt.center, edges, flt.depth)
        nodes = {node_id: node for node_id, node in nodes.items() if node_id in keep}
        edges = [edge for edge in edges if edge.a in keep and edge.b in keep]
    edges = strongest_edges(edges)
    degree: Counter[int] = Counter()
    for edge in edges:
        degree.update((edge.a, edge.b))
    if flt.center is not None:
        matched = len(nodes)
    if len(nodes) > MAX_NODES:
        kept = {node_id for node_id, _d in degree.most_common(MAX_NODES)}
        nodes = {node_id: node for node_id, node in nodes.items() if node_id in kept}
        edges = [edge for edge in edges if edge.a in kept and edge.b in kept]
    for node in nodes.values():
        node.degree = degree[node.id]
    data = GraphData(sorted(nodes.values(), key=lambda n: n.id), edges, matched)
    data.clusters, clusters = find_clusters(db, [node.id for node in data.nodes],
                                            [(edge.a, edge.b, edge.weight) for edge in data.edges])
    for node in data.nodes:
        node.cluster = clusters.get(node.id)
    reasons = explain(db, {(edge.a, edge.b): edge.reasons for edge in data.edges})
    for edge in data.edges:
        edge.reasons = reasons[(edge.a, edge.b)]
    if flt.topics:
        _add_topics(db, data)
    return data


def neighbourhood(center: int, edges: list[Edge], depth: int) -> set[int]:
    """``center`` and the items within ``depth`` edges of it."""
    adjacent: dict[int, set[int]] = {}
    for edge in edges:
        adjacent.setdefault(edge.a, set()).add(edge.b)
        adjacent.setdefault(edge.b, set()).add(edge.a)
    reached, frontier = {center}, {center}
    for _step in range(max(1, depth)):
        frontier = {other for node in frontier for other in adjacent.get(node, ())} - reached
        reached |= frontier
    return reached


def _add_topics(db: Database, data: GraphData) -> None:
    """Topic nodes for the topics two or more shown items share, each linked to its items."""
    shown = {node.id: node for node in data.nodes}
    by_topic: dict[str, list[tuple[int, float]]] = {}
    labels: dict[str, str] = {}
    for item_id, term, label, weight in db.execute(
            """SELECT t.item_id, t.term, coalesce(c.label, t.term), t.weight FROM item_terms t
               JOIN term_counts c ON c.term = t.term WHERE c.topic AND t.rank < 8"""):
        if item_id in shown:
            by_topic.setdefault(term, []).append((item_id, weight))
            labels[term] = label
    common = sorted((t for t, members in by_topic.items() if len(members) >= 2), key=lambda t: -len(by_topic[t]))
    for number, term in enumerate(common[:TOPIC_NODES], start=1):
        members = by_topic[term]
        xs = [x for i, _w in members if (x := shown[i].x) is not None]
        ys = [y for i, _w in members if (y := shown[i].y) is not None]
        node = Node(-number, labels[term], TOPIC, degree=len(members), x=sum(xs) / len(xs) if xs else None,
                    y=sum(ys) / len(ys) if ys else None)
        data.nodes.append(node)
        data.edges += [Edge(item_id, node.id, weight, [f"topic: {labels[term]}"]) for item_id, weight in members]

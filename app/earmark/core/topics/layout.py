"""Where the graph's nodes sit: a force-directed layout (igraph's, in C) started from the stored positions, so
the picture stays put between sessions and new items settle in near their neighbours."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

import sqlite_utils

from earmark.core.db.connection import write_transaction
from earmark.core.topics.graph import Edge, all_edges, strongest_edges

SPACING = 60.0  # scene units per node, roughly: the layout fills a square of side SPACING * sqrt(nodes)
Position = tuple[float, float]


def layout(node_ids: list[int], edges: Iterable[Edge], previous: dict[int, Position] | None = None,
           seed: int = 8) -> dict[int, Position]:
    """Positions for ``node_ids``: Fruchterman-Reingold on the weighted edges, started from ``previous`` (new
    nodes start beside their placed neighbours); a few iterations refine a mostly placed graph."""
    import igraph

    previous = previous or {}
    if not node_ids:
        return {}
    index = {node_id: number for number, node_id in enumerate(node_ids)}
    pairs = [(index[e.a], index[e.b]) for e in edges if e.a in index and e.b in index and e.a != e.b]
    weights = [max(0.05, e.weight) for e in edges if e.a in index and e.b in index and e.a != e.b]
    graph = igraph.Graph(n=len(node_ids), edges=pairs)
    side = SPACING * math.sqrt(len(node_ids))
    start = _start(node_ids, pairs, previous, side, random.Random(seed))
    placed = sum(node_id in previous for node_id in node_ids) / len(node_ids)
    iterations = 60 if placed > 0.9 else 500
    coords = graph.layout_fruchterman_reingold(weights=weights or None, niter=iterations, seed=start,
                                               grid="auto" if len(node_ids) > 1000 else "nogrid")
    return _scaled(node_ids, coords.coords, side, keep=placed > 0.9)


def _start(node_ids: list[int], pairs: list[tuple[int, int]], previous: dict[int, Position], side: float,
           rng: random.Random) -> list[list[float]]:
    neighbours: dict[int, list[int]] = {}
    for a, b in pairs:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    start: list[list[float] | None] = [list(previous[n]) if n in previous else None for n in node_ids]
    for number, position in enumerate(start):
        if position is None:
            placed = [start[other] for other in neighbours.get(number, []) if start[other] is not None]
            if placed:
                x = sum(p[0] for p in placed) / len(placed)  # type: ignore[index]
                y = sum(p[1] for p in placed) / len(placed)  # type: ignore[index]
                start[number] = [x + rng.uniform(-SPACING, SPACING), y + rng.uniform(-SPACING, SPACING)]
            else:
                start[number] = [rng.uniform(-side / 2, side / 2), rng.uniform(-side / 2, side / 2)]
    return [p for p in start if p is not None]


def _scaled(node_ids: list[int], coords: list[list[float]], side: float, keep: bool) -> dict[int, Position]:
    """The layout centred and scaled to a square of ``side`` (``keep``: only centred, so a refined layout does
    not jump)."""
    xs, ys = [c[0] for c in coords], [c[1] for c in coords]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    extent = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    factor = 1.0 if keep else side / extent
    return {node_id: ((x - cx) * factor, (y - cy) * factor) for node_id, (x, y) in zip(node_ids, coords, strict=True)}


def stored_positions(db: sqlite_utils.Database) -> dict[int, Position]:
    """Every stored node position."""
    return {item_id: (x, y) for item_id, x, y in db.execute("SELECT item_id, x, y FROM graph_layout")}


def compute_layout(db: sqlite_utils.Database) -> dict[int, Position]:
    """Positions for every item that has relations, started from the stored ones (reads only)."""
    node_ids = [row[0] for row in db.execute("SELECT item_id FROM graph_index ORDER BY item_id")]
    edges = strongest_edges(list(all_edges(db).values()))
    return layout(node_ids, edges, stored_positions(db))


def needs_layout(db: sqlite_utils.Database) -> bool:
    """Whether some item with relations has no position yet."""
    return db.execute("""SELECT 1 FROM graph_index g LEFT JOIN graph_layout l ON l.item_id = g.item_id
                         WHERE l.item_id IS NULL LIMIT 1""").fetchone() is not None


def store_layout(db: sqlite_utils.Database, positions: dict[int, Position]) -> None:
    """Keep node positions (for items that still exist)."""
    with write_transaction(db):
        db.conn.executemany("""INSERT INTO graph_layout (item_id, x, y) SELECT ?, ?, ? WHERE EXISTS
                               (SELECT 1 FROM items WHERE id = ?) ON CONFLICT (item_id) DO UPDATE
                               SET x = excluded.x, y = excluded.y""",
                            ((item_id, x, y, item_id) for item_id, (x, y) in positions.items()))

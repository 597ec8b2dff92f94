"""Where the graph's nodes sit: a force-directed layout (igraph's, in C) started from the stored positions, so
the picture stays put between sessions and new items settle in near their neighbours."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.topics.graph import Edge, GraphFilter, read_graph

UNIT = 55.0  # scene units per layout unit: igraph's layout spreads n nodes over about sqrt(n) units
Position = tuple[float, float]
# How far a refine may move a node: a node held by one weak edge is still drifting outward when the first layout
# freezes, and runs at the full temperature of each refine (at 0.2, 13 layout units in 60 steps on the sample).
REFINE_TEMP = 0.05
GRID_FROM = 300  # nodes: above this, repulsion is only computed between near nodes (a grid): O(n) per step


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
    start = _start(node_ids, pairs, {n: (x / UNIT, y / UNIT) for n, (x, y) in previous.items()},
                   math.sqrt(len(node_ids)), random.Random(seed))
    placed = sum(node_id in previous for node_id in node_ids) / len(node_ids)
    refine = placed > 0.9  # mostly placed: a few cool iterations settle the newcomers, the rest barely move
    igraph.set_random_number_generator(random.Random(seed))  # the same picture from the same graph, every time
    try:
        coords = graph.layout_fruchterman_reingold(weights=weights or None, niter=60 if refine else 500, seed=start,
                                                   start_temp=REFINE_TEMP if refine else math.sqrt(len(node_ids)) / 10,
                                                   grid="grid" if len(node_ids) > GRID_FROM else "nogrid").coords
    finally:
        igraph.set_random_number_generator(random)
    known = [number for number, node_id in enumerate(node_ids) if node_id in previous]
    if len(known) >= 3:  # igraph centres (and may mirror) its result: turn it back onto the stored picture
        coords = _aligned(coords, start, known)
    else:
        cx, cy = sum(c[0] for c in coords) / len(coords), sum(c[1] for c in coords) / len(coords)
        coords = [[x - cx, y - cy] for x, y in coords]
    return {node_id: (x * UNIT, y * UNIT) for node_id, (x, y) in zip(node_ids, coords, strict=True)}


def _aligned(coords: list[list[float]], start: list[list[float]], known: list[int]) -> list[list[float]]:
    """``coords`` moved, turned (or mirrored) and scaled to lie best over ``start`` at the ``known`` nodes
    (orthogonal Procrustes)."""
    import numpy as np

    new, old = np.asarray(coords, dtype=float), np.asarray(start, dtype=float)
    new_mean, old_mean = new[known].mean(axis=0), old[known].mean(axis=0)
    a, b = new[known] - new_mean, old[known] - old_mean
    u, sigma, vt = np.linalg.svd(a.T @ b)
    rotation = u @ vt
    scale = float(sigma.sum() / ((a * a).sum() or 1.0))
    return ((new - new_mean) @ rotation * scale + old_mean).tolist()


def _start(node_ids: list[int], pairs: list[tuple[int, int]], previous: dict[int, Position], side: float,
           rng: random.Random) -> list[list[float]]:
    """Where each node starts (layout units): where it was, else beside its placed neighbours, else anywhere."""
    neighbours: dict[int, list[int]] = {}
    for a, b in pairs:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    start: list[list[float] | None] = [list(previous[n]) if n in previous else None for n in node_ids]
    for number, position in enumerate(start):
        if position is None:
            placed = [p for other in neighbours.get(number, []) if (p := start[other]) is not None]
            if placed:
                x = sum(p[0] for p in placed) / len(placed)
                y = sum(p[1] for p in placed) / len(placed)
                start[number] = [x + rng.uniform(-1, 1), y + rng.uniform(-1, 1)]
            else:
                start[number] = [rng.uniform(-side / 2, side / 2), rng.uniform(-side / 2, side / 2)]
    return [p for p in start if p is not None]


def stored_positions(db: Database) -> dict[int, Position]:
    """Every stored node position."""
    return {item_id: (x, y) for item_id, x, y in db.execute("SELECT item_id, x, y FROM graph_layout")}


def compute_layout(db: Database, flt: GraphFilter | None = None) -> dict[int, Position]:
    """Positions for the items the graph shows for ``flt`` (the whole library's, by default: at most
    MAX_NODES), started from the stored ones (reads only)."""
    data = read_graph(db, flt or GraphFilter())
    placed = {node.id: (node.x, node.y) for node in data.nodes if node.x is not None and node.y is not None}
    return layout([node.id for node in data.nodes], data.edges, placed)


def needs_layout(db: Database, flt: GraphFilter | None = None) -> bool:
    """Whether some item the graph shows for ``flt`` has no position yet."""
    return any(node.x is None or node.y is None for node in read_graph(db, flt or GraphFilter()).nodes)


def store_layout(db: Database, positions: dict[int, Position]) -> None:
    """Keep node positions (for items that still exist)."""
    with write_transaction(db):
        db.conn.executemany("""INSERT INTO graph_layout (item_id, x, y) SELECT ?, ?, ? WHERE EXISTS
                               (SELECT 1 FROM items WHERE id = ?) ON CONFLICT (item_id) DO UPDATE
                               SET x = excluded.x, y = excluded.y""",
                            ((item_id, x, y, item_id) for item_id, (x, y) in positions.items()))

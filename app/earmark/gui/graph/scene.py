"""The graph scene: nodes where the layout put them, coloured by kind or source, and the edges between them;
it can number and highlight a learning path and dim everything else."""

from __future__ import annotations

import html
import zlib

from PySide6.QtCore import QObject, QPointF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsScene

from earmark.core.topics.graph import TOPIC, Edge, GraphData
from earmark.gui.graph.items import EdgeLayer, NodeItem

KIND_COLOURS = {"episode": QColor("#4c8bbf"), "article": QColor("#f2a541"), TOPIC: QColor("#7cb36b")}
PALETTE = [QColor(c) for c in ("#4c8bbf", "#f2a541", "#7cb36b", "#c46fb0", "#d9534f", "#5bc0be", "#8d6e63",
                               "#9c89b8", "#e9c46a", "#6c757d")]
DIMMED = 0.22
TOOLTIP_EDGES = 4


def colour_of(kind: str, source_id: int | None, by: str) -> QColor:
    """A node's colour: by kind, or by source (a stable colour per source)."""
    if by == "source" and kind != TOPIC:
        return PALETTE[zlib.crc32(str(source_id).encode()) % len(PALETTE)]
    return KIND_COLOURS.get(kind, KIND_COLOURS["episode"])


def tooltip(title: str, facts: str, edges: list[tuple[str, Edge]]) -> str:
    """A node's tooltip: its title, what it is, and its strongest relations with their reasons."""
    lines = [f"<b>{html.escape(title)}</b>", html.escape(facts)]
    for other, edge in edges[:TOOLTIP_EDGES]:
        why = ", ".join(edge.reasons) or "related"
        lines.append(f"↔ {html.escape(other)} <span style='color:gray'>({html.escape(why)}, {edge.weight:.2f})</span>")
    return "<br>".join(lines)


class GraphScene(QGraphicsScene):
    """Holds one GraphData as items; ``nodes`` maps item ids (topic nodes: negative) to their NodeItems."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.nodes: dict[int, NodeItem] = {}
        self.edge_layer: EdgeLayer | None = None
        self.data = GraphData()

    def show_graph(self, data: GraphData, colour_by: str = "kind") -> None:
        """Replace the picture with ``data`` (nodes without a position yet go on a ring around the rest)."""
        self.clear()
        self.data = data
        self.nodes = {}
        titles = {node.id: node.title for node in data.nodes}
        by_node: dict[int, list[tuple[str, Edge]]] = {}
        for edge in sorted(data.edges, key=lambda e: -e.weight):
            by_node.setdefault(edge.a, []).append((titles.get(edge.b, ""), edge))
            by_node.setdefault(edge.b, []).append((titles.get(edge.a, ""), edge))
        unplaced = [node for node in data.nodes if node.x is None or node.y is None]
        for number, node in enumerate(data.nodes):
            facts = "topic" if node.kind == TOPIC else f"{node.kind} · {node.source or ''}"
            item = NodeItem(node, colour_of(node.kind, node.source_id, colour_by),
                            tooltip(node.title, facts, by_node.get(node.id, [])))
            if node.x is not None and node.y is not None:
                item.setPos(QPointF(node.x, node.y))
            else:
                item.setPos(_ring(unplaced.index(node), len(unplaced), number))
            self.addItem(item)
            self.nodes[node.id] = item
        self.edge_layer = EdgeLayer(data.edges, self.nodes)
        self.addItem(self.edge_layer)

    def recolour(self, colour_by: str) -> None:
        """Colour the nodes by ``kind`` or ``source``."""
        for item in self.nodes.values():
            item.colour = colour_of(item.node.kind, item.node.source_id, colour_by)
            item.update()

    def highlight_path(self, path: list[int]) -> None:
        """Number the items of ``path`` (in order) and dim everything else; an empty path shows all again."""
        on_path = {item_id: number for number, item_id in enumerate(path, start=1)}
        for item_id, item in self.nodes.items():
            item.set_step(on_path.get(item_id), highlighted=item_id in on_path)
            item.setOpacity(1.0 if not path or item_id in on_path else DIMMED)
        if self.edge_layer is not None:
            self.edge_layer.highlighted = set(zip(path, path[1:], strict=False))
            self.edge_layer.dimmed = bool(path)
            self.edge_layer.recompute()


def _ring(index: int, count: int, salt: int) -> QPointF:
    import math

    angle = 2 * math.pi * index / max(1, count)
    distance = 400.0 + 40.0 * math.sqrt(count) + (salt % 3) * 10
    return QPointF(distance * math.cos(angle), distance * math.sin(angle))

"""The graph scene: nodes where the layout put them, coloured by kind or source, and the edges between them;
it can number and highlight a learning path and dim everything else."""

from __future__ import annotations

import html
import zlib

from PySide6.QtCore import QObject, QPointF, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsScene

from earmark.core.topics.graph import TOPIC, Edge, GraphData, Node
from earmark.gui.graph.items import EdgeLayer, NodeItem, NodeLayer

KIND_COLOURS = {"episode": QColor("#4c8bbf"), "article": QColor("#f2a541"), TOPIC: QColor("#7cb36b")}
KIND_NAMES = {"episode": "Episodes", "article": "Articles", TOPIC: "Topics"}
# Ten colours told apart on a light and on a dark background alike (Tableau 10), then grey for the rest.
PALETTE = [QColor(c) for c in ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                               "#ff9da7", "#9c755f", "#bab0ac")]
OTHER = QColor("#8c8c8c")
TOPIC_COLOURS, KIND, SOURCE = "topic", "kind", "source"  # what nodes are coloured by
DIMMED = 0.22
MARGIN, LABEL_WIDTH = 60.0, 240.0  # scene units kept around the nodes, and right of them for titles
TOOLTIP_EDGES = 4


def colour_of(node: Node, by: str) -> QColor:
    """A node's colour: by its topic cluster (grey outside the named ones), by kind, or by source (a stable colour
    per source)."""
    if by == TOPIC_COLOURS and node.kind != TOPIC:
        return PALETTE[node.cluster % len(PALETTE)] if node.cluster is not None else OTHER
    if by == SOURCE and node.kind != TOPIC:
        return PALETTE[zlib.crc32(str(node.source_id).encode()) % len(PALETTE)]
    return KIND_COLOURS.get(node.kind, KIND_COLOURS["episode"])


def tooltip(title: str, facts: str, edges: list[tuple[str, Edge]]) -> str:
    """A node's tooltip: its title, what it is, and its strongest relations with their reasons."""
    lines = [f"<b>{html.escape(title)}</b>", html.escape(facts)]
    for other, edge in edges[:TOOLTIP_EDGES]:
        why = ", ".join(edge.reasons) or "related"
        lines.append(f"↔ {html.escape(other)} <span style='color:gray'>({html.escape(why)}, {edge.weight:.2f})</span>")
    return "<br>".join(lines)


class GraphScene(QGraphicsScene):
    """Holds one GraphData as items; ``nodes`` maps item ids (topic nodes: negative) to their NodeItems and
    ``neighbours`` each to the ids it has edges with. Signals: ``hovered_changed()`` when the pointer enters or
    leaves a node (``hovered``: its id), ``labels_changed()`` when what deserves a label changed."""

    hovered_changed = Signal()
    labels_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.nodes: dict[int, NodeItem] = {}
        self.neighbours: dict[int, set[int]] = {}
        self.edge_layer: EdgeLayer | None = None
        self.node_layer: NodeLayer | None = None
        self.data = GraphData()
        self.colour_by = TOPIC_COLOURS
        self.hovered: int | None = None
        self.selectionChanged.connect(self.labels_changed)
        self.selectionChanged.connect(self._redraw_nodes)

    def _redraw_nodes(self) -> None:
        if self.node_layer is not None:
            self.node_layer.update()

    def set_hovered(self, node_id: int | None) -> None:
        """The node under the pointer (None: none)."""
        if node_id != self.hovered:
            self.hovered = node_id
            self.hovered_changed.emit()
            self.labels_changed.emit()

    def legend(self) -> list[tuple[QColor, str]]:
        """What the colours mean: each named topic cluster (with its items), each kind, or each source shown."""
        if self.colour_by == TOPIC_COLOURS and self.data.clusters:
            entries = [(PALETTE[c.number % len(PALETTE)], f"{c.name} ({c.size})") for c in self.data.clusters]
            others = sum(1 for item in self.nodes.values() if item.node.cluster is None and item.node.kind != TOPIC)
            return entries + ([(OTHER, f"other ({others})")] if others else [])
        if self.colour_by == SOURCE:
            shown = {item.node.source_id: item.node.source for item in self.nodes.values() if item.node.kind != TOPIC}
            return [(colour_of(Node(0, "", "episode", source_id=sid), SOURCE), name or "no source")
                    for sid, name in sorted(shown.items(), key=lambda s: (s[1] or ""))][:12]
        kinds = sorted({item.node.kind for item in self.nodes.values()})
        return [(KIND_COLOURS.get(kind, KIND_COLOURS["episode"]), KIND_NAMES.get(kind, kind)) for kind in kinds]

    def show_graph(self, data: GraphData, colour_by: str = TOPIC_COLOURS) -> None:
        """Replace the picture with ``data`` (nodes without a position yet go on a ring around the rest)."""
        self.node_layer = self.edge_layer = None
        self.clear()
        self.data = data
        self.colour_by = colour_by
        self.hovered = None
        self.nodes = {}
        self.neighbours = {}
        for edge in data.edges:
            self.neighbours.setdefault(edge.a, set()).add(edge.b)
            self.neighbours.setdefault(edge.b, set()).add(edge.a)
        titles = {node.id: node.title for node in data.nodes}
        by_node: dict[int, list[tuple[str, Edge]]] = {}
        for edge in sorted(data.edges, key=lambda e: -e.weight):
            by_node.setdefault(edge.a, []).append((titles.get(edge.b, ""), edge))
            by_node.setdefault(edge.b, []).append((titles.get(edge.a, ""), edge))
        unplaced = [node for node in data.nodes if node.x is None or node.y is None]
        for number, node in enumerate(data.nodes):
            facts = "topic" if node.kind == TOPIC else f"{node.kind} · {node.source or ''}"
            at = QPointF(node.x, node.y) if node.x is not None and node.y is not None else \
                _ring(unplaced.index(node), len(unplaced), number)
            item = NodeItem(node, colour_of(node, colour_by), tooltip(node.title, facts, by_node.get(node.id, [])),
                            self.set_hovered, at)
            self.addItem(item)
            self.nodes[node.id] = item
        self.edge_layer = EdgeLayer(data.edges, self.nodes)
        self.addItem(self.edge_layer)
        self.node_layer = NodeLayer(self.nodes)
        self.addItem(self.node_layer)
        # Room around the nodes for the titles the view draws beside them (they are no items of the scene).
        self.setSceneRect(self.itemsBoundingRect().adjusted(-MARGIN, -MARGIN, MARGIN + LABEL_WIDTH, MARGIN))
        self.labels_changed.emit()

    def recolour(self, colour_by: str) -> None:
        """Colour the nodes by topic cluster, ``kind`` or ``source``."""
        self.colour_by = colour_by
        for item in self.nodes.values():
            item.colour = colour_of(item.node, colour_by)
        self._redraw_nodes()
        self.labels_changed.emit()

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
        self._redraw_nodes()
        self.labels_changed.emit()


def _ring(index: int, count: int, salt: int) -> QPointF:
    import math

    angle = 2 * math.pi * index / max(1, count)
    distance = 400.0 + 40.0 * math.sqrt(count) + (salt % 3) * 10
    return QPointF(distance * math.cos(angle), distance * math.sin(angle))

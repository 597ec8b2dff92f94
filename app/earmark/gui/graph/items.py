"""What the graph scene draws: one item per node (hover shows its title and reasons) and one layer for every
edge (thousands of edges cost one paint call, not thousands of items). Titles are the view's (labels.py)."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsSceneHoverEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from earmark.core.topics.graph import Edge, Node
from earmark.gui.graph.labels import shorten

HIGHLIGHT = QColor("#e76f51")


def radius(node: Node) -> float:
    """Nodes grow with their number of edges."""
    return 6.0 + 2.6 * math.sqrt(node.degree)


class NodeItem(QGraphicsObject):
    """One node: a disc coloured by topic, kind or source (its title is drawn by the view, where it fits). Hovering
    it tells the scene (``hover``)."""

    def __init__(self, node: Node, colour: QColor, tooltip: str, hover: Callable[[int | None], None]) -> None:
        super().__init__()
        self.node = node
        self.colour = colour
        self.radius = radius(node)
        self.highlighted = False
        self.step: int | None = None  # its number on a learning path
        self._hover = hover
        self.setToolTip(tooltip)
        self.setAcceptHoverEvents(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.label = ""
        self.set_step(None, highlighted=False)

    def set_step(self, step: int | None, highlighted: bool) -> None:
        """Number the node on a learning path (None: not on it) and highlight it or not."""
        self.step = step
        self.highlighted = highlighted
        title = shorten(self.node.title)
        self.label = f"{step}. {title}" if step else title
        self.setZValue(3 if highlighted else 1)
        self.update()

    def boundingRect(self) -> QRectF:
        r = self.radius + 3
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), self.radius + 2, self.radius + 2)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        selected = self.isSelected()
        pen = QPen(HIGHLIGHT if self.highlighted or selected else self.colour.darker(140), 3 if selected else 1.5)
        painter.setPen(pen)
        painter.setBrush(QBrush(self.colour))
        painter.drawEllipse(QPointF(0, 0), self.radius, self.radius)

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._hover(self.node.id)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._hover(None)
        super().hoverLeaveEvent(event)


class EdgeLayer(QGraphicsItem):
    """Every edge in one paint: width by weight, an arrow towards the item that builds on the other, the
    highlighted ones (a learning path) on top in colour. The lines are worked out once, so a frame costs a few
    C++ calls whatever the number of edges."""

    def __init__(self, edges: list[Edge], nodes: dict[int, NodeItem]) -> None:
        super().__init__()
        self._nodes = nodes
        self._edges = [edge for edge in edges if edge.a in nodes and edge.b in nodes]
        self.highlighted: set[tuple[int, int]] = set()
        self.dimmed = False
        self.setZValue(0)
        self._bounds = QRectF()
        self._groups: dict[float, list[QLineF]] = {}
        self._arrows: list[QPolygonF] = []
        self._lit: list[QLineF] = []
        self._lit_arrows: list[QPolygonF] = []
        self.recompute()

    def recompute(self) -> None:
        """Work the lines out again (after nodes moved or the highlighted edges changed)."""
        self.prepareGeometryChange()
        self._groups, self._arrows, self._lit, self._lit_arrows = {}, [], [], []
        xs: list[float] = []
        ys: list[float] = []
        for edge in self._edges:
            a, b = self._nodes[edge.a], self._nodes[edge.b]
            start, end = (b.pos(), a.pos()) if edge.first == edge.b else (a.pos(), b.pos())
            line = QLineF(start, end)
            xs += [start.x(), end.x()]
            ys += [start.y(), end.y()]
            lit = (edge.a, edge.b) in self.highlighted or (edge.b, edge.a) in self.highlighted
            if lit:
                self._lit.append(line)
            else:
                self._groups.setdefault(round(min(4.0, 0.6 + 2.5 * edge.weight), 1), []).append(line)
            if edge.first is not None:
                target = self._nodes[edge.b if edge.first == edge.a else edge.a]
                (self._lit_arrows if lit else self._arrows).append(_arrow(line, target.radius))
        if xs:
            self._bounds = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(-20, -20, 20, 20)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        colour = QColor(120, 120, 120, 40 if self.dimmed else 110)
        for width, lines in self._groups.items():
            painter.setPen(QPen(colour, width))
            painter.drawLines(lines)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(90, 90, 90, 60 if self.dimmed else 170))
        for arrow in self._arrows:
            painter.drawPolygon(arrow)
        if self._lit:
            painter.setPen(QPen(HIGHLIGHT, 3.5))
            painter.drawLines(self._lit)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(HIGHLIGHT)
            for arrow in self._lit_arrows:
                painter.drawPolygon(arrow)


def _arrow(line: QLineF, target_radius: float) -> QPolygonF:
    """A small arrowhead at the end of ``line``, just outside the target's disc."""
    length = line.length() or 1.0
    ux, uy = line.dx() / length, line.dy() / length
    tip = QPointF(line.p2().x() - ux * (target_radius + 2), line.p2().y() - uy * (target_radius + 2))
    size = 9.0
    base = QPointF(tip.x() - ux * size, tip.y() - uy * size)
    normal = QPointF(-uy * size * 0.45, ux * size * 0.45)
    return QPolygonF([tip, base + normal, base - normal])

"""What the graph scene draws: one item per node (hover shows its title and reasons) and one layer for every
edge (thousands of edges cost one paint call, not thousands of items). Titles are the view's (labels.py)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPalette, QPen, QPixmap, QPolygonF
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
EDGE_GREY = QColor(120, 120, 120)


MAX_RADIUS = 18.0


def radius(node: Node) -> float:
    """Nodes grow with their number of edges (up to a point: hubs must not hide their neighbours)."""
    return min(MAX_RADIUS, 5.0 + 1.8 * math.sqrt(node.degree))


class NodeItem(QGraphicsObject):
    """One node: what can be pointed at, hovered (it tells the scene through ``hover``), selected and asked for its
    tooltip. It draws nothing itself: the NodeLayer draws every disc, the view the titles that fit."""

    def __init__(self, node: Node, colour: QColor, tooltip: str, hover: Callable[[int | None], None],
                 at: QPointF) -> None:
        super().__init__()
        self.setPos(at)
        self.centre = (at.x(), at.y())  # where it stays (scene units), read without a call into Qt each frame
        self.node = node
        self.colour = colour
        self.radius = radius(node)
        self.highlighted = False
        self.step: int | None = None  # its number on a learning path
        self._hover = hover
        self.setToolTip(tooltip)
        self.setAcceptHoverEvents(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
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
        return None  # drawn by the NodeLayer

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._hover(self.node.id)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._hover(None)
        super().hoverLeaveEvent(event)


class NodeLayer(QGraphicsItem):
    """Every node's disc in one paint (a Python call per node, not a paint per item): coloured, outlined in the
    highlight colour when selected or on a learning path, faint when dimmed; those highlighted on top. Call
    ``update()`` after colours, selection or highlights changed."""

    def __init__(self, nodes: dict[int, NodeItem]) -> None:
        super().__init__()
        self._nodes = nodes
        self.setZValue(1)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        # Drawn once into a picture of what the view shows, as the edges are: a pan and a repaint copy it.
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._bounds = QRectF()
        if nodes:
            rects = [item.mapRectToScene(item.boundingRect()) for item in nodes.values()]
            left, top = min(r.left() for r in rects), min(r.top() for r in rects)
            self._bounds = QRectF(left, top, max(r.right() for r in rects) - left, max(r.bottom() for r in rects) - top)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        reach = MAX_RADIUS + 3  # a disc's centre this far outside the exposed area may still reach into it
        exposed = option.exposedRect  # set: ItemUsesExtendedStyleOption
        left, top = exposed.left() - reach, exposed.top() - reach
        right, bottom = exposed.right() + reach, exposed.bottom() + reach
        shown = [item for item in self._nodes.values()
                 if left <= item.centre[0] <= right and top <= item.centre[1] <= bottom]
        scene = self.scene()
        chosen = set(scene.selectedItems()) if scene is not None else set()
        lifted = [item for item in shown if item.highlighted or item in chosen]
        if lifted:  # drawn last, on top
            shown = [item for item in shown if not (item.highlighted or item in chosen)] + lifted
        transform = painter.worldTransform()  # a zoom and a pan: no rotation
        scale, dx, dy = transform.m11(), transform.dx(), transform.dy()
        sprites: dict[tuple[int, float, bool, bool], tuple[QPixmap, float]] = {}
        painter.save()
        painter.resetTransform()  # discs are drawn as ready pictures, in whole pixels
        for item in shown:
            selected = item in chosen
            key = (item.colour.rgba(), item.radius, selected, item.highlighted)
            sprite = sprites.get(key)
            if sprite is None:
                sprite = sprites[key] = _disc(key[0], round(item.radius * scale * 2) / 2, selected,
                                              item.highlighted or selected)
            x, y = item.centre
            opacity = item.opacity()
            if opacity < 1.0:
                painter.setOpacity(opacity)
            painter.drawPixmap(round(scale * x + dx - sprite[1]), round(scale * y + dy - sprite[1]), sprite[0])
            if opacity < 1.0:
                painter.setOpacity(1.0)
        painter.restore()


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
        # Drawn once into a picture of what the view shows: a pan moves the picture, only a zoom draws again.
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._bounds = QRectF()
        self._groups: dict[int, list[QLineF]] = {}  # lines by their alpha
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
                self._groups.setdefault(int(min(230, 70 + 160 * edge.weight)) // 20 * 20, []).append(line)
            if edge.first is not None:
                target = self._nodes[edge.b if edge.first == edge.a else edge.a]
                (self._lit_arrows if lit else self._arrows).append(_arrow(line, target.radius))
        if xs:
            self._bounds = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(-20, -20, 20, 20)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        background = (widget.palette() if widget is not None else QPalette()).color(QPalette.ColorRole.Base)
        for strength, lines in self._groups.items():
            # One opaque pixel wide at any zoom, stronger relations nearer grey: thin, aliased, opaque lines are
            # drawn fastest by far (the colour is the grey seen through the background, worked out here).
            painter.setPen(QPen(_through(EDGE_GREY, background, strength * (0.35 if self.dimmed else 1.0) / 255), 0))
            painter.drawLines(lines)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
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


def _through(colour: QColor, background: QColor, alpha: float) -> QColor:
    """``colour`` laid over ``background`` with ``alpha`` (0 to 1), as one opaque colour."""
    return QColor(*(round(a * alpha + b * (1 - alpha)) for a, b in (
        (colour.red(), background.red()), (colour.green(), background.green()), (colour.blue(), background.blue()))))


@lru_cache(maxsize=2048)
def _disc(rgba: int, pixels: float, selected: bool, highlighted: bool) -> tuple[QPixmap, float]:
    """A node's disc of ``pixels`` radius, drawn once (antialiased) and then only copied; and half its side."""
    colour = QColor.fromRgba(rgba)
    width = 3.0 if selected else 1.5
    side = int(2 * (pixels + width) + 3)
    pixmap = QPixmap(side, side)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(HIGHLIGHT if highlighted else colour.darker(140), width))
    painter.setBrush(QBrush(colour))
    painter.drawEllipse(QPointF(side / 2, side / 2), max(pixels, 1.0), max(pixels, 1.0))
    painter.end()
    return pixmap, side / 2


def _arrow(line: QLineF, target_radius: float) -> QPolygonF:
    """A small arrowhead at the end of ``line``, just outside the target's disc."""
    length = line.length() or 1.0
    ux, uy = line.dx() / length, line.dy() / length
    tip = QPointF(line.p2().x() - ux * (target_radius + 2), line.p2().y() - uy * (target_radius + 2))
    size = 9.0
    base = QPointF(tip.x() - ux * size, tip.y() - uy * size)
    normal = QPointF(-uy * size * 0.45, ux * size * 0.45)
    return QPolygonF([tip, base + normal, base - normal])

"""The titles a graph view shows: placed (labels.py) for the area in view and as much again around it, kept while
nothing they depend on changes, and drawn at a constant size.

While the wheel turns (or + and - are pressed), a zoom does not place every title again: it keeps those already
shown that still fit at the new zoom, apart and whole in view (a few boxes checked, not the whole graph), so each
notch paints at once; the titles are placed anew once the zoom rests for SETTLE_MS, and more appear then. Closer
or panned, the titles shown stay first in line (a hub's title never gives way to one that only now fits); farther,
or after a fit, the hubs come first again."""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, QRectF, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QStaticText
from PySide6.QtWidgets import QGraphicsView

from earmark.gui.graph.items import NodeItem
from earmark.gui.graph.labels import GAP, Candidate, Placed, place
from earmark.gui.graph.scene import GraphScene

LABEL_POINTS = 9.0
HOVERED, SELECTED, ON_PATH, NEAR, SHOWN = 4e9, 3e9, 2e9, 1e9, 5e8  # label priorities above any node's degree
SETTLE_MS = 120  # a wheel turned by hand gives a notch every 20-80 ms: this long without one, the zoom rests


class Titles(QObject):
    """The titles of one GraphView. Call ``changed()`` when what deserves a title changed, ``zooming()`` on each
    zoom step of the wheel or the keys, ``rest()`` on a jump (a fit, to a node: the titles are placed at once)."""

    def __init__(self, view: QGraphicsView) -> None:
        super().__init__(view)
        self._view = view
        self.font = QFont(view.font())
        self.font.setPointSizeF(LABEL_POINTS)
        self._placed: list[Placed] = []
        self._placed_for: tuple[object, ...] | None = None  # what the titles were placed for (None: none)
        self._stale = True
        self._scale = self._placed_scale = 0.0  # the zoom of the titles shown, and of their last full placing
        self._region = QRectF()
        self._widths: dict[tuple[str, bool], float] = {}
        self._texts: dict[tuple[str, bool], QStaticText] = {}
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._rested)

    def changed(self) -> None:
        """What deserves a title changed: place them all again at the next paint."""
        self._placed_for = None
        self._rested()

    def zooming(self) -> None:
        """A zoom step: until the zoom rests, paints keep the titles shown that still fit."""
        self._settle.start()

    def rest(self) -> None:
        """A jump (a fit, to a node), not a zoom step: the next paint places every title afresh, hubs first."""
        self._settle.stop()
        self.changed()

    def _rested(self) -> None:
        self._stale = True
        self._view.viewport().update()

    def placed(self) -> list[Placed]:
        """The titles shown at the current zoom (scene units)."""
        scene = self._view.scene()
        if not isinstance(scene, GraphScene):
            return []
        selected = tuple(sorted(i.node.id for i in scene.selectedItems() if isinstance(i, NodeItem)))
        key = (selected, scene.hovered, id(scene.data), self.font.toString())
        scale = self._view.transform().m11()
        visible = self._view.mapToScene(self._view.viewport().rect()).boundingRect()
        if not self._stale and key == self._placed_for and scale == self._scale and self._region.contains(visible):
            return self._placed
        shown = [label.node_id for label in self._placed]
        if self._settle.isActive():  # zooming: only the titles already shown are tried, in view
            region = visible
            candidates = self._candidates(scene, selected, region, shown, set())
        else:  # placed for the area in view and as much again around it: panning that far costs nothing
            region = visible.adjusted(-visible.width(), -visible.height(), visible.width(), visible.height())
            kept = key == self._placed_for and scale >= self._placed_scale  # closer or panned: as they were
            candidates = self._candidates(scene, selected, region, scene.nodes, set(shown) if kept else set())
            self._placed_scale = scale
        self._placed = place(candidates, scale, self._width, QFontMetricsF(self._bold_font()).height(),
                             {*selected, *([scene.hovered] if scene.hovered is not None else [])}, visible)
        self._placed_for, self._scale, self._region, self._stale = key, scale, region, False
        return self._placed

    def _candidates(self, scene: GraphScene, selected: tuple[int, ...], region: QRectF,
                    among: list[int] | dict[int, NodeItem], shown: set[int]) -> list[Candidate]:
        """The nodes of ``among`` inside ``region`` and not dimmed, each with how much its title matters (those of
        ``shown`` before the rest)."""
        near = {other for node_id in (*selected, scene.hovered) if node_id is not None
                for other in scene.neighbours.get(node_id, ())}
        candidates = []
        left, top, right, bottom = region.left(), region.top(), region.right(), region.bottom()
        for node_id in among:
            item = scene.nodes.get(node_id)
            if item is None:
                continue
            x, y = item.centre
            if not (left <= x <= right and top <= y <= bottom) or item.opacity() < 0.5:
                continue
            priority = float(item.node.degree)
            if node_id == scene.hovered:
                priority += HOVERED
            elif node_id in selected:
                priority += SELECTED
            elif item.highlighted:
                priority += ON_PATH
            elif node_id in near:
                priority += NEAR
            elif node_id in shown:
                priority += SHOWN
            candidates.append(Candidate(node_id, x, y, item.radius, item.label, priority))
        return candidates

    def _width(self, text: str, bold: bool) -> float:
        """A title's width in pixels (measured once)."""
        width = self._widths.get((text, bold))
        if width is None:
            font = self._bold_font() if bold else self.font
            width = self._widths[(text, bold)] = QFontMetricsF(font).horizontalAdvance(text)
        return width

    def _static(self, text: str, bold: bool) -> QStaticText:
        """The laid-out text of a title (laid out once, then only drawn)."""
        key = (text, bold)
        static = self._texts.get(key)
        if static is None:
            static = self._texts[key] = QStaticText(text)
            static.prepare(font=self._bold_font() if bold else self.font)
        return static

    def _bold_font(self) -> QFont:
        font = QFont(self.font)
        font.setBold(True)
        return font

    def on_screen(self, rect: QRectF) -> QRectF:
        """A rectangle of the scene in the view's pixels."""
        return self._view.viewportTransform().mapRect(rect)

    def draw(self, painter: QPainter, area: QRectF) -> None:
        """Draw the titles that meet ``area`` (scene units), on a halo of the background."""
        labels = [label for label in self.placed() if label.rect.intersects(area)]
        if not labels:
            return
        palette = self._view.viewport().palette()
        halo = QColor(palette.color(QPalette.ColorRole.Base))
        halo.setAlpha(200)
        text = palette.color(QPalette.ColorRole.Text)
        painter.save()
        painter.resetTransform()
        screen = [(label, self.on_screen(label.rect)) for label in labels]
        for _label, box in screen:
            painter.fillRect(box.adjusted(1, 1, -1, -1), halo)
        painter.setPen(text)
        for label, box in screen:
            painter.setFont(self._bold_font() if label.bold else self.font)
            painter.drawStaticText(QPointF(box.left() + GAP, box.top() + GAP / 2), self._static(label.text, label.bold))
        painter.restore()

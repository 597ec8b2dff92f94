"""The zoomable, pannable graph view: the wheel or +/- zoom, dragging pans, a click selects a node and a
double click activates it. It draws the titles that fit (titles.py) at a constant size, and keeps its legend
(shown beside it by the panel) up to date."""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from earmark.gui.graph.items import NodeItem
from earmark.gui.graph.labels import Placed
from earmark.gui.graph.legend import GraphLegend
from earmark.gui.graph.scene import GraphScene
from earmark.gui.graph.titles import Titles

ZOOM_STEP = 1.25
MIN_SCALE, MAX_SCALE = 0.02, 8.0
MAX_FIT_SCALE = 1.4  # fitting a handful of nodes keeps some of their surroundings in view
LABEL_ROOM = 180.0  # scene units right of the rightmost node kept for its title


class GraphView(QGraphicsView):
    """Shows a GraphScene. Signals: ``node_clicked(int)``, ``node_activated(int)`` (double click) with the
    item id (topic nodes have negative ids)."""

    node_clicked = Signal(int)
    node_activated = Signal(int)

    def __init__(self, scene: GraphScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setObjectName("graphView")
        self.setAccessibleName("Topic graph")
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.legend = GraphLegend()
        self.titles = Titles(self)
        scene.labels_changed.connect(self._labels_changed)

    # Titles ------------------------------------------------------------------------------------------------

    def _labels_changed(self) -> None:
        scene = self.scene()
        if isinstance(scene, GraphScene):
            self.legend.show_entries(scene.legend())
        self.titles.changed()

    def placed_labels(self) -> list[Placed]:
        """The titles shown at the current zoom (scene units)."""
        return self.titles.placed()

    def label_rects(self) -> list[QRectF]:
        """Where the titles are drawn, in the view's pixels."""
        return [self.titles.on_screen(label.rect) for label in self.placed_labels()]

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        self.titles.draw(painter, QRectF(rect))

    def scale_factor(self) -> float:
        """The current zoom (1: one scene unit per pixel)."""
        return self.transform().m11()

    def zoom(self, factor: float) -> None:
        """Zoom by ``factor`` (kept between MIN_SCALE and MAX_SCALE)."""
        target = min(MAX_SCALE, max(MIN_SCALE, self.scale_factor() * factor))
        self.scale(target / self.scale_factor(), target / self.scale_factor())

    def zoom_in(self) -> None:
        """One step closer."""
        self._zoom_step(ZOOM_STEP)

    def zoom_out(self) -> None:
        """One step back."""
        self._zoom_step(1 / ZOOM_STEP)

    def _zoom_step(self, factor: float) -> None:
        """A zoom by the wheel or the keys, one of a run of them: the titles are placed anew once they rest."""
        before = self.scale_factor()
        self.zoom(factor)
        if self.scale_factor() != before:
            self.titles.zooming()

    def fit(self) -> None:
        """Show every visible node."""
        shown = [item for item in self.scene().items() if isinstance(item, NodeItem) and item.opacity() > 0.5]
        if not shown:
            return
        xs = [item.pos().x() for item in shown]
        ys = [item.pos().y() for item in shown]
        bounds = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        area = bounds.adjusted(-40, -40, LABEL_ROOM, 40)
        self.titles.rest()
        self.fitInView(area, Qt.AspectRatioMode.KeepAspectRatio)
        if self.scale_factor() > MAX_FIT_SCALE:
            self.zoom(MAX_FIT_SCALE / self.scale_factor())
        self.centerOn(area.center())

    def centre_on_node(self, item_id: int) -> None:
        """Bring a node to the middle, at a zoom where its title shows, and select it."""
        scene = self.scene()
        item = scene.nodes.get(item_id) if isinstance(scene, GraphScene) else None
        if item is None:
            return
        scene.clearSelection()
        item.setSelected(True)
        self.titles.rest()
        if self.scale_factor() < 1.0:
            self.zoom(1.0 / self.scale_factor())
        self.centerOn(item)

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            self._zoom_step(ZOOM_STEP ** steps)
        event.accept()

    def _node_at(self, event: QMouseEvent) -> NodeItem | None:
        for item in self.items(event.position().toPoint()):
            if isinstance(item, NodeItem):
                return item
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        node = self._node_at(event)
        if node is not None and event.button() == Qt.MouseButton.LeftButton:
            self.scene().clearSelection()
            node.setSelected(True)
            self.node_clicked.emit(node.node.id)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        node = self._node_at(event)
        if node is not None and event.button() == Qt.MouseButton.LeftButton:
            self.node_activated.emit(node.node.id)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

"""The zoomable, pannable graph view: the wheel or +/- zoom, dragging pans, a click selects a node and a
double click activates it."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from earmark.gui.graph.items import NodeItem
from earmark.gui.graph.scene import GraphScene

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

    def scale_factor(self) -> float:
        """The current zoom (1: one scene unit per pixel)."""
        return self.transform().m11()

    def zoom(self, factor: float) -> None:
        """Zoom by ``factor`` (kept between MIN_SCALE and MAX_SCALE)."""
        target = min(MAX_SCALE, max(MIN_SCALE, self.scale_factor() * factor))
        self.scale(target / self.scale_factor(), target / self.scale_factor())

    def zoom_in(self) -> None:
        """One step closer."""
        self.zoom(ZOOM_STEP)

    def zoom_out(self) -> None:
        """One step back."""
        self.zoom(1 / ZOOM_STEP)

    def fit(self) -> None:
        """Show every visible node."""
        shown = [item for item in self.scene().items() if isinstance(item, NodeItem) and item.opacity() > 0.5]
        if not shown:
            return
        xs = [item.pos().x() for item in shown]
        ys = [item.pos().y() for item in shown]
        bounds = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        area = bounds.adjusted(-40, -40, LABEL_ROOM, 40)
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
        if self.scale_factor() < 1.0:
            self.zoom(1.0 / self.scale_factor())
        self.centerOn(item)

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom(ZOOM_STEP ** steps)
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

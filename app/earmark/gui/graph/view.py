"""The zoomable, pannable graph view: the wheel or +/- zoom, dragging pans, a click selects a node and a
double click activates it. It draws the titles that fit (labels.py) at a constant size, and keeps its legend
(shown beside it by the panel) up to date."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QMouseEvent, QPainter, QPalette, QStaticText, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from earmark.gui.graph.items import NodeItem
from earmark.gui.graph.labels import GAP, Candidate, Placed, place
from earmark.gui.graph.legend import GraphLegend
from earmark.gui.graph.scene import GraphScene

ZOOM_STEP = 1.25
MIN_SCALE, MAX_SCALE = 0.02, 8.0
MAX_FIT_SCALE = 1.4  # fitting a handful of nodes keeps some of their surroundings in view
LABEL_ROOM = 180.0  # scene units right of the rightmost node kept for its title
LABEL_POINTS = 9.0
HOVERED, SELECTED, ON_PATH, NEAR = 4e9, 3e9, 2e9, 1e9  # label priorities above any node's degree


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
        self.label_font = QFont(self.font())
        self.label_font.setPointSizeF(LABEL_POINTS)
        self.legend = GraphLegend()
        self._placed: list[Placed] = []
        self._placed_for: tuple[object, ...] | None = None
        self._region = QRectF()
        self._widths: dict[tuple[str, bool], float] = {}
        self._texts: dict[tuple[str, bool], QStaticText] = {}
        scene.labels_changed.connect(self._labels_changed)

    # Labels ------------------------------------------------------------------------------------------------

    def _labels_changed(self) -> None:
        self._placed_for = None
        scene = self.scene()
        if isinstance(scene, GraphScene):
            self.legend.show_entries(scene.legend())
        self.viewport().update()

    def placed_labels(self) -> list[Placed]:
        """The labels shown at the current zoom (scene units), worked out again when the zoom or what matters
        changed."""
        scene = self.scene()
        if not isinstance(scene, GraphScene):
            return []
        selected = tuple(sorted(i.node.id for i in scene.selectedItems() if isinstance(i, NodeItem)))
        key = (round(self.scale_factor(), 6), selected, scene.hovered, id(scene.data), self.label_font.toString())
        visible = self.mapToScene(self.viewport().rect()).boundingRect()
        if key != self._placed_for or not self._region.contains(visible):
            # Labels are placed for the visible area and as much again around it: panning that far costs nothing.
            self._region = visible.adjusted(-visible.width(), -visible.height(), visible.width(), visible.height())
            self._placed = place(self._candidates(scene, selected, self._region), self.scale_factor(),
                                 self._width, QFontMetricsF(self._bold_font()).height(),
                                 {*selected, *([scene.hovered] if scene.hovered is not None else [])}, visible)
            self._placed_for = key
        return self._placed

    def _width(self, text: str, bold: bool) -> float:
        """A label's width in pixels (measured once)."""
        width = self._widths.get((text, bold))
        if width is None:
            font = self._bold_font() if bold else self.label_font
            width = self._widths[(text, bold)] = QFontMetricsF(font).horizontalAdvance(text)
        return width

    def _static(self, text: str, bold: bool) -> QStaticText:
        """The laid-out text of a label (laid out once, then only drawn)."""
        key = (text, bold)
        static = self._texts.get(key)
        if static is None:
            static = self._texts[key] = QStaticText(text)
            static.prepare(font=self._bold_font() if bold else self.label_font)
        return static

    def _bold_font(self) -> QFont:
        font = QFont(self.label_font)
        font.setBold(True)
        return font

    def _candidates(self, scene: GraphScene, selected: tuple[int, ...], region: QRectF) -> list[Candidate]:
        near = {other for node_id in (*selected, scene.hovered) if node_id is not None
                for other in scene.neighbours.get(node_id, ())}
        candidates = []
        left, top, right, bottom = region.left(), region.top(), region.right(), region.bottom()
        for node_id, item in scene.nodes.items():
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
            candidates.append(Candidate(node_id, QPointF(x, y), item.radius, item.label, priority))
        return candidates

    def label_rects(self) -> list[QRectF]:
        """Where the labels are drawn, in the view's pixels."""
        return [self._on_screen(label.rect) for label in self.placed_labels()]

    def _on_screen(self, rect: QRectF) -> QRectF:
        return self.viewportTransform().mapRect(rect)

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        area = QRectF(rect)
        labels = [label for label in self.placed_labels() if label.rect.intersects(area)]
        if not labels:
            return
        palette = self.viewport().palette()
        halo = QColor(palette.color(QPalette.ColorRole.Base))
        halo.setAlpha(200)
        text = palette.color(QPalette.ColorRole.Text)
        painter.save()
        painter.resetTransform()
        screen = [(label, self._on_screen(label.rect)) for label in labels]
        for _label, box in screen:
            painter.fillRect(box.adjusted(1, 1, -1, -1), halo)
        painter.setPen(text)
        for label, box in screen:
            painter.setFont(self._bold_font() if label.bold else self.label_font)
            painter.drawStaticText(QPointF(box.left() + GAP, box.top() + GAP / 2), self._static(label.text, label.bold))
        painter.restore()

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

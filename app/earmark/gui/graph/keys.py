"""The graph canvas by keys: the arrow keys move the selection to the nearest node that way (Ctrl with an arrow
pans), Enter or Space opens the selected node's item, Home selects the node nearest the middle, and letters typed
on the canvas go to the graph's find box. While the canvas has the keyboard these keys are its own: the window's
player keys (Space, the arrows, single letters) wait until the keyboard leaves it."""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGraphicsView, QLineEdit

from earmark.gui.graph.items import NodeItem
from earmark.gui.graph.scene import GraphScene

DIRECTIONS = {Qt.Key.Key_Left: QPointF(-1, 0), Qt.Key.Key_Right: QPointF(1, 0), Qt.Key.Key_Up: QPointF(0, -1),
              Qt.Key.Key_Down: QPointF(0, 1)}
OPEN_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
PAN_STEP = 0.15  # of the visible width or height
LABEL_MARGIN = 220  # pixels kept in view around a node selected by keys: its title is drawn right of it
SIDEWAYS_COST = 2.0  # a node off to the side counts as this much further away
CTRL, SHIFT, KEYPAD = (Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier,
                       Qt.KeyboardModifier.KeypadModifier)


class GraphKeys(QObject):
    """Installed on ``view`` (a GraphView: signals ``node_clicked(int)`` and ``node_activated(int)``); letters go
    to ``find_box``."""

    def __init__(self, view: QGraphicsView, find_box: QLineEdit) -> None:
        super().__init__(view)
        self._view = view
        self._find_box = find_box
        view.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The canvas's keys (see the module docstring); every other event goes on untouched."""
        if watched is not self._view or not isinstance(event, QKeyEvent):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            if self._owns(event):
                event.accept()  # the canvas gets the key, not a window shortcut
                return True
            return False
        if event.type() == QEvent.Type.KeyPress and self._owns(event):
            self._press(event)
            return True
        return False

    def _owns(self, event: QKeyEvent) -> bool:
        key, modifiers = event.key(), event.modifiers() & ~KEYPAD
        if key in DIRECTIONS:
            return modifiers in (Qt.KeyboardModifier.NoModifier, CTRL)
        if key in OPEN_KEYS or key == Qt.Key.Key_Home:
            return modifiers == Qt.KeyboardModifier.NoModifier
        return _typed(event)

    def _press(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        if key in DIRECTIONS and event.modifiers() & CTRL:
            self.pan(DIRECTIONS[key])
        elif key in DIRECTIONS:
            self.move(DIRECTIONS[key])
        elif key in OPEN_KEYS:
            selected = self.selected()
            if selected is not None:
                self._view.node_activated.emit(selected.node.id)  # type: ignore[attr-defined]
        elif key == Qt.Key.Key_Home:
            self._select(self._nearest(self._view.mapToScene(self._view.viewport().rect().center())))
        else:  # a letter: finding by title
            self._find_box.setFocus(Qt.FocusReason.OtherFocusReason)
            self._find_box.setText(event.text())

    # Moving ----------------------------------------------------------------------------------------------------

    def selected(self) -> NodeItem | None:
        """The selected node (None when none is)."""
        scene = self._view.scene()
        chosen = [item for item in scene.selectedItems() if isinstance(item, NodeItem)] if scene else []
        return chosen[0] if chosen else None

    def move(self, direction: QPointF) -> None:
        """Select the nearest shown node in ``direction`` from the selected one (the one nearest the middle of
        the view when none is selected)."""
        here = self.selected()
        if here is None:
            self._select(self._nearest(self._view.mapToScene(self._view.viewport().rect().center())))
            return
        best, best_cost = None, math.inf
        for item in self._shown():
            offset = item.pos() - here.pos()
            ahead = offset.x() * direction.x() + offset.y() * direction.y()
            sideways = abs(offset.x() * direction.y() - offset.y() * direction.x())
            if item is here or ahead <= 0 or sideways > 2 * ahead:
                continue
            cost = ahead + SIDEWAYS_COST * sideways
            if cost < best_cost:
                best, best_cost = item, cost
        if best is not None:
            self._select(best)

    def pan(self, direction: QPointF) -> None:
        """Scroll the canvas a step in ``direction``."""
        for bar, share, size in ((self._view.horizontalScrollBar(), direction.x(), self._view.viewport().width()),
                                 (self._view.verticalScrollBar(), direction.y(), self._view.viewport().height())):
            bar.setValue(bar.value() + int(share * PAN_STEP * size))

    def _shown(self) -> list[NodeItem]:
        scene = self._view.scene()
        nodes = scene.nodes.values() if isinstance(scene, GraphScene) else []
        return [item for item in nodes if item.opacity() > 0.5 and item.isVisible()]

    def _nearest(self, point: QPointF) -> NodeItem | None:
        shown = self._shown()
        return min(shown, key=lambda item: math.dist((item.pos().x(), item.pos().y()), (point.x(), point.y())),
                   default=None)

    def _select(self, item: NodeItem | None) -> None:
        if item is None:
            return
        scene = self._view.scene()
        scene.clearSelection()
        item.setSelected(True)
        self._view.ensureVisible(item, LABEL_MARGIN, 60)  # its title, right of it, in view too
        self._view.node_clicked.emit(item.node.id)  # type: ignore[attr-defined]


def _typed(event: QKeyEvent) -> bool:
    """A printable key without Ctrl or Alt (Shift allowed): typing, not a shortcut. The graph's zoom keys (+, -,
    =, 0), ? (the shortcuts) and / (the find box) keep their meaning."""
    text = event.text()
    if not text or not text.isprintable() or text.isspace() or text in "+-=0?/":
        return False
    return not event.modifiers() & ~(SHIFT | KEYPAD)

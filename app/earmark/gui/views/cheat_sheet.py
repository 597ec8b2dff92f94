"""The cheat sheet (? and F1): every shortcut, by menu, over the window until a key or click closes it."""

from __future__ import annotations

import html
from itertools import combinations, pairwise

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QColor, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from earmark.gui.mainwindow.actions import label

HEADING_LINES = 2  # a menu's heading takes about two lines of a column
# Keys that scroll the sheet when it is taller than the window (a 1366 × 768 laptop), instead of closing it
SCROLL_KEYS = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_Home,
                         Qt.Key.Key_End})


def balanced(blocks: list[tuple[int, str]], count: int) -> list[list[str]]:
    """``blocks`` (lines, HTML) in order, cut into ``count`` columns so that the tallest is as short as can be."""
    best: tuple[int, list[list[str]]] | None = None
    for cuts in combinations(range(1, len(blocks)), min(count, len(blocks)) - 1):
        edges = (0, *cuts, len(blocks))
        columns = [blocks[start:end] for start, end in pairwise(edges)]
        tallest = max(sum(lines for lines, _html in column) for column in columns)
        if best is None or tallest < best[0]:
            best = (tallest, [[block for _lines, block in column] for column in columns])
    return best[1] if best else []


class CheatSheet(QWidget):
    """A dimmed overlay covering its parent, with the shortcuts in columns. Any key or click closes it."""

    def __init__(self, menus: dict[str, list[QAction]], parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("cheatSheet")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.text = QLabel()
        self.text.setObjectName("cheatSheetText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setStyleSheet("QLabel { background: palette(window); border-radius: 8px; padding: 16px; }")
        self.area = scroll = QScrollArea()
        scroll.setWidget(self.text)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setStyleSheet("background: transparent;")
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(60, 40, 60, 40)
        layout.addWidget(scroll)
        self.fill(menus)
        parent.installEventFilter(self)
        self.hide()

    def fill(self, menus: dict[str, list[QAction]]) -> None:
        """List every action that has a shortcut, menu by menu, in three columns of about the same height (so
        that the sheet fits a 1280×800 window without scrolling)."""
        blocks: list[tuple[int, str]] = []  # (lines, HTML)
        for menu, actions in menus.items():
            shown = [a for a in actions if a.shortcuts()]
            rows = "".join(
                f"<tr><td style='padding-right:12px'>{html.escape(label(a.text()))}</td>"
                f"<td><b>{html.escape(', '.join(s.toString() for s in a.shortcuts()))}</b></td></tr>"
                for a in shown)
            if rows:
                blocks.append((len(shown) + HEADING_LINES, f"<h3>{html.escape(menu)}</h3><table>{rows}</table>"))
        columns = "".join(f"<td valign='top' style='padding-right:28px'>{''.join(column)}</td>"
                          for column in balanced(blocks, 3))
        self.text.setText("<h2>Keyboard shortcuts</h2><p>Press any key to close (where the window is too short for "
                          "them all, the arrow keys and Page Up/Down scroll). Change them with Help ▸ "
                          f"Customize Shortcuts…</p><table><tr>{columns}</tr></table>")

    def toggle(self) -> None:
        """Show over the whole parent, or hide."""
        if self.isVisible():
            self.close_sheet()
            return
        parent = self.parentWidget()
        assert parent is not None
        self.setGeometry(parent.rect())
        self.raise_()
        self.show()
        self.setFocus()

    def close_sheet(self) -> None:
        """Hide and give the keyboard back to the window."""
        self.hide()
        parent = self.parentWidget()
        if parent is not None:
            parent.setFocus()

    def paintEvent(self, event: QPaintEvent) -> None:
        QPainter(self).fillRect(self.rect(), QColor(0, 0, 0, 140))
        super().paintEvent(event)

    def event(self, event: QEvent) -> bool:
        """While shown, every key is ours (it closes the sheet) rather than a shortcut's."""
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        bar = self.area.verticalScrollBar()
        if event.key() in SCROLL_KEYS and bar.maximum() > 0:
            step = {Qt.Key.Key_Up: -bar.singleStep(), Qt.Key.Key_Down: bar.singleStep(),
                    Qt.Key.Key_PageUp: -bar.pageStep(), Qt.Key.Key_PageDown: bar.pageStep(),
                    Qt.Key.Key_Home: -bar.maximum(), Qt.Key.Key_End: bar.maximum()}[Qt.Key(event.key())]
            bar.setValue(bar.value() + step)
        else:
            self.close_sheet()
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.close_sheet()
        event.accept()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the parent's size."""
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize and self.isVisible():
            self.setGeometry(self.parentWidget().rect())  # type: ignore[union-attr]
        return super().eventFilter(watched, event)

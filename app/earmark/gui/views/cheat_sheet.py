"""The cheat sheet (? and F1): every shortcut, by menu, over the window until a key or click closes it."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QColor, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from earmark.gui.mainwindow.frame.actions import label

HEADING = ("<h2>Keyboard shortcuts</h2><p>Press any key to close (where the window is too short for them all, the "
           "arrow keys and Page Up/Down scroll). In a list, Page Up/Down page it; Alt+Page Up/Down change chapters "
           "everywhere. In the notes and the transcript, Enter plays the episode from a note's time or a line (F2 "
           "edits a note). Change them with Help ▸ Customize Shortcuts…</p>")
HEADING_LINES = 2  # a menu's heading takes about two lines of a column
# Keys that scroll the sheet when it is taller than the window (a 1366 × 768 laptop), instead of closing it
SCROLL_KEYS = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_Home,
                         Qt.Key.Key_End})


Block = tuple[str, list[str]]  # a menu's name and its rows (HTML)
SLACK_LINES = 3  # a column may run this much over the others' height rather than cut a menu
SHORTEST_PIECE = 3  # rows of a menu cut over two columns, at least, on either side of the cut


def in_columns(blocks: list[Block], count: int) -> list[list[Block]]:
    """``blocks`` in order, in ``count`` columns of about the same height. A menu too tall for the room its column
    has left goes on at the top of the next one, under its name and "(continued)": at 1280 × 800 the Playback
    menu alone made the first column run below the window."""
    target = -(-sum(HEADING_LINES + len(rows) for _name, rows in blocks) // count)
    columns: list[list[Block]] = [[]]
    used = 0
    for name, rows in blocks:
        title = name
        while rows:
            room = target - used - HEADING_LINES
            last = len(columns) == count
            if last or len(rows) <= room + SLACK_LINES:
                piece = rows
            elif room >= SHORTEST_PIECE and len(rows) - room >= SHORTEST_PIECE:
                piece = rows[:room]
            else:
                columns.append([])
                used = 0
                continue
            columns[-1].append((title, piece))
            used += HEADING_LINES + len(piece)
            rows, title = rows[len(piece):], f"{name} (continued)"
            if rows:
                columns.append([])
                used = 0
    return columns


class CheatSheet(QWidget):
    """A dimmed overlay covering its parent, with the shortcuts in columns. Any key or click closes it."""

    def __init__(self, menus: dict[str, list[QAction]], parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("cheatSheet")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.menus = menus
        self.panel = QFrame()  # the sheet's card: its heading, and the shortcuts scrolling under it (with their bar)
        self.panel.setObjectName("cheatSheetPanel")
        self.panel.setStyleSheet("QFrame#cheatSheetPanel { background: palette(window); border-radius: 8px; }")
        self.heading = QLabel(HEADING)
        self.heading.setObjectName("cheatSheetHeading")
        self.heading.setWordWrap(True)
        self.text = QLabel()
        self.text.setObjectName("cheatSheetText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.area = scroll = QScrollArea()
        scroll.setWidget(self.text)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # columns are chosen to fit
        scroll.viewport().setAutoFillBackground(False)
        self.text.setAutoFillBackground(False)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        card = QVBoxLayout(self.panel)
        card.setContentsMargins(16, 16, 8, 8)
        card.addWidget(self.heading)
        card.addWidget(scroll, 1)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(60, 40, 60, 40)
        self._layout.addWidget(self.panel)
        self.fill(menus)
        parent.installEventFilter(self)
        self.hide()

    def fill(self, menus: dict[str, list[QAction]], count: int = 3) -> None:
        """List every action that has a shortcut, menu by menu, in ``count`` columns of about the same height (three
        fit a 1280×800 window without scrolling; a narrower one gets fewer, each with its keys)."""
        self.menus = menus
        blocks: list[Block] = []
        for menu, actions in menus.items():
            rows = [f"<tr><td style='padding-right:12px'>{html.escape(label(a.text()))}</td>"
                    f"<td><b>{html.escape(', '.join(s.toString() for s in a.shortcuts()))}</b></td></tr>"
                    for a in actions if a.shortcuts()]
            if rows:
                blocks.append((menu, rows))
        columns = "".join(
            "<td valign='top' style='padding-right:28px'>"
            + "".join(f"<h3>{html.escape(name)}</h3><table>{''.join(rows)}</table>" for name, rows in column)
            + "</td>" for column in in_columns(blocks, count))
        self.text.setText(f"<table><tr>{columns}</tr></table>")

    def _fit_columns(self) -> None:
        """As many columns as the sheet's width shows whole (keys included), at most three."""
        room = self.area.width() - self.area.verticalScrollBar().sizeHint().width()  # the bar may show, or not yet
        for count in (3, 2, 1):
            self.fill(self.menus, count)
            if self.text.sizeHint().width() <= room:
                return

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
        self._layout.activate()
        self._fit_columns()
        self.area.verticalScrollBar().setValue(0)  # opens at its top, whatever was scrolled the last time
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
            self._layout.activate()
            self._fit_columns()
        return super().eventFilter(watched, event)

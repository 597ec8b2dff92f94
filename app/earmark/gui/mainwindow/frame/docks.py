"""The panes beside the item (details, Related, Notes, Transcript, Up next) as dock widgets a person can close,
move, tab together and float; the arrangement is remembered per desktop, and View → Reset Layout brings back
the one they started with."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSize, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QVBoxLayout, QWidget

from earmark.core.records import record

STATE_VERSION = 1  # bumped when the panes change: an older arrangement is then not restored
COLUMN_WIDTH = 380  # the column of panes at 1280 px: readable beside a list that still shows its five columns
HEIGHTS = (310, 230, 170)  # details, the tabbed panes, Up next (at 800 px)


class _Holder(QWidget):
    """Holds a pane in its dock and asks for the room the column should have at first (Qt lays out docks by
    their size hints until the person drags a separator; resizeDocks does not hold)."""

    def __init__(self, pane: QWidget, height: int) -> None:
        super().__init__()
        self._height = height
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(pane)
        self.setFocusProxy(pane)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """The column's width and the pane's row height."""
        return QSize(COLUMN_WIDTH, self._height)


@record(frozen=True)
class Pane:
    """A pane to dock: its name (object names, settings), its title and its widget."""

    name: str
    title: str
    widget: QWidget


class PaneDocks(QObject):
    """Docks ``panes`` on the right of ``window`` in three rows: the first pane on top, the middle ones tabbed
    together (the first of them in front), the last at the bottom."""

    def __init__(self, window: QMainWindow, panes: list[Pane]) -> None:
        super().__init__(window)
        self._window = window
        self.docks: dict[str, QDockWidget] = {}
        self._room_taken: list[QDockWidget] = []  # the docks the reader hid, to show again when it is left
        window.setDockNestingEnabled(True)
        for at, pane in enumerate(panes):
            dock = QDockWidget(pane.title, window)
            dock.setObjectName(f"{pane.name}Dock")
            dock.setWidget(_Holder(pane.widget, HEIGHTS[0 if at == 0 else 2 if at == len(panes) - 1 else 1]))
            dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                             | QDockWidget.DockWidgetFeature.DockWidgetMovable
                             | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
            self.docks[pane.name] = dock
        self.lay_out()

    def lay_out(self) -> None:
        """The arrangement a new window starts with: details on top, the other panes as tabs below it."""
        window, docks = self._window, list(self.docks.values())
        for dock in docks:
            dock.setFloating(False)
            window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            dock.show()
        top, middle, bottom = docks[0], docks[1:-1], docks[-1]
        window.splitDockWidget(top, middle[0], Qt.Orientation.Vertical)
        window.splitDockWidget(middle[0], bottom, Qt.Orientation.Vertical)
        for dock in middle[1:]:
            window.tabifyDockWidget(middle[0], dock)
        middle[0].raise_()
        window.resizeDocks([top, middle[0], bottom], list(HEIGHTS), Qt.Orientation.Vertical)
        window.resizeDocks([top], [COLUMN_WIDTH], Qt.Orientation.Horizontal)

    def connect_view_menu(self, shows: dict[str, QAction], reset: QAction) -> None:
        """Each action of ``shows`` (by pane name) shows its pane, in front of its tabs; ``reset`` lays out."""
        for name, action in shows.items():
            action.triggered.connect(lambda _checked=False, name=name: self.show_pane(name))
        reset.triggered.connect(self.lay_out)

    def show_pane(self, name: str) -> None:
        """Show the pane ``name`` (opened again if it was closed) in front of its tabs, with the focus in it."""
        dock = self.docks[name]
        dock.show()
        dock.raise_()
        dock.widget().setFocus(Qt.FocusReason.ShortcutFocusReason)

    def give_room(self, name: str, wanted: bool) -> None:
        """Hide the pane ``name`` while another view needs its room (the reader, the details' room); show it
        again afterwards if it showed before."""
        dock = self.docks[name]
        if wanted and dock.isVisible():
            dock.hide()
            self._room_taken.append(dock)
        elif not wanted and dock in self._room_taken:
            self._room_taken.remove(dock)
            dock.show()

    def state(self) -> bytes:
        """The arrangement to remember (the room given to a view counts as not given)."""
        for dock in self._room_taken:
            dock.show()
        return bytes(self._window.saveState(STATE_VERSION).data())

    def restore(self, state: object) -> None:
        """Arrange the panes as ``state`` says (kept from an earlier start), if it is one."""
        if isinstance(state, bytes) and state:
            self._window.restoreState(state, STATE_VERSION)
            if self._window.isVisible():  # fitted to panes just built, which settle after: again once they have
                QTimer.singleShot(0, self, lambda: self._restore_settled(state))

    def _restore_settled(self, state: bytes) -> None:
        QApplication.sendPostedEvents()  # the layouts' pending requests first
        self._window.restoreState(state, STATE_VERSION)

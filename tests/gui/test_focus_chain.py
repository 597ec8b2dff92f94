"""The focus chain reads the panes where they are on screen, so Tab keeps the layout's order when panes are dock
widgets that a person moves to the other side, or closes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QListView, QMainWindow, QTextEdit
from pytestqt.qtbot import QtBot

from earmark.gui.focus_chain import FocusChain, Pane

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea


def docked(window: QMainWindow, name: str) -> QDockWidget:
    dock = QDockWidget(name, window)
    dock.setObjectName(f"{name}Dock")
    content = QListView()
    content.setObjectName(name)
    dock.setWidget(content)
    window.addDockWidget(RIGHT, dock)
    return dock


def shown_chain(qtbot: QtBot, window: QMainWindow, central: QTextEdit,
                docks: dict[str, QDockWidget]) -> FocusChain:
    """The focus chain of the central widget and ``docks``, on the window shown and active."""
    chain = FocusChain(window, [Pane("central", lambda: central),
                                *(Pane(name, lambda dock=dock: dock.widget()) for name, dock in docks.items())])
    window.resize(900, 600)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return chain


def tabs_from_central(qtbot: QtBot, window: QMainWindow) -> list[str]:
    """The widgets Tab visits from the central widget until it comes back there."""
    window.centralWidget().setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.centralWidget())
    seen: list[str] = []
    while not seen or seen[-1] != "central":
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget().objectName())
        assert len(seen) < 10, seen
    return seen


def test_tab_follows_docks_where_they_are(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    central = QTextEdit()
    central.setObjectName("central")
    window.setCentralWidget(central)
    docks = {name: docked(window, name) for name in ("details", "related", "queue")}
    chain = shown_chain(qtbot, window, central, docks)
    try:
        assert tabs_from_central(qtbot, window) == ["details", "related", "queue", "central"]
        window.addDockWidget(LEFT, docks["related"])  # the person drags Related to the left of the list
        qtbot.waitUntil(lambda: docks["related"].x() < central.x())
        assert tabs_from_central(qtbot, window) == ["details", "queue", "related", "central"]
        docks["details"].close()  # and closes the details
        assert tabs_from_central(qtbot, window) == ["queue", "related", "central"]
    finally:
        chain.shutdown()


def test_a_pane_tabbed_behind_another_comes_to_the_front(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    central = QTextEdit()
    central.setObjectName("central")
    window.setCentralWidget(central)
    docks = {name: docked(window, name) for name in ("related", "notes")}
    window.tabifyDockWidget(docks["related"], docks["notes"])  # Notes in front, Related behind its tab
    chain = shown_chain(qtbot, window, central, docks)

    def in_front(name: str) -> bool:
        return not docks[name].widget().visibleRegion().isEmpty()

    try:
        qtbot.waitUntil(lambda: in_front("notes") and not in_front("related"))
        chain.focus_pane("related")  # its shortcut
        qtbot.waitUntil(lambda: in_front("related"))
        assert QApplication.focusWidget() is docks["related"].widget()
        visited = tabs_from_central(qtbot, window)
        assert set(visited) == {"related", "notes", "central"}  # Tab reaches both tabs' panes
    finally:
        chain.shutdown()

"""Driving the real window as a person does, and reading what a person sees: which view shows, the rows of the
list, the sidebar's rows. Keys go to the widget that has the keyboard focus; clicks land on the widget's
visible rectangle."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QFileDialog,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QTableView,
    QTreeView,
    QWidget,
)
from pytestqt.qtbot import QtBot

if TYPE_CHECKING:
    from earmark.gui.mainwindow.window import MainWindow
    from helpers.gui import Launch

# The widget each view shows, by object name: the first one visible names the view.
VIEWS = (("welcome", "welcome"), ("itemList", "list"), ("subscriptionsTable", "subscriptions"),
         ("allNotes", "notes"), ("graphView", "graph"), ("reader", "reader"), ("statistics", "statistics"),
         ("podcastGrid", "podcasts"))
PATH_MODE = "Learning path of the selected item"


def showing(window: QMainWindow) -> str:
    """The view the central area shows: welcome, list, subscriptions, notes, graph, path or reader ("" for
    none, "several" when more than one is visible)."""
    shown = [view for name, view in VIEWS if (widget := window.findChild(QWidget, name)) and widget.isVisible()]
    if len(shown) != 1:
        return "several" if shown else ""
    if shown[0] == "graph":
        mode = window.findChild(QComboBox, "graphMode")
        return "path" if mode is not None and mode.currentText() == PATH_MODE else "graph"
    return shown[0]


def wait_showing(qtbot: QtBot, window: QMainWindow, view: str, timeout: int = 5000) -> None:
    """Wait until ``view`` shows (and nothing else)."""
    qtbot.waitUntil(lambda: showing(window) == view, timeout=timeout)


def focused() -> QWidget:
    """The widget with the keyboard focus (a person's keys go there)."""
    widget = QApplication.focusWidget()
    assert widget is not None, "no widget has the keyboard focus"
    return widget


def press(qtbot: QtBot, key: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Press ``key`` (with ``modifiers``) where the keyboard focus is."""
    qtbot.keyClick(focused(), key, modifiers)


def type_text(qtbot: QtBot, text: str) -> None:
    """Type ``text`` where the keyboard focus is."""
    qtbot.keyClicks(focused(), text)


def visible_dialog(kind: type) -> object | None:
    """The shown top-level window of class ``kind`` (a dialog), or None."""
    found = [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]
    return found[0] if found else None


def answer_file_dialog(path: Path) -> None:
    """When a file dialog opens (it runs its own event loop), type ``path`` into its name box and press Enter; again
    if it is still open a second later. The box is found by name, not taken as whatever has the keyboard: on a busy
    machine the dialog showed before its box had the focus, the keys went elsewhere, and a dialog nobody answers
    waits for ever."""
    def choose() -> None:
        dialog = visible_dialog(QFileDialog)
        name = dialog.findChild(QLineEdit, "fileNameEdit") if isinstance(dialog, QFileDialog) else None
        if name is None or not name.isVisible():
            QTimer.singleShot(50, choose)
            return
        name.setFocus()
        name.clear()
        QTest.keyClicks(name, str(path))
        QTest.keyClick(name, Qt.Key.Key_Return)
        QTimer.singleShot(1000, lambda: None if visible_dialog(QFileDialog) is not dialog else choose())

    QTimer.singleShot(50, choose)


def sidebar(window: QMainWindow) -> QTreeView:
    """The sidebar."""
    tree = window.findChild(QTreeView, "sidebar")
    assert tree is not None
    return tree


def sidebar_texts(window: QMainWindow) -> list[str]:
    """The sidebar's rows as shown, top to bottom (expanded rows included)."""
    tree, texts = sidebar(window), []
    index = tree.model().index(0, 0)
    while index.isValid():
        texts.append(str(index.data()))
        index = tree.indexBelow(index)
    return texts


def sidebar_row(window: QMainWindow, text: str) -> QModelIndex:
    """The sidebar row whose text is ``text`` or starts with ``text (`` (the count follows the name)."""
    tree = sidebar(window)
    index = tree.model().index(0, 0)
    while index.isValid():
        shown = str(index.data())
        if shown == text or shown.startswith(f"{text} ("):
            return index
        index = tree.indexBelow(index)
    raise AssertionError(f"no sidebar row {text!r} in {sidebar_texts(window)}")


def click_sidebar(qtbot: QtBot, window: QMainWindow, text: str) -> None:
    """Click the sidebar row ``text`` in the middle of where it is drawn."""
    tree = sidebar(window)
    index = sidebar_row(window, text)
    tree.scrollTo(index)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())


def highlighted_row(window: QMainWindow) -> str:
    """The text of the sidebar's highlighted row ("" for none)."""
    index = sidebar(window).currentIndex()
    return str(index.data()) if index.isValid() else ""


def item_list(window: QMainWindow) -> QTableView:
    """The list of episodes and articles."""
    table = window.findChild(QTableView, "itemList")
    assert table is not None
    return table


def listed_titles(window: QMainWindow) -> list[str]:
    """The titles in the item list, top to bottom."""
    model = item_list(window).model()
    return [str(model.index(row, 0).data()) for row in range(model.rowCount())]


def wait_rows(qtbot: QtBot, window: QMainWindow, count: int, timeout: int = 5000) -> None:
    """Wait until the item list holds ``count`` rows."""
    qtbot.waitUntil(lambda: item_list(window).model().rowCount() == count, timeout=timeout)


def count_of(row: str) -> int:
    """The count a sidebar row shows: "Podcasts (51)" → 51."""
    found = re.search(r"\((\d+)\)$", row)
    assert found, f"no count in {row!r}"
    return int(found.group(1))


def wait_entry_listed(qtbot: QtBot, window: QMainWindow) -> None:
    """Wait until the list holds as many rows as its highlighted sidebar row counts."""
    qtbot.waitUntil(lambda: "(" in highlighted_row(window))
    wait_rows(qtbot, window, count_of(highlighted_row(window)))


def search(qtbot: QtBot, window: QMainWindow, text: str) -> list[str]:
    """Ctrl+F, type ``text``, and wait until the list narrows to what it finds; returns the titles found."""
    before = item_list(window).model().rowCount()
    press(qtbot, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    type_text(qtbot, text)
    qtbot.waitUntil(lambda: 0 < len(listed_titles(window)) < before)
    return listed_titles(window)


def selected_title(window: QMainWindow) -> str:
    """The title in the list's current row."""
    return str(item_list(window).currentIndex().siblingAtColumn(0).data())


def click_row(qtbot: QtBot, view: QAbstractItemView, row: int, double: bool = False) -> None:
    """Click (or double-click) row ``row`` of a list or table where it is drawn."""
    index = view.model().index(row, 0)
    view.scrollTo(index)
    where = view.visualRect(index).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    if double:  # a double click is a click, then the second press (which Qt reports as a double click)
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=where)


def palette_dialog(qtbot: QtBot, command: str, name: str) -> QDialog:
    """``command`` typed into the command palette (Ctrl+K) and Enter; the dialog it opens (its object name), active."""
    press(qtbot, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QDialog))
    palette = QApplication.activeModalWidget()
    assert palette is not None
    palette.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None and focused().window() is palette)
    type_text(qtbot, command)
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: (dialog := QApplication.activeModalWidget()) is not None and dialog.objectName() == name)
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, QDialog)
    dialog.activateWindow()  # the offscreen platform activates no window by itself
    qtbot.waitUntil(dialog.isActiveWindow)
    return dialog


def message_box(qtbot: QtBot, timeout: int = 15_000) -> QMessageBox:
    """The message box shown over the window (waited for)."""
    qtbot.waitUntil(lambda: visible_dialog(QMessageBox) is not None, timeout=timeout)
    box = visible_dialog(QMessageBox)
    assert isinstance(box, QMessageBox)
    return box


def answer(qtbot: QtBot, box: QMessageBox, button: str) -> None:
    """Click the box's button ``button`` (its text without the mnemonic)."""
    [clicked] = [b for b in box.buttons() if b.text().replace("&", "") == button]
    qtbot.mouseClick(clicked, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not box.isVisible())


def graph_shown(qtbot: QtBot, launch: Launch) -> MainWindow:
    """Launch on the sample library and open the topic graph with Ctrl+G; the canvas has the keyboard."""
    from helpers.gui import SAMPLE_ITEMS  # here: helpers.gui builds the app, which the other helpers need not

    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    wait_showing(qtbot, window, "graph")
    qtbot.waitUntil(lambda: len(window.graph.panel.scene.nodes) >= SAMPLE_ITEMS, timeout=30000)
    assert focused() is window.graph.panel.view
    return window


def all_notes_shown(qtbot: QtBot, launch: Launch, notes: int) -> tuple[MainWindow, QTableView]:
    """Launch on the library, open All Notes with Ctrl+Shift+B and wait for its ``notes`` rows: the window and the
    notes' table (the keyboard is in the view's filter)."""
    from helpers.gui import SAMPLE_ITEMS

    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    wait_showing(qtbot, window, "notes")
    table = window.findChild(QTableView, "allNotes")
    assert table is not None
    qtbot.waitUntil(lambda: table.model().rowCount() == notes)
    return window, table

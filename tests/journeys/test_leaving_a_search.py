"""Leaving a smart list or a search for a sidebar entry shows that entry, all of it: the search box is cleared and
the filter bar too. Ctrl+F goes to the search box of the view shown."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QInputDialog, QLineEdit, QMainWindow
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import (
    click_sidebar,
    focused,
    listed_titles,
    press,
    search,
    showing,
    sidebar_texts,
    type_text,
    wait_entry_listed,
    wait_rows,
    wait_showing,
)

CTRL = Qt.KeyboardModifier.ControlModifier
SMART_LIST = "Inductor search"


def search_box(window: QMainWindow) -> QLineEdit:
    box = window.findChild(QLineEdit, "search")
    assert box is not None
    return box


def test_a_smart_list_left_for_all_shows_all(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    found = search(qtbot, window, "inductor")
    press(qtbot, Qt.Key.Key_S, CTRL)  # Save as Smart List
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QInputDialog))
    dialog = QApplication.activeModalWidget()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit)
                    and QApplication.focusWidget().window() is dialog)
    press(qtbot, Qt.Key.Key_A, CTRL)
    type_text(qtbot, SMART_LIST)
    press(qtbot, Qt.Key.Key_Return)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)

    qtbot.waitUntil(lambda: any(row.startswith(f"{SMART_LIST} (") for row in sidebar_texts(window)))
    click_sidebar(qtbot, window, SMART_LIST)
    qtbot.waitUntil(lambda: search_box(window).text() == "inductor" and listed_titles(window) == found)
    click_sidebar(qtbot, window, "All")
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    assert search_box(window).text() == ""


def test_a_search_left_for_a_sidebar_entry_shows_the_entry(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    search(qtbot, window, "inductor")
    favourites = next(box for box in window.findChildren(QCheckBox)
                      if box.isVisible() and "Favourites" in box.accessibleName())  # the box shows "★"
    qtbot.mouseClick(favourites, Qt.MouseButton.LeftButton)  # and the filter bar narrows it further
    qtbot.waitUntil(lambda: listed_titles(window) == [])
    click_sidebar(qtbot, window, "Podcasts")
    wait_entry_listed(qtbot, window)
    assert search_box(window).text() == "" and not favourites.isChecked()
    search(qtbot, window, "inductor")
    click_sidebar(qtbot, window, "Podcasts")  # the entry shown, chosen again: all of it
    wait_entry_listed(qtbot, window)
    assert search_box(window).text() == ""


def test_ctrl_f_goes_to_the_search_box_of_the_view_shown(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    for keys, view, box in (((Qt.Key.Key_G, CTRL), "graph", "graphFind"),
                            ((Qt.Key.Key_B, CTRL | Qt.KeyboardModifier.ShiftModifier), "notes", "notesFilter"),
                            ((Qt.Key.Key_U, CTRL | Qt.KeyboardModifier.ShiftModifier), "subscriptions", "search")):
        press(qtbot, *keys)
        wait_showing(qtbot, window, view)
        press(qtbot, Qt.Key.Key_F, CTRL)
        assert focused().objectName() == box and focused().isVisible()
    assert showing(window) == "list"  # Subscriptions has no search box of its own: the list's is used

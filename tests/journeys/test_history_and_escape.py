"""Back and Forward walk the views visited (Alt+Left/Alt+Right and the mouse's side buttons); Esc returns to the
list as it was left from every view, unless a drop-down list, a dialog or a note being edited is open: then Esc
closes that first."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QDialog, QLineEdit, QTableView, QWidget
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.notes import add_note
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journey_library import ARTICLE
from helpers.journeys import (
    click_row,
    click_sidebar,
    focused,
    highlighted_row,
    item_list,
    listed_titles,
    press,
    search,
    showing,
    type_text,
    wait_rows,
    wait_showing,
)

CTRL, SHIFT, ALT = (Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier,
                    Qt.KeyboardModifier.AltModifier)
PODCAST_EPISODES = 51


def child(window: QWidget, kind: type, name: str) -> QWidget:
    found = window.findChild(kind, name)
    assert found is not None, f"no {kind.__name__} {name!r}"
    return found


def test_back_and_forward_walk_the_views_visited(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_sidebar(qtbot, window, "Podcasts")
    wait_rows(qtbot, window, PODCAST_EPISODES)
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    press(qtbot, Qt.Key.Key_B, CTRL | SHIFT)
    wait_showing(qtbot, window, "notes")

    press(qtbot, Qt.Key.Key_Left, ALT)
    wait_showing(qtbot, window, "graph")
    press(qtbot, Qt.Key.Key_Left, ALT)
    wait_showing(qtbot, window, "list")
    wait_rows(qtbot, window, PODCAST_EPISODES)
    assert highlighted_row(window).startswith("Podcasts (")
    press(qtbot, Qt.Key.Key_Left, ALT)
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    assert highlighted_row(window).startswith("All (")
    press(qtbot, Qt.Key.Key_Left, ALT)  # nothing before: All stays
    assert showing(window) == "list" and highlighted_row(window).startswith("All (")

    press(qtbot, Qt.Key.Key_Right, ALT)
    wait_rows(qtbot, window, PODCAST_EPISODES)
    press(qtbot, Qt.Key.Key_Right, ALT)
    wait_showing(qtbot, window, "graph")
    assert highlighted_row(window) == "Topic Graph"
    press(qtbot, Qt.Key.Key_Right, ALT)
    wait_showing(qtbot, window, "notes")
    press(qtbot, Qt.Key.Key_Right, ALT)  # nothing after
    assert showing(window) == "notes"

    press(qtbot, Qt.Key.Key_Left, ALT)
    press(qtbot, Qt.Key.Key_Left, ALT)
    wait_showing(qtbot, window, "list")
    press(qtbot, Qt.Key.Key_U, CTRL | SHIFT)  # a new way from here: what was ahead is forgotten
    wait_showing(qtbot, window, "subscriptions")
    press(qtbot, Qt.Key.Key_Right, ALT)
    assert showing(window) == "subscriptions"
    press(qtbot, Qt.Key.Key_Left, ALT)
    wait_showing(qtbot, window, "list")
    wait_rows(qtbot, window, PODCAST_EPISODES)


def test_the_mouse_side_buttons_go_back_and_forward(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    graph = child(window, QWidget, "graphView")
    qtbot.mouseClick(graph.viewport(), Qt.MouseButton.BackButton)  # type: ignore[attr-defined]
    wait_showing(qtbot, window, "list")
    qtbot.mouseClick(item_list(window).viewport(), Qt.MouseButton.ForwardButton)
    wait_showing(qtbot, window, "graph")
    qtbot.mouseClick(child(window, QWidget, "sidebar").viewport(), Qt.MouseButton.BackButton)  # type: ignore[attr-defined]
    wait_showing(qtbot, window, "list")


def test_back_shows_a_search_again_and_esc_leaves_the_reader_for_it(qtbot: QtBot, launch: Launch,
                                                                  sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    assert search(qtbot, window, "shanghai") == [ARTICLE]
    click_row(qtbot, item_list(window), 0)
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "reader")
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    box = child(window, QLineEdit, "search")
    assert box.text() == "shanghai" and listed_titles(window) == [ARTICLE]  # the list as it was left
    assert focused() is item_list(window)
    click_sidebar(qtbot, window, "Podcasts")
    wait_rows(qtbot, window, PODCAST_EPISODES)
    assert box.text() == ""
    press(qtbot, Qt.Key.Key_Left, ALT)
    wait_showing(qtbot, window, "list")
    qtbot.waitUntil(lambda: listed_titles(window) == [ARTICLE])
    assert box.text() == "shanghai"
    press(qtbot, Qt.Key.Key_Left, ALT)
    wait_showing(qtbot, window, "reader")


@pytest.mark.parametrize("keys", [(Qt.Key.Key_G, CTRL), (Qt.Key.Key_G, CTRL | SHIFT), (Qt.Key.Key_U, CTRL | SHIFT),
                                  (Qt.Key.Key_B, CTRL | SHIFT)], ids=["graph", "path", "subscriptions", "notes"])
def test_esc_returns_to_the_list_as_it_was_left(qtbot: QtBot, launch: Launch, sample: None,
                                               keys: tuple[Qt.Key, Qt.KeyboardModifier]) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_sidebar(qtbot, window, "Podcasts")
    wait_rows(qtbot, window, PODCAST_EPISODES)
    found = search(qtbot, window, "inductor")
    press(qtbot, Qt.Key.Key_Return)  # from the search box to the list
    press(qtbot, Qt.Key.Key_Down)
    chosen = item_list(window).currentIndex().row()
    press(qtbot, *keys)
    qtbot.waitUntil(lambda: showing(window) not in ("list", ""))
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    assert listed_titles(window) == found and item_list(window).currentIndex().row() == chosen
    assert highlighted_row(window).startswith("Podcasts (")
    assert focused() is item_list(window)


def test_esc_closes_a_drop_down_list_first(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_B, CTRL | SHIFT)
    wait_showing(qtbot, window, "notes")
    tags = [combo for combo in window.findChild(QWidget, "notesView").findChildren(QComboBox)
            if combo.accessibleName() == "Tag"][0]
    qtbot.mouseClick(tags, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None)
    qtbot.keyClick(QApplication.activePopupWidget(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)
    assert showing(window) == "notes"
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")


def test_esc_closes_a_dialog_first(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_Down)  # an episode: its podcast's settings
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    press(qtbot, Qt.Key.Key_T, CTRL | SHIFT)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QDialog))
    dialog = QApplication.activeModalWidget()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None and QApplication.focusWidget().window() is dialog)
    press(qtbot, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert showing(window) == "graph"


def test_esc_ends_editing_a_note_first(qtbot: QtBot, launch: Launch, sample: None, library_path) -> None:  # noqa: ANN001
    db = open_library(library_path)
    add_note(db, 1, "First thought", 12.0)
    db.close()
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_B, CTRL | SHIFT)
    wait_showing(qtbot, window, "notes")
    table = child(window, QTableView, "allNotes")
    qtbot.waitUntil(lambda: table.model().rowCount() == 1)
    text_column = next(column for column in range(table.model().columnCount())
                       if table.model().index(0, column).data() == "First thought")
    cell = table.visualRect(table.model().index(0, text_column)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    press(qtbot, Qt.Key.Key_End)
    type_text(qtbot, " changed")
    press(qtbot, Qt.Key.Key_Escape)  # the edit is dropped, the view stays
    qtbot.waitUntil(lambda: not isinstance(QApplication.focusWidget(), QLineEdit))
    assert showing(window) == "notes" and table.model().index(0, text_column).data() == "First thought"
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")


def test_back_to_an_entry_deleted_meanwhile_shows_all(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_sidebar(qtbot, window, "meetup")
    wait_rows(qtbot, window, 1)
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    click_sidebar(qtbot, window, "newsletter")
    wait_rows(qtbot, window, 1)
    press(qtbot, Qt.Key.Key_Delete)  # the keyboard is in the sidebar: the tag goes from every item
    qtbot.waitUntil(lambda: highlighted_row(window).startswith("All ("))  # its list is gone: All shows
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_sidebar(qtbot, window, "meetup")
    press(qtbot, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: highlighted_row(window).startswith("All ("))
    press(qtbot, Qt.Key.Key_Left, ALT)  # the history still holds meetup, now gone
    qtbot.waitUntil(lambda: showing(window) == "list" and highlighted_row(window).startswith("All ("))
    wait_rows(qtbot, window, SAMPLE_ITEMS)

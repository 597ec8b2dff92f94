"""A restart shows the view the window closed on, never a dead end, and per library: a new or empty library
opens on its welcome screen whatever another library showed last."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QTextBrowser
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.smart_lists import delete_smart_list, list_smart_lists
from earmark.gui.mainwindow.window import MainWindow
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journey_library import ARTICLE, SMART_LIST
from helpers.journeys import (
    click_row,
    click_sidebar,
    highlighted_row,
    item_list,
    listed_titles,
    press,
    sidebar_texts,
    wait_entry_listed,
    wait_rows,
    wait_showing,
)

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def quit_window(qtbot: QtBot, window: MainWindow) -> None:
    press(qtbot, Qt.Key.Key_Q, CTRL)
    assert not window.isVisible()


@pytest.mark.parametrize(("row", "view"), [("PyTorch Developer Podcast", "list"), (SMART_LIST, "list"),
                                           ("inductor", "list"), ("Notes", "notes"), ("Subscriptions", "subscriptions"),
                                           ("Topic Graph", "graph")])
def test_a_restart_shows_the_view_the_window_closed_on(qtbot: QtBot, launch: Launch, every_view: None, row: str,
                                                      view: str) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_sidebar(qtbot, window, row)
    wait_showing(qtbot, window, view)
    if view == "list":
        wait_entry_listed(qtbot, window)
    shown = listed_titles(window)
    quit_window(qtbot, window)

    again = launch().window
    wait_showing(qtbot, again, view)
    qtbot.waitUntil(lambda: highlighted_row(again).split(" (")[0] == row)
    if view == "list":
        qtbot.waitUntil(lambda: listed_titles(again) == shown)
    press(qtbot, Qt.Key.Key_Escape)  # and it is no dead end
    wait_showing(qtbot, again, "list")


def test_quitting_in_the_learning_path_comes_back_to_the_graph_and_esc_leaves(qtbot: QtBot, launch: Launch,
                                                                             sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_G, CTRL | SHIFT)
    wait_showing(qtbot, window, "path")
    quit_window(qtbot, window)

    again = launch().window
    wait_showing(qtbot, again, "graph")  # a learning path needs its item chosen again: the graph shows
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, again, "list")
    wait_rows(qtbot, again, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    wait_showing(qtbot, again, "graph")


def test_quitting_in_the_reader_reopens_the_article_and_esc_leaves_it(qtbot: QtBot, launch: Launch,
                                                                     sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(ARTICLE))
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "reader")
    quit_window(qtbot, window)

    again = launch().window
    wait_showing(qtbot, again, "reader")
    reader = again.findChild(QTextBrowser, "reader")
    assert reader is not None
    qtbot.waitUntil(lambda: "Shanghai" in reader.toPlainText(), timeout=10000)
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, again, "list")
    wait_rows(qtbot, again, SAMPLE_ITEMS)


def test_a_smart_list_deleted_meanwhile_opens_all(qtbot: QtBot, launch: Launch, every_view: None,
                                                  library_path: Path) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_sidebar(qtbot, window, SMART_LIST)
    qtbot.waitUntil(lambda: window.findChild(QLineEdit, "search").text() == "inductor")
    quit_window(qtbot, window)
    db = open_library(library_path)  # another program (the command line) deletes it
    delete_smart_list(db, list_smart_lists(db)[0].id)
    db.close()

    again = launch().window
    wait_rows(qtbot, again, SAMPLE_ITEMS)
    assert highlighted_row(again).startswith("All (")
    assert again.findChild(QLineEdit, "search").text() == ""


def test_the_view_is_kept_per_library_and_a_new_library_opens_on_its_welcome_screen(
        qtbot: QtBot, launch: Launch, sample: None, tmp_path: Path) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    quit_window(qtbot, window)

    new = launch(tmp_path / "new.db").window  # earmark --library NEW
    wait_showing(qtbot, new, "welcome")
    assert sidebar_texts(new)[0] == "All (0)" and highlighted_row(new) == "All (0)"
    quit_window(qtbot, new)

    again = launch().window  # the first library still opens where it was left
    wait_showing(qtbot, again, "graph")


def test_an_empty_library_opens_on_its_welcome_screen_whatever_it_showed_last(qtbot: QtBot, launch: Launch,
                                                                              tmp_path: Path) -> None:
    path = tmp_path / "emptied.db"
    window = launch(path).window
    wait_showing(qtbot, window, "welcome")
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    quit_window(qtbot, window)

    again = launch(path).window
    wait_showing(qtbot, again, "welcome")

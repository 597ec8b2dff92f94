"""Keyboard only, the search box: Esc clears the query and a second Esc goes to the list, Down moves into the
results, a search that finds nothing empties the details pane, and clearing a search keeps the item selected
(issue 17)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QTextBrowser
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import (
    focused,
    item_list,
    listed_titles,
    press,
    search,
    selected_title,
    type_text,
    wait_rows,
)

CTRL = Qt.KeyboardModifier.ControlModifier


def details(window) -> str:  # type: ignore[no-untyped-def]
    pane = window.findChild(QTextBrowser, "detailPane")
    assert pane is not None
    return pane.toPlainText()


def test_esc_clears_the_query_then_goes_to_the_list(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    found = search(qtbot, window, "inductor")
    box = window.findChild(QLineEdit, "search")
    assert len(found) < SAMPLE_ITEMS and focused() is box
    press(qtbot, Qt.Key.Key_Escape)
    assert box.text() == "" and focused() is box
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_Escape)
    assert focused() is item_list(window)


def test_down_moves_into_the_results(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    found = search(qtbot, window, "inductor")
    press(qtbot, Qt.Key.Key_Down)
    assert focused() is item_list(window)
    assert selected_title(window) in found
    press(qtbot, Qt.Key.Key_Down)
    assert selected_title(window) == found[1]  # the list's own Down moves on from there


def test_nothing_found_shows_no_item_and_clearing_keeps_the_selection(qtbot: QtBot, launch: Launch,
                                                                      sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    found = search(qtbot, window, "inductor")
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Down)
    chosen = selected_title(window)
    assert chosen == found[1] and chosen in details(window)
    press(qtbot, Qt.Key.Key_F, CTRL)
    type_text(qtbot, "zzqxnothing")
    wait_rows(qtbot, window, 0)
    qtbot.waitUntil(lambda: chosen not in details(window))
    press(qtbot, Qt.Key.Key_F, CTRL)
    type_text(qtbot, "inductor")
    qtbot.waitUntil(lambda: listed_titles(window) == found)
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Down)
    assert selected_title(window) == chosen
    press(qtbot, Qt.Key.Key_F, CTRL)
    press(qtbot, Qt.Key.Key_Escape)  # clears the search
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    qtbot.waitUntil(lambda: selected_title(window) == chosen)
    assert chosen in details(window)

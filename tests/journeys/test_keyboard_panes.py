"""Keyboard only, between the panes: Tab and Shift+Tab move from pane to pane in layout order (never from cell to
cell of a list), F6 and Shift+F6 cycle the panes, and each pane has a shortcut of its own (issue 17)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QTableView, QTextBrowser, QWidget
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.notes import add_note
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import (
    all_notes_shown,
    click_row,
    focused,
    highlighted_row,
    item_list,
    listed_titles,
    press,
    wait_rows,
    wait_showing,
)
from helpers.keyboard import collapse, focused_pane

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
# The panes of the list view in the order they are laid out, starting from the list: the right-hand column top to
# bottom, the player bar across the window, then the sidebar and the search box above the list.
LAYOUT_ORDER = ["list", "details", "related", "notes", "transcript", "up next", "player", "sidebar", "search",
                "filters"]
EPISODE = "Compiler collectives"
PANE_KEYS = [(Qt.Key.Key_2, "details"), (Qt.Key.Key_3, "related"), (Qt.Key.Key_4, "notes"),
             (Qt.Key.Key_6, "up next"), (Qt.Key.Key_7, "player"), (Qt.Key.Key_8, "sidebar"),
             (Qt.Key.Key_1, "list")]


@pytest.fixture
def noted(library_path: Path, sample: None) -> None:
    """An episode of the sample library has a note (its notes pane is not empty)."""
    db = open_library(library_path)
    episode = db.execute("SELECT id FROM items WHERE title = ?", [EPISODE]).fetchone()[0]
    add_note(db, episode, "A note to tab past", at=12.0)
    db.close()


def started(qtbot: QtBot, launch: Launch) -> QMainWindow:
    """The window, the episode with the note clicked in the list."""
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(EPISODE))
    assert focused() is item_list(window)
    transcript = window.findChild(QWidget, "transcriptPane")
    qtbot.waitUntil(lambda: transcript.model.rowCount() > 0)  # the sample's transcript is shown: Tab stops there too
    return window


def walk(qtbot: QtBot, key: Qt.Key, modifiers: Qt.KeyboardModifier, presses: int) -> list[str]:
    visited = [focused_pane()]
    for _press in range(presses):
        press(qtbot, key, modifiers)
        visited.append(focused_pane())
    return collapse(visited)


def test_tab_moves_between_the_panes_in_layout_order(qtbot: QtBot, launch: Launch, noted: None) -> None:
    window = started(qtbot, launch)
    table = item_list(window)
    row = table.currentIndex().row()
    visited = walk(qtbot, Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier, 60)
    assert visited[:len(LAYOUT_ORDER) + 1] == [*LAYOUT_ORDER, "list"]
    assert table.currentIndex().row() == row  # Tab never moved inside the list


def test_shift_tab_walks_back_and_never_flips_inside_the_notes(qtbot: QtBot, launch: Launch, noted: None) -> None:
    window = started(qtbot, launch)
    notes = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: notes.model().rowCount() == 1)
    visited = walk(qtbot, Qt.Key.Key_Tab, SHIFT, 60)
    backwards = [LAYOUT_ORDER[0], *reversed(LAYOUT_ORDER[1:])]
    assert visited[:len(backwards) + 1] == [*backwards, "list"]


def test_f6_and_shift_f6_cycle_the_panes(qtbot: QtBot, launch: Launch, noted: None) -> None:
    started(qtbot, launch)
    panes = [pane for pane in LAYOUT_ORDER if pane != "filters"]  # F6 goes to panes, not to each control
    forward = walk(qtbot, Qt.Key.Key_F6, Qt.KeyboardModifier.NoModifier, len(panes))
    assert forward == [*panes, "list"]
    backward = walk(qtbot, Qt.Key.Key_F6, SHIFT, len(panes))
    assert backward == ["list", *reversed(panes[1:]), "list"]


def test_each_pane_has_its_shortcut(qtbot: QtBot, launch: Launch, noted: None) -> None:
    started(qtbot, launch)
    for key, pane in PANE_KEYS:
        press(qtbot, key, CTRL)
        assert focused_pane() == pane, f"Ctrl+{key.name[-1]}"
    press(qtbot, Qt.Key.Key_F, CTRL)
    assert focused_pane() == "search"


def test_enter_on_a_sidebar_entry_puts_the_keyboard_in_its_view(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    for row, view, pane in (("Podcasts", "list", "list"), ("Topic Graph", "graph", "view"),
                            ("Subscriptions", "subscriptions", "view")):
        press(qtbot, Qt.Key.Key_8, CTRL)
        assert focused_pane() == "sidebar"
        press(qtbot, Qt.Key.Key_Home)
        for _step in range(100):
            if highlighted_row(window).startswith(row):
                break
            press(qtbot, Qt.Key.Key_Down)
        press(qtbot, Qt.Key.Key_Return)
        wait_showing(qtbot, window, view)
        assert focused_pane() == pane, f"Enter on {row}: the keyboard is in {focused_pane()}"


def test_tab_visits_the_links_of_the_details_before_leaving(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(EPISODE))
    details = window.findChild(QTextBrowser, "detailPane")
    qtbot.waitUntil(lambda: EPISODE in details.toPlainText())
    press(qtbot, Qt.Key.Key_2, CTRL)
    links = []
    for _press in range(10):
        press(qtbot, Qt.Key.Key_Tab)
        if focused_pane() != "details":
            break
        links.append(details.textCursor().selectedText())
    assert "Open the page" in links and "Pull request introducing compiler collectives" in links
    assert focused_pane() == "related"
    press(qtbot, Qt.Key.Key_Tab, SHIFT)
    assert focused_pane() == "details"


def test_the_shortcuts_sheet_lists_every_pane_key(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_Question)
    sheet = window.findChild(QLabel, "cheatSheetText")
    qtbot.waitUntil(lambda: sheet is not None and sheet.isVisible())
    shown = re.sub(r"<[^>]+>", " ", sheet.text())
    for action, keys in (("Go to the View Shown", "Ctrl+1"), ("Go to Details", "Ctrl+2"), ("Go to Related", "Ctrl+3"),
                         ("Go to Notes", "Ctrl+4"), ("Go to the Player Bar", "Ctrl+7"), ("Go to Sidebar", "Ctrl+8"),
                         ("Next Pane", "F6"), ("Previous Pane", "Shift+F6")):
        assert re.search(rf"{re.escape(action)}\s+{re.escape(keys)}", shown), action


def test_tab_from_the_notes_filter_leads_into_the_notes(qtbot: QtBot, launch: Launch, noted: None) -> None:
    """All Notes puts the keyboard in its filter; Tab goes on through the view's own choices to the notes (it went
    to the Details pane, the notes out of reach), Shift+Tab comes back the same way."""
    _window, notes = all_notes_shown(qtbot, launch, 1)
    filter_box = focused()
    assert filter_box.objectName() == "notesFilter"
    visited = [filter_box]
    for _press in range(3):
        press(qtbot, Qt.Key.Key_Tab)
        visited.append(focused())
    assert visited[-1] is notes
    assert [w.accessibleName() for w in visited[1:-1]] == ["Tag", "Source"]  # the view's choices, in reading order
    for _press in range(3):
        press(qtbot, Qt.Key.Key_Tab, SHIFT)
    assert focused() is filter_box

"""Every view to every other view and back, once by keys and once by the sidebar: the list in each sidebar
section (All, Podcasts, one podcast, a tag, Continue listening, Downloaded, Archive, a smart list), the topic
graph, the learning path, Subscriptions, Notes, Statistics, My Podcasts and the reader. Each arrival is checked by
what shows: the view, the highlighted sidebar row, and as many rows in the list as that row's count says."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QMainWindow, QTextBrowser
from pytestqt.exceptions import TimeoutError as WaitTimedOut
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journey_library import ARCHIVED, ARTICLE, DOWNLOADED, SMART_LIST, STARTED
from helpers.journeys import (
    click_row,
    click_sidebar,
    highlighted_row,
    item_list,
    listed_titles,
    press,
    selected_title,
    showing,
    wait_entry_listed,
    wait_rows,
    wait_showing,
)

CTRL, SHIFT, ALT = (Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier,
                    Qt.KeyboardModifier.AltModifier)
LIST_ROWS = ("All", "Podcasts", "PyTorch Developer Podcast", "inductor", "Continue listening", "Downloaded",
             "Archive", SMART_LIST)
SHOWS = {row: "list" for row in LIST_ROWS} | {"Topic Graph": "graph", "learning path": "path",
                                               "Subscriptions": "subscriptions", "Notes": "notes",
                                               "Statistics": "statistics", "My Podcasts": "podcasts",
                                               "reader": "reader"}
VIEWS = tuple(SHOWS)
ONLY = {"Continue listening": [STARTED], "Downloaded": [DOWNLOADED], "Archive": [ARCHIVED]}  # what they list
GO_KEYS = {"Continue listening": (Qt.Key.Key_L, CTRL | SHIFT), "Downloaded": (Qt.Key.Key_D, CTRL | ALT),
           "Topic Graph": (Qt.Key.Key_G, CTRL), "learning path": (Qt.Key.Key_G, CTRL | SHIFT),
           "Subscriptions": (Qt.Key.Key_U, CTRL | SHIFT), "Notes": (Qt.Key.Key_B, CTRL | SHIFT),
           "Statistics": (Qt.Key.Key_I, CTRL | SHIFT), "My Podcasts": (Qt.Key.Key_P, CTRL | SHIFT)}


def check(qtbot: QtBot, window: QMainWindow, view: str, step: str) -> None:
    """``check_view``, saying which step of the walk failed and what showed instead."""
    try:
        check_view(qtbot, window, view)
    except (AssertionError, WaitTimedOut) as exc:
        raise AssertionError(f"{step}: {view} expected; showing {showing(window)!r}, sidebar row "
                             f"{highlighted_row(window)!r}, {len(listed_titles(window))} rows listed") from exc


def check_view(qtbot: QtBot, window: QMainWindow, view: str) -> None:
    """``view`` shows: for a list, its row highlighted, the search box empty (a smart list's own search in it)
    and as many rows as the row counts."""
    wait_showing(qtbot, window, SHOWS[view])
    if view in LIST_ROWS:
        qtbot.waitUntil(lambda: highlighted_row(window).startswith(f"{view} ("))
        wait_entry_listed(qtbot, window)
        if view in ONLY:
            qtbot.waitUntil(lambda: listed_titles(window) == ONLY[view])
        search = window.findChild(QLineEdit, "search")
        assert search is not None and search.isVisible()
        assert search.text() == ("inductor" if view == SMART_LIST else "")
    elif view == "reader":
        reader = window.findChild(QTextBrowser, "reader")
        assert reader is not None
        qtbot.waitUntil(lambda: "Shanghai" in reader.toPlainText(), timeout=10000)


def by_sidebar(qtbot: QtBot, window: QMainWindow, view: str) -> None:
    """Click the view's sidebar row. The learning path has none: Ctrl+Shift+G shows it; an article is opened
    from the list: All, then a double click on the article."""
    if view == "learning path":
        press(qtbot, *GO_KEYS[view])
    elif view == "reader":
        click_sidebar(qtbot, window, "All")
        wait_rows(qtbot, window, SAMPLE_ITEMS)
        click_row(qtbot, item_list(window), listed_titles(window).index(ARTICLE), double=True)
    else:
        click_sidebar(qtbot, window, view)


def walk_sidebar_to(qtbot: QtBot, window: QMainWindow, row: str) -> None:
    """Ctrl+8 puts the keyboard in the sidebar; Home, then Down to the row (each row shows at once); Enter."""
    press(qtbot, Qt.Key.Key_8, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, Qt.Key.Key_Home)
    for _step in range(100):
        if highlighted_row(window).startswith(f"{row} ("):
            break
        press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Return)


def by_keys(qtbot: QtBot, window: QMainWindow, view: str) -> None:
    """The view's Go shortcut where it has one, else the sidebar by the keyboard; an article opens from All
    with Return."""
    if view in GO_KEYS:
        press(qtbot, *GO_KEYS[view])
    elif view == "reader":
        walk_sidebar_to(qtbot, window, "All")
        wait_rows(qtbot, window, SAMPLE_ITEMS)
        press(qtbot, Qt.Key.Key_Home)
        qtbot.waitUntil(lambda: selected_title(window) == ARTICLE)
        press(qtbot, Qt.Key.Key_Return)
    else:
        walk_sidebar_to(qtbot, window, view)


@pytest.mark.parametrize("means", [by_keys, by_sidebar], ids=["keys", "sidebar"])
def test_every_view_to_every_other_and_back(qtbot: QtBot, launch: Launch, every_view: None,
                                            means: Callable[[QtBot, QMainWindow, str], None]) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    walked = []
    for start in VIEWS:
        means(qtbot, window, start)
        check(qtbot, window, start, f"to {start}")
        for other in VIEWS:
            if other == start:
                continue
            means(qtbot, window, other)
            check(qtbot, window, other, f"from {start} to {other}")
            means(qtbot, window, start)
            check(qtbot, window, start, f"from {other} back to {start}")
            walked.append((start, other))
    assert len(walked) == len(VIEWS) * (len(VIEWS) - 1)
    assert showing(window) == SHOWS[VIEWS[-1]]

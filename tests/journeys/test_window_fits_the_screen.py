"""No view grows the window beyond a 1280-pixel screen: the graph, the learning path, a graph node double-clicked,
a long title playing, Notes, Subscriptions and the reader all fit the window as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.gui.mainwindow.window import MainWindow
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, item_list, listed_titles, press, wait_rows, wait_showing
from helpers.podcast import Episode, write_podcast

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
SCREEN = 1280
LONG_TITLE = " ".join(["A very long episode title that keeps going"] * 7)
LONG_PODCAST = " ".join(["A podcast whose name goes on"] * 5)


@pytest.fixture
def long_titles(library_path: Path, tmp_path: Path, sample: None) -> None:
    """The sample library and a podcast whose name and episode title are far wider than the screen."""
    feed = write_podcast(tmp_path / "cast", [Episode(LONG_TITLE, 3.0)], title=LONG_PODCAST)
    subscribe(open_library(library_path), str(feed))


def node_point(qtbot: QtBot, window: MainWindow, title: str) -> QPoint:
    """Where the graph draws the node of ``title`` (once drawn; brought into view first)."""
    view, scene = window.graph.panel.view, window.graph.panel.scene
    qtbot.waitUntil(lambda: any(item.node.title == title for item in scene.nodes.values()), timeout=30000)
    node = next(item for item in scene.nodes.values() if item.node.title == title)
    view.centerOn(node)
    return view.mapFromScene(node.pos())


def test_no_view_grows_the_window_past_the_screen(qtbot: QtBot, launch: Launch, long_titles: None) -> None:
    window = launch().window
    window.resize(SCREEN, 800)
    wait_rows(qtbot, window, SAMPLE_ITEMS + 1)
    widths: dict[str, int] = {}

    def measure(step: str) -> None:
        qtbot.wait(50)  # a grown minimum size reaches the window with the next layout pass
        widths[step] = max(window.width(), window.minimumSizeHint().width())

    measure("the list")
    click_row(qtbot, item_list(window), listed_titles(window).index(LONG_TITLE))
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: LONG_TITLE in window.player_bar.title.text(), timeout=8000)
    measure("a long title playing")
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    target = "Compiler collectives"
    where = node_point(qtbot, window, target)
    measure("the graph")
    qtbot.mouseDClick(window.graph.panel.view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    qtbot.waitUntil(lambda: target in window.player_bar.title.text(), timeout=8000)
    measure("a graph node double-clicked")
    press(qtbot, Qt.Key.Key_G, CTRL | SHIFT)
    wait_showing(qtbot, window, "path")
    path = window.findChild(QLabel, "pathLabel")  # the learning path in words, once worked out
    qtbot.waitUntil(lambda: path.isVisible() and bool(path.text()), timeout=30000)
    measure("the learning path")
    press(qtbot, Qt.Key.Key_B, CTRL | SHIFT)
    wait_showing(qtbot, window, "notes")
    measure("Notes")
    press(qtbot, Qt.Key.Key_U, CTRL | SHIFT)
    wait_showing(qtbot, window, "subscriptions")
    measure("Subscriptions")
    assert {step: width for step, width in widths.items() if width > SCREEN} == {}
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    click_row(qtbot, item_list(window), listed_titles(window).index("PyTorch Shanghai Meetup Notes"))
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "reader")
    measure("the reader")
    assert {step: width for step, width in widths.items() if width > SCREEN} == {}

"""A podcast whose name is longer than the sidebar and the list's Source column are wide: where it is cut short
("A podcast whose name go…"), the mouse resting on it shows it whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QAbstractItemView, QApplication, QToolTip
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.sources import record_failure
from earmark.core.feeds.subscribe import subscribe
from earmark.core.feeds.subscriptions import record_subscription
from earmark.gui.models.items import COL_SOURCE
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import sidebar, sidebar_row, wait_rows
from helpers.podcast import Episode, write_podcast

LONG_PODCAST = "A podcast whose name goes on and on about compilers, kernels and the people who write them"


@pytest.fixture
def long_name(library_path: Path, tmp_path: Path, sample: None) -> None:
    feed = write_podcast(tmp_path / "cast", [Episode("Short episode", 3.0)], title=LONG_PODCAST)
    subscribe(open_library(library_path), str(feed))


def tooltip_at(qtbot: QtBot, view: QAbstractItemView, where: QPoint) -> str:
    """What shows when the mouse rests at ``where`` in the view (Qt's tooltip event, as the pointer makes it)."""
    QToolTip.hideText()
    event = QHelpEvent(QEvent.Type.ToolTip, where, view.viewport().mapToGlobal(where))
    QApplication.sendEvent(view.viewport(), event)
    qtbot.wait(50)
    return QToolTip.text() if QToolTip.isVisible() else ""


def test_a_long_podcast_name_shows_whole_where_the_mouse_rests(qtbot: QtBot, launch: Launch,
                                                               long_name: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS + 1)
    tree = sidebar(window)
    qtbot.waitUntil(lambda: sidebar_row(window, f"{LONG_PODCAST} (1)").isValid())
    row = sidebar_row(window, f"{LONG_PODCAST} (1)")
    rect = tree.visualRect(row)
    assert tree.fontMetrics().horizontalAdvance(row.data()) > rect.width()  # cut short in the sidebar
    assert tooltip_at(qtbot, tree, rect.center()) == f"{LONG_PODCAST} (1)"
    table, model = window.item_list, window.items_model
    episode = next(r for r in range(model.rowCount()) if model.item_at(r).source == LONG_PODCAST)
    table.scrollTo(table.model().index(episode, COL_SOURCE))
    cell = table.visualRect(table.model().index(episode, COL_SOURCE))
    assert table.fontMetrics().horizontalAdvance(LONG_PODCAST) > cell.width()  # cut short in its column
    assert tooltip_at(qtbot, table, cell.center()) == LONG_PODCAST


def test_the_sidebar_says_how_many_feeds_fail_in_full(qtbot: QtBot, launch: Launch, library_path: Path,
                                                      sample: None) -> None:
    db = open_library(library_path)
    record_subscription(db, "http://127.0.0.1:9/retired.xml", "Retired Show")
    record_failure(db, "http://127.0.0.1:9/retired.xml", "The connection was refused.")
    db.close()
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    tree = sidebar(window)
    qtbot.waitUntil(lambda: sidebar_row(window, "Subscriptions (1 failing)").isValid())
    row = sidebar_row(window, "Subscriptions (1 failing)")
    assert tree.sizeHintForIndex(row).width() <= tree.visualRect(row).width()  # at 190 px: "Subscriptions (1 faili…"

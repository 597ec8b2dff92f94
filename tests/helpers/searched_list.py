"""The sample library's list in a window of a given size while a search is shown: the Match column out and laid
out beside the columns the list sizes (item_table's WIDTHS), and whether they all fit without scrolling."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView
from pytestqt.qtbot import QtBot

from earmark.gui.models.items import COL_MATCH
from earmark.gui.views.item_table import WIDTHS
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import item_list, search, wait_rows

SIZED = tuple(column for column, _width in WIDTHS)  # Source, Published, Duration, Progress


def searched_list(qtbot: QtBot, launch: Launch, size: tuple[int, int], text: str) -> QTableView:
    """Start the window at ``size``, search the sample library for ``text`` (Ctrl+F, typed), and return the list
    once its Match column shows."""
    window = launch().window
    window.resize(*size)
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    search(qtbot, window, text)
    table = item_list(window)
    qtbot.waitUntil(lambda: not table.horizontalHeader().isSectionHidden(COL_MATCH))
    qtbot.wait(100)  # the header lays out its sections
    return table


def fits(table: QTableView) -> bool:
    """Every shown column ends inside the list: no horizontal scrollbar."""
    return table.horizontalHeader().length() <= table.viewport().width() + 1 and \
        not table.horizontalScrollBar().isVisible()

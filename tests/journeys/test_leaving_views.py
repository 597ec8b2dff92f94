"""Leaving every view: Esc returns to the list, and so does the sidebar."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from helpers.gui import Launch
from helpers.journeys import click_sidebar, press, showing, wait_rows, wait_showing

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
SAMPLE_ITEMS = 54


def test_esc_and_the_sidebar_leave_the_graph(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    click_sidebar(qtbot, window, "All")
    wait_showing(qtbot, window, "list")
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    assert showing(window) == "list"

"""The learning path says why each step comes first: an item chosen in the list, Ctrl+Shift+G, and the path's
steps name the concept the item builds on ("AOTAutograd (explains AOTAutograd)"), in full where the mouse rests;
back in the list, the Related pane says the same of the step (issue 39)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListView
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import focused, item_list, press, search, selected_title, wait_rows, wait_showing

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def related_rows(view: QListView) -> list[str]:
    """The Related pane's rows as drawn: title, then the reasons."""
    model = view.model()
    return [str(model.index(row, 0).data()) for row in range(model.rowCount())]


def test_a_path_names_the_concept_each_step_explains(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    search(qtbot, window, "partitioner")
    press(qtbot, Qt.Key.Key_Down)
    assert focused() is item_list(window) and selected_title(window) == "Min-cut partitioner"
    press(qtbot, Qt.Key.Key_G, CTRL | SHIFT)
    wait_showing(qtbot, window, "path")
    label = window.findChild(QLabel, "pathLabel")
    assert label is not None
    qtbot.waitUntil(lambda: label.isVisible() and "Learning path:" in label.text(), timeout=30000)
    assert "AOTAutograd (explains AOTAutograd)" in label.text()
    assert label.text().endswith("Min-cut partitioner")
    assert "AOTAutograd: explains AOTAutograd, which “Min-cut partitioner” builds on" in label.toolTip()

    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    related = window.findChild(QListView, "relatedList")
    assert related is not None
    qtbot.waitUntil(lambda: any(row.startswith("AOTAutograd") for row in related_rows(related)), timeout=30000)
    [row] = [row for row in related_rows(related) if row.startswith("AOTAutograd")]
    assert "explains AOTAutograd" in row

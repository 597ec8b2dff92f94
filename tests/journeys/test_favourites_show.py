"""F on an episode: a star shows on its row and in its details at once; F again takes it away (issue 37,
finding 12: "Marked 1 item as favourite." and nothing to see)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.gui.models.items import COL_PROGRESS
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, item_list, press, selected_title, wait_rows


def test_f_puts_a_star_on_the_row_and_in_the_details(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    table = item_list(window)
    click_row(qtbot, table, 2)
    title = selected_title(window)
    qtbot.waitUntil(lambda: title in window.detail.toPlainText())
    progress = table.model().index(2, COL_PROGRESS)
    assert "★" not in str(progress.data() or "") and "★" not in window.detail.toPlainText()
    assert not table.isColumnHidden(COL_PROGRESS)

    press(qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: "★" in str(table.model().index(2, COL_PROGRESS).data() or ""))
    qtbot.waitUntil(lambda: f"{title} ★" in window.detail.toPlainText())
    assert "favourite" in str(table.model().index(2, COL_PROGRESS).data(Qt.ItemDataRole.ToolTipRole))

    press(qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: "★" not in str(table.model().index(2, COL_PROGRESS).data() or ""))
    qtbot.waitUntil(lambda: "★" not in window.detail.toPlainText())

"""The list fits at 1280×800: while searching, the Match column fits beside the others (no horizontal scrollbar,
the title and the match both readable); the Published fields show a whole date."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from earmark.gui.models.items import COL_MATCH, COL_TITLE
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import press, type_text, wait_rows
from helpers.searched_list import fits, searched_list


def test_the_match_column_fits_without_a_horizontal_scrollbar(qtbot: QtBot, launch: Launch, sample: None) -> None:
    table = searched_list(qtbot, launch, (1280, 800), "inductor")
    header = table.horizontalHeader()
    assert fits(table)
    assert header.sectionSize(COL_MATCH) >= 140 and header.sectionSize(COL_TITLE) >= 140


def test_the_published_fields_show_a_whole_date(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    window.resize(1280, 800)
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    for name in ("Published on or after (YYYY-MM-DD)", "Published on or before (YYYY-MM-DD)"):
        field = next(edit for edit in window.findChildren(QLineEdit) if edit.accessibleName() == name)
        assert field.isVisible()
        field.setFocus()
        press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        type_text(qtbot, "2024-01-01")
        shown = field.width() - 2 * field.fontMetrics().height()  # the clear button and the frame take this
        assert field.fontMetrics().horizontalAdvance("2024-01-01") <= shown, (name, field.width())

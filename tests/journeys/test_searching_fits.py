"""While searching, the Match column fits beside the others: no horizontal scrollbar at 1280×800, the title and
the match both readable."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from earmark.gui.models.items import COL_MATCH, COL_TITLE
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import item_list, search, wait_rows


def test_the_match_column_fits_without_a_horizontal_scrollbar(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    window.resize(1280, 800)
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    search(qtbot, window, "inductor")
    table = item_list(window)
    header = table.horizontalHeader()
    qtbot.waitUntil(lambda: not header.isSectionHidden(COL_MATCH))
    qtbot.wait(100)  # the header lays out its sections
    assert not table.horizontalScrollBar().isVisible()
    assert header.sectionSize(COL_MATCH) >= 140 and header.sectionSize(COL_TITLE) >= 140
    assert header.length() <= table.viewport().width() + 1

"""Search results in a 1366×768 window: the Match column ends inside the list, and a snippet too long for it is
cut with "…" where words go, its first match in view, the whole snippet in the cell's tooltip (issue 37,
finding 9: "title: Compiled autogra" ran out of the list). In a 1024×600 window the snippet still gets a readable
width (it had 90 px: Progress, Duration and Published step aside while searching, and come back after)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetricsF, QTextDocument
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from earmark.gui.models.items import COL_MATCH, COL_SOURCE, COL_TITLE, SnippetRole
from earmark.gui.views.match_delegate import snippet_html
from helpers.gui import Launch
from helpers.journeys import press
from helpers.searched_list import SIZED, fits, searched_list

READABLE = 30  # characters of a snippet a person reads at once, at the least


def shown_width(html: str, font: QFont) -> float:
    document = QTextDocument()
    document.setDefaultFont(font)
    document.setDocumentMargin(0)
    document.setHtml(html)
    return document.idealWidth()


def test_snippets_fit_the_match_column(qtbot: QtBot, launch: Launch, sample: None) -> None:
    table = searched_list(qtbot, launch, (1366, 768), "autograd")
    header = table.horizontalHeader()
    right = header.sectionViewportPosition(COL_MATCH) + header.sectionSize(COL_MATCH)
    assert right <= table.viewport().width(), f"the Match column ends at {right} of {table.viewport().width()}"
    assert fits(table)

    model, cut = table.model(), 0
    for row in range(model.rowCount()):
        index = model.index(row, COL_MATCH)
        snippet = index.data(SnippetRole)
        if snippet is None:
            continue
        whole = f"{snippet.where}: {snippet.marked('', '')}"
        assert index.data(Qt.ItemDataRole.ToolTipRole) == whole  # the whole snippet where the pointer rests
        option = QStyleOptionViewItem()
        option.initFrom(table)
        option.rect = table.visualRect(index)
        text_rect = table.style().subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, table)
        bold = QFont(table.font())
        bold.setBold(True)
        html = snippet_html(snippet, text_rect.width(), QFontMetricsF(bold))  # what the Match cell paints
        assert shown_width(html, table.font()) <= text_rect.width() + 1, f"row {row}: {whole!r} runs out"
        assert "<b>" in html, f"row {row}: the matched words are cut off: {html!r}"
        cut += "…</" in html or html.endswith("…")
    assert cut, "no snippet was long enough to be cut: the journey proves nothing"


def test_a_snippet_is_readable_in_a_small_window(qtbot: QtBot, launch: Launch, sample: None) -> None:
    table = searched_list(qtbot, launch, (1024, 600), "autograd")
    header = table.horizontalHeader()
    readable = table.fontMetrics().averageCharWidth() * READABLE
    assert header.sectionSize(COL_MATCH) >= readable, f"{header.sectionSize(COL_MATCH)} px of {readable}"
    assert header.sectionSize(COL_TITLE) >= readable * 2 // 3
    assert not header.isSectionHidden(COL_SOURCE)
    assert fits(table)
    index = table.model().index(0, COL_MATCH)
    shown = table.visualRect(index)
    assert shown.width() >= readable and table.viewport().rect().contains(shown.center())  # where a person sees it

    press(qtbot, Qt.Key.Key_Escape)  # the search left: the list's columns as they were
    qtbot.waitUntil(lambda: header.isSectionHidden(COL_MATCH))
    assert not any(header.isSectionHidden(column) for column in SIZED)

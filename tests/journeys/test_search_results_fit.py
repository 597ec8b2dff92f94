"""Search results in a 1366×768 window: the Match column ends inside the list, and a snippet too long for it is
cut with "…" where words go, its first match in view, the whole snippet in the cell's tooltip (issue 37,
finding 9: "title: Compiled autogra" ran out of the list)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetricsF, QTextDocument
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from earmark.gui.models.items import COL_MATCH, SnippetRole
from earmark.gui.views.match_delegate import snippet_html
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import item_list, search, wait_rows


def shown_width(html: str, font: QFont) -> float:
    document = QTextDocument()
    document.setDefaultFont(font)
    document.setDocumentMargin(0)
    document.setHtml(html)
    return document.idealWidth()


def test_snippets_fit_the_match_column(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    window.resize(1366, 768)
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    search(qtbot, window, "autograd")
    table = item_list(window)
    header = table.horizontalHeader()
    qtbot.waitUntil(lambda: not header.isSectionHidden(COL_MATCH))
    right = header.sectionViewportPosition(COL_MATCH) + header.sectionSize(COL_MATCH)
    assert right <= table.viewport().width(), f"the Match column ends at {right} of {table.viewport().width()}"
    assert not table.horizontalScrollBar().isVisible()

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

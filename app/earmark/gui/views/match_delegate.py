"""Paints a search result's snippet: the field that matched, then the words around it, matches in bold, cut with
"…" where the column is too narrow for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyledItemDelegate, QStyleOptionViewItem

from earmark.gui.models.items import SnippetRole

if TYPE_CHECKING:  # the search's module loads with the first search (a start shows its list before any)
    from earmark.core.db.search import Snippet


def snippet_html(snippet: Snippet, width: float | None = None, metrics: QFontMetricsF | None = None) -> str:
    """The snippet as one line of HTML: field name in grey, matched words in bold. Given a ``width`` (and the
    ``metrics`` of the bold font, the wider), words are cut before the first match (when it would not show) and
    at the end, "…" showing where (the row's tooltip holds the whole snippet)."""
    import html  # with the first search result (its entity tables are ~1.5 ms of a start otherwise)

    from earmark.core.db.search import CLOSE, OPEN

    text = snippet.text
    if width is not None and metrics is not None:
        room = width - metrics.horizontalAdvance(f"{snippet.where}: ") - metrics.horizontalAdvance("…")
        if metrics.horizontalAdvance(snippet.marked("", "")) > room + metrics.horizontalAdvance("…"):
            plain = lambda t: t.replace(OPEN, "").replace(CLOSE, "")  # noqa: E731 - what the cell shows
            while 0 < text.find(" ") < text.find(OPEN) and metrics.horizontalAdvance(
                    plain(text[:text.find(CLOSE) + 1])) > room:  # the first match in view: words before it go
                text = "…" + text[text.find(" ") + 1:]
            while text and metrics.horizontalAdvance(text.replace(OPEN, "").replace(CLOSE, "")) > room:
                text = text[:-1]
            text = text.rstrip() + ("" if text.count(OPEN) <= text.count(CLOSE) else CLOSE) + "…"
    text = html.escape(text).replace(OPEN, "<b>").replace(CLOSE, "</b>")
    return f"<span style='color:gray'>{html.escape(snippet.where)}:</span> {text}"


class MatchDelegate(QStyledItemDelegate):
    """For the Match column; other data is painted as usual. (QStyle and the text document's classes are named when
    a match is first painted: their Python types, with their many enums, cost ~8 ms to make, which a start showing
    the list need not pay.)"""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        snippet = index.data(SnippetRole)  # a Snippet, or None (no search, or no match in this row's texts)
        if snippet is None:
            super().paint(painter, option, index)
            return
        self.initStyleOption(option, index)
        option.text = ""
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawControl(QtWidgets.QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        document = QtGui.QTextDocument()
        document.setDefaultFont(option.font)
        document.setDocumentMargin(0)
        rect = style.subElementRect(QtWidgets.QStyle.SubElement.SE_ItemViewItemText, option, option.widget)
        bold = QFont(option.font)
        bold.setBold(True)
        document.setHtml(snippet_html(snippet, rect.width(), QFontMetricsF(bold)))
        context = QtGui.QAbstractTextDocumentLayout.PaintContext()
        selected = bool(option.state & QtWidgets.QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, option.palette.color(role))
        painter.save()
        painter.translate(rect.left(), rect.top() + (rect.height() - document.size().height()) / 2)
        painter.setClipRect(QRectF(0, 0, rect.width(), rect.height()))
        document.documentLayout().draw(painter, context)
        painter.restore()

"""Paints a search result's snippet: the field that matched, then the words around it, matches in bold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyledItemDelegate, QStyleOptionViewItem

from earmark.gui.models.items import SnippetRole

if TYPE_CHECKING:  # the search's module loads with the first search (a start shows its list before any)
    from earmark.core.db.search import Snippet


def snippet_html(snippet: Snippet) -> str:
    """The snippet as one line of HTML: field name in grey, matched words in bold."""
    import html  # with the first search result (its entity tables are ~1.5 ms of a start otherwise)

    from earmark.core.db.search import CLOSE, OPEN

    text = html.escape(snippet.text).replace(OPEN, "<b>").replace(CLOSE, "</b>")
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
        document.setHtml(snippet_html(snippet))
        context = QtGui.QAbstractTextDocumentLayout.PaintContext()
        selected = bool(option.state & QtWidgets.QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, option.palette.color(role))
        rect = style.subElementRect(QtWidgets.QStyle.SubElement.SE_ItemViewItemText, option, option.widget)
        painter.save()
        painter.translate(rect.left(), rect.top() + (rect.height() - document.size().height()) / 2)
        painter.setClipRect(QRectF(0, 0, rect.width(), rect.height()))
        document.documentLayout().draw(painter, context)
        painter.restore()

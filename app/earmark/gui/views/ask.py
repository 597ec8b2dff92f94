"""The Ask view: a question field, a line saying how answers are found, and the answers, each a passage with
the question's words in bold. Keys: typing asks; Down goes to the answers, Up from the first back to the field;
Enter opens the current answer (from the field: the first). Signals: ``question_changed(str)``,
``chosen(object)`` (the Answer to open)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from earmark.core.passages.ask import Answer
from earmark.gui.models.answers import AnswerRole, AnswersModel, HtmlRole

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class _HtmlDelegate(QStyledItemDelegate):
    """Paints a row's HTML (the answer's title, where, and its text with the marked words), wrapped."""

    def _document(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QTextDocument:
        document = QTextDocument()
        document.setDefaultFont(option.font)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        document.setDefaultStyleSheet(f"body {{ color: {option.palette.color(role).name()}; }}")
        html = str(index.data(HtmlRole))
        document.setHtml(f"<body>{html.replace('color:gray', 'font-style:italic') if selected else html}</body>")
        document.setTextWidth(max(200, option.rect.width() - 8))
        return document

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        self.initStyleOption(option, index)
        text_option = QStyleOptionViewItem(option)
        text_option.text = ""
        style = option.widget.style() if option.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, text_option, painter, option.widget)
        painter.save()
        painter.translate(option.rect.left() + 4, option.rect.top() + 2)
        self._document(option, index).drawContents(painter)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        self.initStyleOption(option, index)
        width = option.widget.viewport().width() if isinstance(option.widget, QListView) else 600
        option.rect.setWidth(width)
        document = self._document(option, index)
        return QSize(width, int(document.size().height()) + 6)


class AskView(QWidget):
    """The question, how answers are found, and the answers."""

    question_changed = Signal(str)
    chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("askView")
        self.field = QLineEdit()
        self.field.setObjectName("askQuestion")
        self.field.setPlaceholderText("Ask the library: a question, or a phrase you half remember")
        self.field.setAccessibleName("Question")
        self.field.setClearButtonEnabled(True)
        self.status = QLabel("")
        self.status.setObjectName("askStatus")
        self.status.setWordWrap(True)
        self.model = AnswersModel()
        self.answers = QListView()
        self.answers.setObjectName("askAnswers")
        self.answers.setAccessibleName("Answers")
        self.answers.setAccessibleDescription("The passages that answer the question, best first; Enter plays the "
                                              "episode from the moment it is said, or shows the paragraph or note")
        self.answers.setModel(self.model)
        self.answers.setItemDelegate(_HtmlDelegate(self.answers))
        self.answers.setWordWrap(True)
        self.answers.setUniformItemSizes(False)
        self.answers.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.field)
        layout.addWidget(self.status)
        layout.addWidget(self.answers, 1)
        self.field.textChanged.connect(self.question_changed)
        self.field.installEventFilter(self)
        self.answers.installEventFilter(self)
        self.answers.activated.connect(self._open)

    def show_answers(self, question: str, answers: list[Answer], status: str) -> None:
        """The answers to ``question`` (those of an older question are not shown). Asked again (the index followed
        the library meanwhile), the answer the person is on stays the current one while it is still an answer."""
        if question != self.field.text():
            return
        on = self.answers.currentIndex().data(AnswerRole) if self.model.question == question else None
        self.model.set_answers(question, answers)
        if self.model.rowCount():
            row = next((row for row, answer in enumerate(answers) if on is not None and _same(answer, on)), 0)
            self.answers.setCurrentIndex(self.model.index(row))
        self.status.setText(status)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        key = event.key()
        if watched is self.field:
            if key == Qt.Key.Key_Down and self.model.rowCount():
                self.answers.setFocus()
                self.answers.setCurrentIndex(self.model.index(0))
                return True
            if key in _ENTER and self.model.rowCount():
                self._open(self.model.index(0))
                return True
        elif watched is self.answers:
            if key == Qt.Key.Key_Up and self.answers.currentIndex().row() <= 0:
                self.field.setFocus()
                return True
            if key in _ENTER and self.answers.currentIndex().isValid():
                self._open(self.answers.currentIndex())
                return True
        return False

    def _open(self, index: QModelIndex) -> None:
        answer = index.data(AnswerRole)
        if answer is not None:
            self.chosen.emit(answer)


def _same(one: Answer, other: Answer) -> bool:
    """Whether two answers are one passage (its score moves as the index grows)."""
    return (one.item_id, one.source, one.at, one.offset, one.note_id) == (
        other.item_id, other.source, other.at, other.offset, other.note_id)

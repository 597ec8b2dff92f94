"""The answers to a question, one row each: title and moment, then the passage with the question's words marked."""

from __future__ import annotations

import html

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from earmark.core.passages.ask import Answer
from earmark.core.passages.words import marks, question_words
from earmark.core.timefmt import format_clock

AnswerRole = Qt.ItemDataRole.UserRole + 1
HtmlRole = Qt.ItemDataRole.UserRole + 2
SOURCES = {"transcript": "said", "show_notes": "show notes", "article": "article", "note": "note"}


def answer_html(answer: Answer, question: str) -> str:
    """The answer as HTML: its title and where, then its text with the question's words in bold."""
    words = question_words(question)
    text, parts, last = answer.text, [], 0
    for start, end in marks(text, words):
        parts += [html.escape(text[last:start]), f"<b>{html.escape(text[start:end])}</b>"]
        last = end
    parts.append(html.escape(text[last:]))
    where = f" at {format_clock(answer.at)}" if answer.at is not None else ""
    return (f"<b>{html.escape(answer.title)}</b> <span style='color:gray'>{SOURCES[answer.source]}{where}</span>"
            f"<br>{''.join(parts)}")


def answer_line(answer: Answer) -> str:
    """The answer as one plain line (what a screen reader says)."""
    where = f" at {format_clock(answer.at)}" if answer.at is not None else ""
    return f"{answer.title}, {SOURCES[answer.source]}{where}: {answer.text}"


class AnswersModel(QAbstractListModel):
    """Holds the answers shown (a few dozen at most); replaced whole by each question's answers."""

    def __init__(self) -> None:
        super().__init__()
        self._answers: list[Answer] = []
        self._question = ""

    def set_answers(self, question: str, answers: list[Answer]) -> None:
        self.beginResetModel()
        self._question, self._answers = question, list(answers)
        self.endResetModel()

    @property
    def question(self) -> str:
        """The question the answers shown answer."""
        return self._question

    def answer(self, row: int) -> Answer | None:
        return self._answers[row] if 0 <= row < len(self._answers) else None

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's
        return 0 if parent.isValid() else len(self._answers)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        answer = self.answer(index.row()) if index.isValid() else None
        if answer is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return answer_line(answer)
        if role == HtmlRole:
            return answer_html(answer, self._question)
        if role == AnswerRole:
            return answer
        return None

"""A passage of an item's text (an answer of Ask: its words as they were cut from the saved text) found in the
text a view renders (the reader's article, the show notes in the details), selected, and held at the top of the
view while its layout settles."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QTextEdit

from earmark.core.articles.anchor import find_text

PASSAGE_START_WORDS = 8  # a passage not found as a whole (rendered otherwise) is found by its first words


def select_passage(view: QTextEdit, text: str) -> int | None:
    """Select the passage ``text`` in ``view``, found by its words, else by its first words (then its whole
    paragraph is selected); where it starts, or None when the view does not hold it."""
    plain, words = view.document().toPlainText(), text.split()
    span = find_text(plain, text)
    whole = span is not None
    if span is None and len(words) > PASSAGE_START_WORDS:
        span = find_text(plain, " ".join(words[:PASSAGE_START_WORDS]))
    if span is None:
        return None
    block = view.document().findBlock(span[0])
    cursor = QTextCursor(view.document())
    cursor.setPosition(span[1] if whole else max(span[1], block.position() + block.length() - 1))
    cursor.setPosition(span[0], QTextCursor.MoveMode.KeepAnchor)  # the cursor at its start: kept in view
    view.setTextCursor(cursor)
    return span[0]


def block_top(view: QTextEdit, position: int) -> int:
    """Where the paragraph holding ``position`` starts, in the view's scrolling."""
    block = view.document().findBlock(position)
    return round(view.document().documentLayout().blockBoundingRect(block).top())


class PassageHold:
    """Shows a passage in ``view``: selected, its paragraph ``margin`` pixels below the top of the view, kept there
    as the layout settles (the text laid out anew when shown or resized) until the person scrolls or ``release``."""

    def __init__(self, view: QTextEdit, margin: int) -> None:
        self._view, self._margin = view, margin
        self.at: int | None = None  # where the passage held starts
        self._placing = False
        bar = view.verticalScrollBar()
        bar.rangeChanged.connect(lambda _low, _high: self._place())
        bar.valueChanged.connect(self._scrolled)

    def show(self, text: str) -> bool:
        """Select ``text`` and hold it at the top; False when the view does not hold it."""
        self.at = select_passage(self._view, text)
        self._place()
        return self.at is not None

    def release(self) -> None:
        """Hold nothing (another text shows)."""
        self.at = None

    def _place(self) -> None:
        if self.at is None:
            return
        self._placing = True
        try:
            self._view.verticalScrollBar().setValue(block_top(self._view, self.at) - self._margin)
        finally:
            self._placing = False

    def _scrolled(self, _value: int) -> None:
        if not self._placing:
            self.at = None  # the person scrolled away from it

"""The notes model: notes of one item (the notes pane) or of the library (the Notes view), text editable."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from earmark.core.models import Note
from earmark.core.timefmt import format_clock
from earmark.gui.theme import accents

COL_AT, COL_TEXT, COL_ITEM, COL_SOURCE, COL_CREATED = range(5)
HEADERS = ("Time", "Note", "Item", "Source", "Taken")
NoteIdRole = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex


def time_label(note: Note) -> str:
    """``[1:05]`` for a note at a time, nothing for a note on the whole item."""
    return f"[{format_clock(note.at)}]" if note.at is not None else ""


class NoteTableModel(QAbstractTableModel):
    """Notes as read by a worker (an item's few, or the library's, filtered in SQL), replaced by ``populate``.

    Signal: ``text_edited(int, str, str)``: note id, old text, new text, after the user edited a note in place
    (the model shows the new text at once; the caller stores it).
    """

    text_edited = Signal(int, str, str)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._notes: list[Note] = []

    def populate(self, notes: list[Note]) -> None:
        """Show ``notes``."""
        self.beginResetModel()
        self._notes = list(notes)
        self.endResetModel()

    def note_at(self, row: int) -> Note | None:
        """The note shown in ``row``."""
        return self._notes[row] if 0 <= row < len(self._notes) else None

    def row_of(self, note_id: int) -> int | None:
        """The row showing the note with this id."""
        return next((row for row, note in enumerate(self._notes) if note.id == note_id), None)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._notes)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section] if 0 <= section < len(HEADERS) else None
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        return flags | Qt.ItemFlag.ItemIsEditable if index.isValid() and index.column() == COL_TEXT else flags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        note = self.note_at(index.row()) if index.isValid() else None
        if note is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole and column == COL_TEXT and note.is_highlight:
            return f"“{note.quote}”" + (f"\n{note.text}" if note.text else "")  # the highlighted words, the note
        if role == Qt.ItemDataRole.DisplayRole and column == COL_TEXT and (note.quote or note.chapter):
            quote = f"\n“{note.quote}”" if note.quote else ""  # the transcript's words under the note
            return f"{note.text}{quote}" + (f"\nin “{note.chapter}”" if note.chapter else "")
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return _display(note, column)
        if role == NoteIdRole:
            return note.id
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == COL_AT and note.at is not None:
                return "Click to play from here"
            return f"“{note.quote}”" if note.quote else None
        if role == Qt.ItemDataRole.ForegroundRole and column == COL_AT:
            return QApplication.palette().color(QPalette.ColorRole.Link)  # times are links: a click plays
        if role == Qt.ItemDataRole.BackgroundRole and column == COL_TEXT and note.is_highlight:
            return QColor(accents().highlight)  # highlights of an article, as the reader marks them
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)  # times beside the first line
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        note = self.note_at(index.row()) if index.isValid() else None
        if note is None or index.column() != COL_TEXT or role != Qt.ItemDataRole.EditRole:
            return False
        new = str(value).strip()
        if new == note.text:
            return False
        old, note.text = note.text, new
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole])
        self.text_edited.emit(note.id, old, new)
        return True


def _display(note: Note, column: int) -> str:
    if column == COL_AT:
        return time_label(note)
    if column == COL_TEXT:
        return note.text
    if column == COL_ITEM:
        return note.item_title
    if column == COL_SOURCE:
        return note.source or ""
    return note.created[:16].replace("T", " ")

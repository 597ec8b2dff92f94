"""The transcript model: an episode's timed lines, the one being spoken marked."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from earmark.core.models import Transcript
from earmark.core.timefmt import format_clock

StartRole = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex
_CURRENT_BACKGROUND = QColor("#fff1b8")


class TranscriptModel(QAbstractListModel):
    """One row per transcript line: ``m:ss  Speaker: text``. ``set_position`` moves the mark."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._transcript: Transcript | None = None
        self.current: int | None = None

    def set_transcript(self, transcript: Transcript | None) -> None:
        """Show ``transcript`` (None: nothing)."""
        self.beginResetModel()
        self._transcript = transcript
        self.current = None
        self.endResetModel()

    def set_position(self, seconds: float) -> bool:
        """Mark the line spoken at ``seconds``; True when the mark moved."""
        row = self._transcript.index_at(seconds) if self._transcript else None
        if row == self.current:
            return False
        previous, self.current = self.current, row
        for changed in (previous, row):
            if changed is not None:
                index = self.index(changed, 0)
                self.dataChanged.emit(index, index, [Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.FontRole])
        return True

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() or self._transcript is None else len(self._transcript.cues)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if self._transcript is None or not index.isValid() or not 0 <= index.row() < len(self._transcript.cues):
            return None
        cue = self._transcript.cues[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            speaker = f"{cue.speaker}: " if cue.speaker else ""
            return f"{format_clock(cue.start)}  {speaker}{cue.text}"
        if role == StartRole:
            return cue.start
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"Click to play from {format_clock(cue.start)}"
        if index.row() == self.current:
            if role == Qt.ItemDataRole.BackgroundRole:
                return _CURRENT_BACKGROUND
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                return font
        return None

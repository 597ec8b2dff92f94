"""The notes pane beside the item: its notes with their times, and the line where a new note is typed."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from earmark.core.models import Note
from earmark.core.timefmt import format_clock
from earmark.gui.models.notes import COL_AT, COL_TEXT, NoteTableModel
from earmark.gui.views.in_sight import bring_forward
from earmark.gui.views.note_table import note_table

EPISODE_HINT = "B adds one at the playing position"
ARTICLE_HINT = "H highlights the words selected in the reader"


class NoteEditor(QLineEdit):
    """The line a new note is typed in. Return, Esc and leaving it all keep the note.

    Signal: ``done()`` once, when typing is over.
    """

    done = Signal()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) \
                and event.key() == Qt.Key.Key_Escape:
            event.accept()  # Esc ends the note here instead of triggering the window's "Go to List"
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Escape, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.done.emit()
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if self.isVisible():
            self.done.emit()


class NotesPane(QWidget):
    """One item's notes in the episode's order, and the draft line for a new note.

    Signals: ``seek_requested(int, float)`` (item id, seconds) when a time is clicked; ``draft_done(int,
    object, str)`` (item id, seconds or None, text) when typing a new note is over, text maybe empty.
    """

    seek_requested = Signal(int, float)
    draft_done = Signal(int, object, str)

    def __init__(self, delete: QAction, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notesPane")
        self.item_id: int | None = None
        self.hint = EPISODE_HINT  # what the title line suggests for the item shown
        self.title = QLabel("Notes")
        self.title.setObjectName("notesTitle")
        self.title.setWordWrap(True)  # a narrow pane wraps the hint rather than widening the window
        self.model = NoteTableModel(self)
        self.table = note_table(self.model, (COL_AT, COL_TEXT), delete)
        self.table.setObjectName("itemNotes")
        self.table.setAccessibleName("Notes on this item")
        self.table.horizontalHeader().hide()
        self.table.clicked.connect(self._on_clicked)
        self.draft_time = QLabel()
        self.editor = NoteEditor()
        self.editor.setObjectName("noteEditor")
        self.editor.setAccessibleName("New note")
        self.editor.setPlaceholderText("Type your note; Return or Esc keeps it")
        self.editor.done.connect(self._finish_draft)
        self.draft = QWidget()
        draft_layout = QHBoxLayout(self.draft)
        draft_layout.setContentsMargins(0, 0, 0, 0)
        draft_layout.addWidget(self.draft_time)
        draft_layout.addWidget(self.editor, 1)
        self.draft.hide()
        self._draft_target: tuple[int, float | None] | None = None
        self._focus_after: QWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.draft)
        layout.addWidget(self.table, 1)

    def show_notes(self, item_id: int | None, title: str, notes: list[Note]) -> None:
        """Show an item's notes (None: no item)."""
        self.item_id = item_id
        count = f" ({len(notes)})" if notes else ""
        self.title.setText(f"<b>Notes{count}</b>" + (f" — {self.hint}" if item_id else ""))
        self.title.setToolTip(title)
        self.model.populate(notes)
        self.table.resizeRowsToContents()

    def select_note(self, note_id: int) -> bool:
        """Make the note current (the table scrolls to it), in sight (the pane in front of its tabs), with the
        keyboard on it; False when the pane does not list it."""
        row = self.model.row_of(note_id)
        if row is None:
            return False
        bring_forward(self)
        self.table.selectRow(row)
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def start_draft(self, item_id: int, at: float | None, focus_after: QWidget | None) -> None:
        """Open the line for a new note on ``item_id`` at ``at`` seconds, and put the keyboard there."""
        self.finish_draft()
        self._draft_target = (item_id, at)
        self._focus_after = focus_after
        self.draft_time.setText(f"[{format_clock(at)}]" if at is not None else "[whole item]")
        self.editor.clear()
        bring_forward(self)
        self.draft.show()
        self.editor.setFocus()

    def finish_draft(self) -> None:
        """End typing, if a note is being typed (it is kept, or discarded when empty)."""
        if self._draft_target is not None:
            self._finish_draft()

    def _finish_draft(self) -> None:
        target, self._draft_target = self._draft_target, None
        if target is None:
            return
        text = self.editor.text()
        self.draft.hide()
        if self._focus_after is not None and self._focus_after.isVisible():
            self._focus_after.setFocus()
        self.draft_done.emit(target[0], target[1], text)

    def _on_clicked(self, index: QModelIndex) -> None:
        note = self.model.note_at(index.row())
        if index.column() == COL_AT and note is not None and note.at is not None:
            self.seek_requested.emit(note.item_id, note.at)

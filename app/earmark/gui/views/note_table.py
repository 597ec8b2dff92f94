"""The table of notes shared by the notes pane and the Notes view: the text edited in place (F2, a double-click),
and Return or Enter on a note going to its place, as clicking its time does, for a person on the keyboard."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from earmark.gui.models.notes import COL_AT, COL_CREATED, COL_ITEM, COL_SOURCE, COL_TEXT, NoteTableModel
from earmark.gui.views.current_row import CurrentRow

GO_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class NoteTable(QTableView):
    """Signal: ``note_chosen(object)`` with the current Note when Return or Enter is pressed on a note with a
    place to go to: a time in its episode, or a highlight in its article. On a note without one (on the whole
    item) Return edits its text, as F2 does; while a note is edited Return keeps the edit, as always."""

    note_chosen = Signal(object)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        model = self.model()
        index = self.currentIndex()
        note = model.note_at(index.row()) if isinstance(model, NoteTableModel) and index.isValid() else None
        if event.key() not in GO_KEYS or note is None or self.state() == QAbstractItemView.State.EditingState:
            super().keyPressEvent(event)
            return
        if note.at is not None or note.is_highlight:
            self.note_chosen.emit(note)
        else:
            self.edit(index)
        event.accept()


def note_table(model: NoteTableModel, columns: tuple[int, ...], delete: QAction) -> NoteTable:
    """A table of notes showing ``columns``; the text is edited in place (double-click or F2)."""
    table = NoteTable()
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
    table.setShowGrid(False)
    table.setAlternatingRowColors(True)
    table.setWordWrap(True)
    table.verticalHeader().hide()
    table.horizontalHeader().setSectionResizeMode(COL_TEXT, QHeaderView.ResizeMode.Stretch)
    table.horizontalHeader().setSectionResizeMode(COL_AT, QHeaderView.ResizeMode.ResizeToContents)
    for column in (COL_AT, COL_TEXT, COL_ITEM, COL_SOURCE, COL_CREATED):
        table.setColumnHidden(column, column not in columns)
    table.addAction(delete)
    table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    CurrentRow(table)
    table.selectionModel().currentChanged.connect(lambda current, _old: _text_cell(table, current))
    return table


def _text_cell(table: QTableView, current: QModelIndex) -> None:
    """The current cell is a note's text, so F2 edits it whichever cell the keys or a click came to (Left and
    Right are player keys: they cannot move between cells)."""
    if current.isValid() and current.column() != COL_TEXT:
        table.setCurrentIndex(current.siblingAtColumn(COL_TEXT))

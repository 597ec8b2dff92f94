"""The Notes view: every note in the library, newest first, filtered by text, tag and source."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QVBoxLayout, QWidget

from earmark.core.db.notes import NoteFilter
from earmark.core.models import Note, Source
from earmark.gui.models.notes import COL_AT, COL_CREATED, COL_ITEM, COL_SOURCE, COL_TEXT, NoteTableModel
from earmark.gui.views.current_row import into_rows
from earmark.gui.views.note_table import note_table

FILTER_DELAY_MS = 150
COMBO_LETTERS = 12  # the width of the tag and source lists, in letters
# The most of the table's width the item's title and the source take (less when they are shorter): the note's
# text, what the view is for, keeps the rest (at 1366 px beside the docks it was a third, wrapped line by line).
ITEM_SHARE, SOURCE_SHARE = 0.18, 0.10


class NotesView(QWidget):
    """A table over a NoteTableModel with filters; the window's controller reads the notes.

    Signals: ``filter_changed(object)`` with the NoteFilter to show; ``note_selected(object)`` with the current
    Note (or None); ``seek_requested(int, float)`` when a time is clicked.
    """

    filter_changed = Signal(object)
    note_selected = Signal(object)
    seek_requested = Signal(int, float)

    def __init__(self, delete: QAction, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notesView")
        self.model = NoteTableModel(self)
        self.summary = QLabel()
        self.text = QLineEdit()
        self.text.setObjectName("notesFilter")
        self.text.setAccessibleName("Filter notes")
        self.text.setPlaceholderText("Filter notes by text")
        self.text.setClearButtonEnabled(True)
        self.text.returnPressed.connect(self._to_notes)
        self.text.installEventFilter(self)
        self.tag = QComboBox()
        self.tag.setAccessibleName("Tag")
        self.source = QComboBox()
        self.source.setAccessibleName("Source")
        for combo in (self.tag, self.source):  # a long podcast name or tag must not widen the window
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(COMBO_LETTERS)
        self.set_choices([], [])
        self.table = note_table(self.model, (COL_CREATED, COL_ITEM, COL_AT, COL_TEXT, COL_SOURCE), delete)
        self.table.setObjectName("allNotes")
        self.table.setAccessibleName("All notes")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(COL_ITEM, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COL_CREATED, QHeaderView.ResizeMode.ResizeToContents)
        header.moveSection(header.visualIndex(COL_CREATED), 0)
        header.moveSection(header.visualIndex(COL_ITEM), 1)
        self.table.clicked.connect(self._on_clicked)
        self.table.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self.note_selected.emit(self.model.note_at(current.row())))
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FILTER_DELAY_MS)
        self._timer.timeout.connect(lambda: self.filter_changed.emit(self.note_filter()))
        self.text.textChanged.connect(self._timer.start)
        self.tag.activated.connect(self._timer.start)
        self.source.activated.connect(self._timer.start)
        filters = QHBoxLayout()
        filters.addWidget(self.summary, 1)
        filters.addWidget(self.text, 2)
        filters.addWidget(self.tag)
        filters.addWidget(self.source)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 0)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)

    def set_choices(self, tags: list[str], sources: list[Source]) -> None:
        """Offer these tags and sources in the filters (keeping the choices made when they remain)."""
        for combo, everything, entries in ((self.tag, "All tags", [(f"#{t}", t) for t in tags]),
                                           (self.source, "All sources", [(s.title, s.id) for s in sources])):
            chosen = combo.currentData()
            combo.clear()
            combo.addItem(everything, None)
            for text, value in entries:
                combo.addItem(text, value)
            combo.setCurrentIndex(max(0, combo.findData(chosen)) if chosen is not None else 0)

    def note_filter(self) -> NoteFilter:
        """The filter the controls describe."""
        return NoteFilter(tag=self.tag.currentData(), source_id=self.source.currentData(), text=self.text.text())

    def stop_filtering(self) -> None:
        """Drop a filter change that is still waiting to be applied."""
        self._timer.stop()

    def show_notes(self, notes: list[Note]) -> None:
        """Show ``notes`` (already filtered and sorted), the note that was current still current, else the first:
        the details show its item (not the one selected in the list before)."""
        current = self.model.note_at(self.table.currentIndex().row())
        self.model.populate(notes)
        self._fit_columns()
        self.summary.setText(f"<b>{len(notes)} note{'s' if len(notes) != 1 else ''}</b>")
        row = self.model.row_of(current.id) if current is not None else None
        if notes:
            self.table.selectRow(row or 0)
        else:
            self.note_selected.emit(None)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Down in the filter goes to the notes, as Return does (and as Down in the list's search box does)."""
        if watched is self.text and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.key() == Qt.Key.Key_Down and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            self._to_notes()
            return True
        return super().eventFilter(watched, event)

    def _to_notes(self) -> None:
        """The keyboard to the notes, on the current one (the first when none is); a filter typed applies now."""
        if self._timer.isActive():
            self._timer.stop()
            self.filter_changed.emit(self.note_filter())
        into_rows(self.table)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The columns share the new width (see ITEM_SHARE)."""
        super().resizeEvent(event)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """The item's and source's columns as wide as their longest text, at most their share of the table's
        width; the note's text stretches over the rest, its rows as tall as their text then needs."""
        width = self.table.viewport().width()
        for column, share in ((COL_ITEM, ITEM_SHARE), (COL_SOURCE, SOURCE_SHARE)):
            wanted = max(self.table.sizeHintForColumn(column), self.table.horizontalHeader().sectionSizeHint(column))
            self.table.horizontalHeader().resizeSection(column, min(wanted, int(width * share)))
        self.table.resizeRowsToContents()

    def _on_clicked(self, index: QModelIndex) -> None:
        note = self.model.note_at(index.row())
        if index.column() == COL_AT and note is not None and note.at is not None:
            self.seek_requested.emit(note.item_id, note.at)

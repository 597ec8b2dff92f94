"""The Subscriptions view: every feed with its status and last error, and the actions that fix them."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from earmark.core.models import Source
from earmark.gui.models.sources import (
    COL_CHECKED,
    COL_ERROR,
    COL_ITEMS,
    COL_NEW,
    COL_STATUS,
    COL_TITLE,
    SourceIdRole,
    SourceTableModel,
)


class SubscriptionsView(QWidget):
    """A table of feeds over a SourceTableModel, with buttons for the given actions (the window owns them).

    Signal: ``source_selected(object)`` with the current feed's Source (or None).
    """

    source_selected = Signal(object)

    def __init__(self, model: SourceTableModel, actions: list[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("subscriptionsView")
        self.model = model
        self.summary = QLabel()
        self.summary.setObjectName("subscriptionsSummary")
        self.table = QTableView()
        self.table.setObjectName("subscriptionsTable")
        self.table.setAccessibleName("Subscriptions")
        self.table.setModel(model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(COL_ERROR, QHeaderView.ResizeMode.Stretch)
        for column, width in ((COL_TITLE, 190), (COL_STATUS, 115), (COL_ITEMS, 50), (COL_CHECKED, 95),
                              (COL_NEW, 95)):
            header.resizeSection(column, width)
        buttons = QHBoxLayout()  # the summary has a line of its own: beside the buttons it was cut short
        buttons.addStretch(1)
        for action in actions:
            self.table.addAction(action)
            button = QToolButton()
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard works through the shortcuts
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 0)
        layout.addWidget(self.summary)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.summary.setWordWrap(True)  # the feeds left out make it long: it wraps in a narrow window
        self.table.selectionModel().currentRowChanged.connect(self._on_current_moved)
        model.modelAboutToBeReset.connect(self._remember_selection)
        model.modelReset.connect(self._restore_selection)
        model.modelReset.connect(self._update_summary)
        self._selected: list[int] = []
        self._current: int | None = None
        self._chosen = False
        self._picked: list[int] = []

    def current_source(self) -> Source | None:
        """The feed of the current row."""
        index = self.table.currentIndex()
        return self.model.source_at(index.row()) if index.isValid() else None

    def selected_source_ids(self) -> list[int]:
        """The ids of the selected feeds (the current one when nothing is selected)."""
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        if not rows and self.table.currentIndex().isValid():
            rows = [self.table.currentIndex().row()]
        return [int(self.model.index(row, 0).data(SourceIdRole)) for row in rows]

    def _remember_selection(self) -> None:
        self._selected = self.selected_source_ids()
        # chosen by the person: not only Qt's current row of a focus-in, nor the feed picked below
        self._chosen = bool(self.table.selectionModel().selectedRows()) and self._selected != self._picked
        current = self.table.currentIndex()
        self._current = int(current.data(SourceIdRole)) if current.isValid() else None

    def _restore_selection(self) -> None:
        selection = self.table.selectionModel()
        for source_id in self._selected:
            row = self.model.row_of(source_id)
            if row is not None:
                selection.select(self.model.index(row, 0), selection.SelectionFlag.Select
                                 | selection.SelectionFlag.Rows)
        row = self.model.row_of(self._current) if self._current is not None else None
        flags = selection.SelectionFlag.NoUpdate
        if not self._chosen and self.model.rowCount():  # a feed's details at once: the first failing one, else
            failing = self.model.failing()  # the current or the first
            first_failing = self.model.row_of(failing[0].id) if failing else None
            row = first_failing if first_failing is not None else row if row is not None else 0
            flags = selection.SelectionFlag.ClearAndSelect | selection.SelectionFlag.Rows
            self._picked = [int(self.model.index(row, 0).data(SourceIdRole))]
        if row is not None:
            selection.setCurrentIndex(self.model.index(row, 0), flags)
        if self.isVisible():
            self.source_selected.emit(self.current_source())  # its facts changed with the reload

    def _on_current_moved(self) -> None:
        if self.isVisible():  # hidden, a reload's new current row must not take the details from the list's item
            self.source_selected.emit(self.current_source())

    def _update_summary(self) -> None:
        total, failing, left_out = self.model.rowCount(), len(self.model.failing()), len(self.model.left_out())
        trouble = f" — {failing} with problems" if failing else ""
        waiting = (f"; {left_out} left out of automatic refreshes (waiting after failures, or gone; F5 checks them)"
                   if left_out else "")
        self.summary.setText(f"<b>{total} feed{'s' if total != 1 else ''}</b>{trouble}{waiting}")

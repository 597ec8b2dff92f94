"""The "Up next" panel: the queue as a list to play from, reorder (Alt+Up/Down, drag and drop) and prune."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListView, QVBoxLayout, QWidget

from earmark.gui.models.queue import ItemIdRole, QueueModel
from earmark.gui.views.current_row import CurrentRow


class QueueView(QWidget):
    """A heading and the queue list. The list accepts internal drags only."""

    def __init__(self, model: QueueModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("queuePanel")
        self.heading = QLabel()
        self.heading.setObjectName("queueHeading")
        self.heading.setWordWrap(True)  # a narrow pane wraps the heading rather than widening the window
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.list = QListView()
        self.list.setObjectName("queueList")
        self.list.setAccessibleName("Up next")
        self.list.setModel(model)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.list.setDragEnabled(True)
        self.list.setAcceptDrops(True)
        self.list.setDropIndicatorShown(True)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        CurrentRow(self.list)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.setSpacing(2)
        layout.addWidget(self.heading)
        layout.addWidget(self.list, 1)
        model.modelReset.connect(lambda: self._count(model.rowCount()))
        self._count(0)

    def _count(self, rows: int) -> None:
        self.heading.setText(f"Up next ({rows})" if rows else "Up next — empty (Q adds the selected episode)")

    def selected_ids(self) -> list[int]:
        """The selected queued items, in queue order."""
        rows = sorted(index.row() for index in self.list.selectionModel().selectedRows())
        model = self.list.model()
        return [int(model.index(row, 0).data(ItemIdRole)) for row in rows]

    def current_id(self) -> int | None:
        """The queued item with the keyboard focus."""
        index = self.list.currentIndex()
        return int(index.data(ItemIdRole)) if index.isValid() else None

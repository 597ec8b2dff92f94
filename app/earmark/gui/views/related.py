"""The Related pane below the item's details: the items most related to it, with the reasons."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListView, QVBoxLayout, QWidget

from earmark.core.models import Related
from earmark.gui.models.related import ItemIdRole, RelatedModel


class RelatedPane(QWidget):
    """Lists an item's related items. Signal: ``item_chosen(int)`` when one is activated (Enter, double
    click)."""

    item_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("relatedPane")
        self.model = RelatedModel(self)
        self.heading = QLabel("<b>Related</b>")
        self.hint = QLabel()
        self.hint.setStyleSheet("color: gray")
        self.hint.setWordWrap(True)
        self.list = QListView()
        self.list.setObjectName("relatedList")
        self.list.setAccessibleName("Related items")
        self.list.setModel(self.model)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        self.list.activated.connect(self._activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.heading)
        layout.addWidget(self.hint)
        layout.addWidget(self.list, 1)
        self.show_related(None, [])

    def show_related(self, title: str | None, rows: list[Related], working: bool | None = False) -> None:
        """Show ``rows`` for the item called ``title`` (None: nothing selected); ``working`` says they are being
        worked out (None: being read, a moment)."""
        self.model.set_related(rows)
        if title is None:
            self.hint.setText("Select an item to see what relates to it.")
        elif working is None:
            self.hint.setText("")
        elif working:
            self.hint.setText("Working out related items…")
        elif not rows:
            self.hint.setText("Nothing in the library relates to it yet.")
        else:
            self.hint.setText("")
        self.hint.setVisible(bool(self.hint.text()))

    def _activated(self, index: QModelIndex) -> None:
        item_id = index.data(ItemIdRole)
        if isinstance(item_id, int):
            self.item_chosen.emit(item_id)

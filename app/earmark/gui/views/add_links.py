"""Add Links from This Item…: the item's links, filtered as you type, checked to be saved as articles."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from earmark.core.articles.links import Link
from earmark.core.plurals import counted
from earmark.gui.models.links import LinkListModel


class _FilterLine(QLineEdit):
    """The filter line: Down moves into the list."""

    def __init__(self, target: QWidget) -> None:
        super().__init__()
        self._target = target

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Down:
            self._target.setFocus()
            return
        super().keyPressEvent(event)


class AddLinksDialog(QDialog):
    """Lists ``links`` of the item titled ``title``; Space checks a link, Ctrl+A checks every one shown,
    Return adds the checked ones. Signal: ``chosen(list)`` of Link, when accepted with links checked."""

    chosen = Signal(list)

    def __init__(self, title: str, links: list[Link], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("addLinksDialog")
        self.setWindowTitle("Add Links from This Item")
        self.resize(720, 520)
        self.model = LinkListModel(links, self)
        self.shown = QSortFilterProxyModel(self)
        self.shown.setSourceModel(self.model)
        self.shown.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.list = QListView()
        self.list.setObjectName("linkList")
        self.list.setAccessibleName("Links")
        self.list.setModel(self.shown)
        self.list.setAlternatingRowColors(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.filter = _FilterLine(self.list)
        self.filter.setObjectName("linkFilter")
        self.filter.setPlaceholderText("Type to filter the links by their text or address")
        self.filter.textChanged.connect(self.shown.setFilterFixedString)
        saved = sum(link.saved for link in links)
        heading = QLabel(f"<b>{counted(len(links), 'link')}</b> in “{title}”"
                         + (f", {saved} saved already" if saved else "")
                         + ". Space checks a link; the checked ones become articles, titled by their link text.")
        heading.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.add_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.add_button.setText("Add Articles")
        all_button = QPushButton("Check All Shown")
        none_button = QPushButton("Check None")
        buttons.addButton(all_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(none_button, QDialogButtonBox.ButtonRole.ActionRole)
        all_button.clicked.connect(self.check_shown)
        none_button.clicked.connect(lambda: self.model.set_all(False))
        QShortcut(QKeySequence("Ctrl+A"), self, self.check_shown)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        if self.shown.rowCount():
            self.list.setCurrentIndex(self.shown.index(0, 0))
        self.list.setFocus()

    def check_shown(self) -> None:
        """Check every link the filter shows."""
        rows = [self.shown.mapToSource(self.shown.index(row, 0)).row() for row in range(self.shown.rowCount())]
        self.model.set_all(True, rows)

    def accept(self) -> None:
        links = self.model.chosen()
        super().accept()
        if links:
            self.chosen.emit(links)

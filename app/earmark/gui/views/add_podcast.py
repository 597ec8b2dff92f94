"""Add Podcast (Ctrl+N): one box. Words search the podcast directories, an address subscribes; the results
list by keys (Down into it, Enter previews, Esc back), each podcast previewed before it is subscribed to."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from earmark.gui.models.directory_results import RESULT_COVER, DirectoryResultsModel
from earmark.gui.views.current_row import into_rows
from earmark.gui.views.podcast_preview import PodcastPreview

if TYPE_CHECKING:
    from earmark.gui.covers.cache import CoverCache

WIDTH, HEIGHT = 680, 560


class _FindField(QLineEdit):
    """The box: Down moves into the results."""

    def __init__(self, results: QListView) -> None:
        super().__init__()
        self._results = results

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Down and into_rows(self._results):
            return
        super().keyPressEvent(event)


class _ResultList(QListView):
    """The results: Up from the first row goes back to the box."""

    def __init__(self) -> None:
        super().__init__()
        self.box: QLineEdit | None = None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Up and self.currentIndex().row() <= 0 and self.box is not None:
            self.box.setFocus()
            return
        super().keyPressEvent(event)


class AddPodcastDialog(QDialog):
    """The dialog; the discovery controller runs what it asks for. Signals: ``submitted(str)`` (Enter in the
    box), ``preview_requested(int)`` (a result's row: Enter or a click), ``subscribe_requested()`` (from the
    preview), ``popular_requested(str, str)`` (a directory's name and a category's code), ``key_requested()`` (the
    Podcast Index Key… button)."""

    submitted = Signal(str)
    preview_requested = Signal(int)
    subscribe_requested = Signal()
    popular_requested = Signal(str, str)
    key_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("addPodcastDialog")
        self.setWindowTitle("Add Podcast")
        self.resize(WIDTH, HEIGHT)
        self.model = DirectoryResultsModel(self)
        self.results = _ResultList()
        self.results.setObjectName("directoryResults")
        self.results.setAccessibleName("Podcasts found")
        self.results.setModel(self.model)
        self.results.setAlternatingRowColors(True)
        self.results.setWordWrap(True)
        self.results.setSpacing(2)
        self.results.setIconSize(QSize(RESULT_COVER, RESULT_COVER))
        self.results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.results.activated.connect(self._preview)
        self.results.clicked.connect(self._preview)
        self.field = _FindField(self.results)
        self.results.box = self.field
        self.field.setObjectName("findField")
        self.field.setAccessibleName("Podcast name, words or address")
        self.field.setPlaceholderText("A podcast's name or words about it, or its address (website, feed, Apple "
                                      "Podcasts page)")
        self.field.returnPressed.connect(lambda: self.submitted.emit(self.field.text().strip()))
        self.services = QLabel()
        self.services.setObjectName("findServices")
        self.services.setWordWrap(True)
        self.message = QLabel()
        self.message.setObjectName("findMessage")
        self.message.setAccessibleName("Search status")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.popular = QComboBox()
        self.popular.setObjectName("popularBox")
        self.popular.setAccessibleName("Popular podcasts")
        self.popular.activated.connect(self._popular_chosen)
        self.preview = PodcastPreview()
        self.preview.back_clicked.connect(self.back_to_results)
        self.preview.subscribe_clicked.connect(self.subscribe_requested)
        self.pages = QStackedWidget()
        self.pages.addWidget(self._search_page())
        self.pages.addWidget(self.preview)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        close.button(QDialogButtonBox.StandardButton.Close).setAutoDefault(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages, 1)
        layout.addWidget(close)
        self.field.setFocus()

    def use_covers(self, covers: CoverCache) -> None:
        """Show the podcasts' covers beside the results and in the preview."""
        self.model.use_covers(covers)
        self.preview.use_covers(covers)

    def _search_page(self) -> QWidget:
        page = QWidget()
        popular_row = QHBoxLayout()
        popular_label = QLabel("&Popular:")
        popular_label.setBuddy(self.popular)
        popular_row.addWidget(popular_label)
        popular_row.addWidget(self.popular, 1)
        key_button = QPushButton("Podcast Index &Key…")
        key_button.setObjectName("podcastIndexKey")
        key_button.setAccessibleDescription("Your own Podcast Index API key and secret, for searches to ask it too.")
        key_button.setAutoDefault(False)  # Enter in the box searches; it never opens this
        key_button.clicked.connect(self.key_requested)
        popular_row.addWidget(key_button)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.field)
        layout.addWidget(self.message)
        layout.addWidget(self.services)
        layout.addLayout(popular_row)
        layout.addWidget(self.results, 1)
        return page

    def set_services(self, labels: list[str], popular: list[tuple[str, str, str]]) -> None:
        """Say which services a search goes to (``labels``); ``popular``: (directory, category code, label) of
        each Popular list the chosen directories offer."""
        if labels:
            self.services.setText(f"Searches go to {_listed(labels)}, and only when you press Enter; an address "
                                  "(https://…, a website, an Apple Podcasts page) subscribes. Settings ▸ "
                                  "Directories chooses the services.")
        else:
            self.services.setText("No directory is chosen (Settings ▸ Directories): only addresses can be added.")
        self.popular.clear()
        self.popular.addItem("Choose a list…", None)
        for name, code, label in popular:
            self.popular.addItem(label, (name, code))
        self.popular.setEnabled(bool(popular))

    def _popular_chosen(self, index: int) -> None:
        chosen = self.popular.itemData(index)
        if chosen:
            self.popular_requested.emit(*chosen)

    def _preview(self, index: QModelIndex) -> None:
        if index.isValid():
            self.preview_requested.emit(index.row())

    def show_preview_page(self) -> None:
        """The preview page (filled in by ``preview``)."""
        self.pages.setCurrentWidget(self.preview)

    def back_to_results(self) -> None:
        """The results again, the previewed one current."""
        self.pages.setCurrentIndex(0)
        (self.results if self.model.rowCount() else self.field).setFocus()

    def say(self, text: str) -> None:
        """A sentence under the box (progress, or what went wrong)."""
        self.message.setText(text)

    def address_failed(self, message: str) -> None:
        """The typed address could not be added: its sentence under it, the address selected to be put right."""
        self.back_to_results()
        self.say(message)
        self.field.setFocus()
        self.field.selectAll()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc: from the preview back to the results; from the results, close."""
        if event.key() == Qt.Key.Key_Escape and self.pages.currentWidget() is self.preview:
            self.back_to_results()
            return
        super().keyPressEvent(event)


def _listed(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]

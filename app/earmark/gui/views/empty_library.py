"""What the item list shows while the library is empty: the ways to fill it."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class EmptyLibraryView(QWidget):
    """Offers the sample library and adding a podcast. Signals: ``load_sample_requested()``,
    ``add_podcast_requested()``."""

    load_sample_requested = Signal()
    add_podcast_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        heading = QLabel("<h2>Your library is empty</h2>")
        text = QLabel(
            "Load the sample library to try Earmark with the PyTorch Developer Podcast<br>"
            "and a few articles (everything plays offline), or add a podcast by its feed URL."
        )
        self.sample_button = QPushButton("&Load the sample library")
        self.sample_button.setDefault(True)
        self.sample_button.clicked.connect(self.load_sample_requested)
        self.add_button = QPushButton("&Add a podcast…")
        self.add_button.clicked.connect(self.add_podcast_requested)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        for widget in (heading, text, self.sample_button, self.add_button):
            layout.addWidget(widget, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)

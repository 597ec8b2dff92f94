"""The welcome screen shown while the library is empty (the first run): the ways to fill it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from earmark.gui.icons import app_icon

ICON_SIZE = 96


class EmptyLibraryView(QWidget):
    """Offers the sample library, adding a podcast by its URL and importing an OPML subscription list.

    Signals: ``load_sample_requested()``, ``add_podcast_requested()``, ``import_opml_requested()``.
    """

    load_sample_requested = Signal()
    add_podcast_requested = Signal()
    import_opml_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcome")
        self.setAccessibleName("Welcome")
        logo = QLabel()
        logo.setPixmap(app_icon().pixmap(ICON_SIZE, ICON_SIZE))
        logo.setAccessibleName("Earmark logo")
        heading = QLabel("<h1>Welcome to Earmark</h1>")
        heading.setAccessibleName("Welcome to Earmark")
        text = QLabel(
            "Your library is empty. Fill it in one of three ways; everything can be done from the keyboard<br>"
            "(Tab moves between the buttons, Enter presses one)."
        )
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.sample_button = QPushButton("&Load the sample library")
        self.sample_button.setAccessibleDescription(
            "The PyTorch Developer Podcast with a short clip for every episode, and three articles: "
            "everything plays offline.")
        self.sample_button.setDefault(True)
        self.sample_button.clicked.connect(self.load_sample_requested)
        self.add_button = QPushButton("Find or &add a podcast…")
        self.add_button.setAccessibleDescription("Search the podcast directories by name, or paste a podcast's "
                                                "address (Ctrl+N).")
        self.add_button.clicked.connect(self.add_podcast_requested)
        self.import_button = QPushButton("&Import subscriptions (OPML)…")
        self.import_button.setAccessibleDescription(
            "Subscribe to every feed of a list exported from another podcast app or feed reader (Ctrl+O).")
        self.import_button.clicked.connect(self.import_opml_requested)
        hints = [
            QLabel("Try Earmark with the PyTorch Developer Podcast and three articles, all offline."),
            QLabel("Paste the address of a podcast's feed; feed:, itpc: and podcast: links work too."),
            QLabel("Bring your subscriptions from another podcast app or feed reader."),
        ]
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(logo, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(heading, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(text, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addSpacing(12)
        for button, hint in zip((self.sample_button, self.add_button, self.import_button), hints, strict=True):
            button.setMinimumWidth(320)
            hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            layout.addWidget(button, 0, Qt.AlignmentFlag.AlignHCenter)
            layout.addWidget(hint, 0, Qt.AlignmentFlag.AlignHCenter)
            layout.addSpacing(8)
        layout.addStretch(2)
        self.setTabOrder(self.sample_button, self.add_button)
        self.setTabOrder(self.add_button, self.import_button)
        for button in (self.sample_button, self.add_button, self.import_button):
            button.setAutoDefault(True)  # Enter presses the button that has the focus
            button.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Space presses the focused button, rather than the window's Play/Pause shortcut."""
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Space and not event.modifiers()):
            event.accept()
            return True
        return super().eventFilter(watched, event)

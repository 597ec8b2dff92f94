"""The status-bar widget of a running refresh: how many of how many, the last feed, and Cancel."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget


class RefreshProgress(QWidget):
    """Hidden while idle. Signal: ``cancel_requested()``."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("refreshProgress")
        self._verb = "Refreshing"
        self.label = QLabel()
        self.label.setMinimumWidth(260)
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(160)
        self.bar.setTextVisible(False)
        self.cancel_button = QToolButton()
        self.cancel_button.setText("Cancel")
        self.cancel_button.setAccessibleName("Cancel the refresh")
        self.cancel_button.clicked.connect(self.cancel_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        self.hide()

    def begin(self, text: str, importing: bool = False) -> None:
        """Show an indeterminate bar until the number of feeds is known; ``importing``: of an OPML import, which
        the feed-by-feed progress calls so."""
        self._verb = "Importing" if importing else "Refreshing"
        self.bar.setRange(0, 0)
        self.label.setText(text)
        self.cancel_button.setEnabled(True)
        self.cancel_button.setAccessibleName("Cancel the import" if importing else "Cancel the refresh")
        self.cancel_button.setAccessibleDescription(
            f"Stops {'the import' if importing else 'refreshing the feeds'}; what was fetched is kept.")
        self.show()

    def set_total(self, total: int) -> None:
        """The number of feeds this refresh checks."""
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(0)
        self.label.setText(f"Checking {total} feed{'s' if total != 1 else ''}…")

    def advance(self, title: str) -> None:
        """One more feed is done; ``title`` was the last one."""
        self.bar.setValue(self.bar.value() + 1)
        self.label.setText(f"{self._verb} {self.bar.value()} of {self.bar.maximum()}: {title}")

    def cancelling(self) -> None:
        """The user cancelled: the feeds in flight are finishing."""
        self.cancel_button.setEnabled(False)
        self.label.setText("Cancelling: finishing the feeds in flight…")

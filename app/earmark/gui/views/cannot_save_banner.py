"""The bar above the lists that says why changes cannot be saved (a read-only library, a full disk)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget


class CannotSaveBanner(QLabel):
    """Hidden until ``show_problem`` is called; ``resolve`` hides it again (unless the library is read-only for
    good, ``permanent``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("cannotSaveBanner")
        self.setWordWrap(True)
        self.setMargin(6)
        self.setStyleSheet("background: #fff3cd; color: #5c4400;")
        self.permanent = False
        self.hide()

    def show_problem(self, message: str, permanent: bool = False) -> None:
        """Say that nothing can be saved, and why (``message``, one sentence)."""
        self.permanent = self.permanent or permanent
        self.setText(f"Changes cannot be saved: {message} You can still browse, search and play.")
        self.show()

    def resolve(self) -> bool:
        """Hide the bar after a write worked; True when it was showing."""
        if self.permanent or self.isHidden():
            return False
        self.hide()
        return True

"""An event filter on the whole application, for what concerns a window wherever the event happens (the mouse's
side buttons over any widget, Tab in any pane), removed again when the window closes.

Such a filter is made once the window's first frame is painted: for each kind of object PySide6 hands a filter
written in Python, it makes that kind's Python type with all its enums (~25 ms of a first frame, for nothing)."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication


class ApplicationFilter(QObject):
    """Installs itself on the application; ``shutdown()`` removes it. Subclasses implement ``eventFilter``."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def shutdown(self) -> None:
        """Stop watching (the window is closing)."""
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)

"""How the window tells the person what happened: a sentence in the status bar, a dialog for what went wrong
(one per sentence at a time), and the bar above the lists while the library cannot be saved."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QMainWindow, QMessageBox

from earmark.gui.views.cannot_save_banner import CannotSaveBanner


def remark(window: QMainWindow, message: str, msecs: int = 8000) -> None:
    """Routine news (a backup made, related items worked out), shown only while the status bar says nothing
    else: it never hides what the person's own action said."""
    status = window.statusBar()
    if not status.currentMessage():
        status.showMessage(message, msecs)


class Feedback(QObject):
    """Speaks for ``window``: its status bar, error dialogs over it, and the cannot-save ``banner``."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self._window = window
        self._open_errors: set[str] = set()  # the sentences shown in an open dialog
        self.banner = CannotSaveBanner()

    def status(self, message: str, msecs: int = 8000) -> None:
        """Show ``message`` in the status bar for ``msecs`` (0: until the next one)."""
        self._window.statusBar().showMessage(message, msecs)

    @Slot(str)
    def show_error(self, message: str, title: str = "Earmark") -> None:
        """Tell the user what went wrong, in a dialog that does not block the event loop (a sentence already
        shown in an open dialog is not shown in a second one)."""
        self._show(QMessageBox.Icon.Warning, message, title)

    def show_note(self, message: str, title: str) -> None:
        """Tell the user something worth reading about what went well, as ``show_error`` does but without a
        warning sign."""
        self._show(QMessageBox.Icon.Information, message, title)

    def _show(self, icon: QMessageBox.Icon, message: str, title: str) -> None:
        self.status(message, 10000)
        if message in self._open_errors:
            return
        box = QMessageBox(icon, title, message, QMessageBox.StandardButton.Ok, self._window)
        box.setObjectName("errorDialog")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._open_errors.add(message)
        box.finished.connect(lambda _result: self._open_errors.discard(message))
        box.open()

    @Slot(str)
    def cannot_save(self, message: str) -> None:
        """The library is read-only or its disk is full: say so above the lists until a write succeeds again
        (not in a dialog per write: playback alone saves every few seconds)."""
        self.banner.show_problem(message)
        self.status(message, 10000)

    @Slot()
    def saved(self) -> None:
        """A write succeeded: the cannot-save bar goes."""
        if self.banner.resolve():
            self.status("The library can be saved again.", 8000)

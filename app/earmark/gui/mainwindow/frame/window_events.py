"""Events that concern the window wherever they happen in the application: the mouse's Back and Forward buttons
over any of its widgets, one of its dialogs closing while it had the keyboard, a letter typed in an open menu, and
Page Up/Down in a list."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QAbstractItemView, QApplication, QDialog, QMenu, QWidget

from earmark.gui.app_filter import ApplicationFilter
from earmark.gui.context_menu import open_context_menu

DIALOG_EVENTS = (QEvent.Type.WindowActivate, QEvent.Type.Close, QEvent.Type.WindowDeactivate, QEvent.Type.Hide)
PAGE_KEYS = (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)
COMMAND_KEYS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier


class WindowEvents(ApplicationFilter):
    """Watches the application's events for ``window``: the mouse's side buttons call ``back()`` and
    ``forward()``; when a dialog of the window closes while it has the keyboard, the window takes the keyboard
    back (a window manager does that; without one the keyboard went nowhere and keys were lost); a letter typed in
    an open menu is the menu's (Qt gave it to a one-key shortcut of the list behind it: T in the Feeds menu, meant
    for Stop, opened the tag editor); Page Up/Down in a list page it (the window's chapter keys on them yield);
    Shift+F10 opens the focused widget's context menu."""

    def __init__(self, window: QWidget, back: Callable[[], None], forward: Callable[[], None]) -> None:
        super().__init__(window)
        self._window = window
        self._back = back
        self._forward = forward
        self._active: QDialog | None = None  # the window's dialog that has the keyboard
        self._closing: QDialog | None = None  # the window's dialog being closed

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """See the class docstring; every other event goes on untouched."""
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent) and isinstance(watched, QWidget):
            if event.button() in (Qt.MouseButton.BackButton, Qt.MouseButton.ForwardButton) \
                    and watched.window() is self._window:
                (self._back if event.button() == Qt.MouseButton.BackButton else self._forward)()
                return True
        elif kind in DIALOG_EVENTS and isinstance(watched, QDialog) and self._owns(watched):
            self._follow_dialog(watched, kind)
        elif kind == QEvent.Type.ShortcutOverride and isinstance(watched, QMenu) and isinstance(event, QKeyEvent) \
                and event.text().isprintable() and event.text() and not event.modifiers() & COMMAND_KEYS:
            event.accept()  # no shortcut takes it: it goes on to the menu, which picks the entry with that letter
            return True
        elif kind == QEvent.Type.ShortcutOverride and isinstance(watched, QAbstractItemView) \
                and isinstance(event, QKeyEvent) and event.key() in PAGE_KEYS and not event.modifiers() & COMMAND_KEYS:
            event.accept()  # a list pages, as every list does; the chapters have Alt+PgUp/PgDn there
            return True
        elif kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_F10 \
                and event.modifiers() == Qt.KeyboardModifier.ShiftModifier and watched is QApplication.focusWidget():
            return open_context_menu(watched)
        return False

    def _owns(self, dialog: QDialog) -> bool:
        parent = dialog.parentWidget()
        return dialog.isWindow() and parent is not None and parent.window() is self._window

    def _follow_dialog(self, dialog: QDialog, kind: QEvent.Type) -> None:
        """A dialog loses the keyboard as it closes (Close, then WindowDeactivate, then Hide) or when the person
        turns to another application (WindowDeactivate alone): only the first gives the keyboard back."""
        if kind == QEvent.Type.WindowActivate:
            self._active, self._closing = dialog, None
        elif kind == QEvent.Type.Close:
            self._closing = dialog
        elif kind == QEvent.Type.WindowDeactivate and self._closing is not dialog:
            self._active = None
        elif kind == QEvent.Type.Hide:
            if self._active is dialog:
                QTimer.singleShot(0, self._take_keyboard_back)
            self._active = self._closing = None

    def _take_keyboard_back(self) -> None:
        """Unless another dialog of the window took the keyboard meanwhile (the command palette's command
        opened one), or the window is gone."""
        others = [widget for widget in QApplication.topLevelWidgets()
                  if isinstance(widget, QDialog) and widget.isVisible() and self._owns(widget)]
        if self._window.isVisible() and not others and QApplication.activeWindow() is None:
            self._window.activateWindow()

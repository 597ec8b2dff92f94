"""Context menus from the keyboard: where one opens (under the current row of a list or table, else in the middle
of the widget), and Shift+F10, which Qt does not map as it maps the Menu key."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget


def keyboard_menu_point(widget: QWidget) -> QPoint:
    """Where ``widget``'s context menu opens from the keyboard, in ``widget``'s coordinates."""
    if isinstance(widget, QAbstractItemView) and widget.currentIndex().isValid():
        row = widget.visualRect(widget.currentIndex())
        return widget.viewport().mapTo(widget, row.bottomLeft())
    return widget.rect().center()


def open_context_menu(widget: QWidget) -> bool:
    """Open ``widget``'s context menu as the Menu key does; False when it has none (the key goes on)."""
    if widget.contextMenuPolicy() in (Qt.ContextMenuPolicy.NoContextMenu, Qt.ContextMenuPolicy.PreventContextMenu):
        return False
    from PySide6.QtGui import QContextMenuEvent  # its type made when first used: the list imports this module

    at = keyboard_menu_point(widget)
    QApplication.sendEvent(widget, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, at, widget.mapToGlobal(at)))
    return True

"""Walking a widget tree for what a screen reader would announce."""

from __future__ import annotations

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QScrollBar,
    QTabBar,
    QTextEdit,
    QWidget,
)

NAMED = (QAbstractButton, QLineEdit, QAbstractSpinBox, QComboBox, QAbstractSlider, QAbstractItemView, QTextEdit,
         QTabBar, QLabel)
PARTS_OF = (QAbstractSpinBox, QComboBox, QLineEdit, QScrollBar)  # their inner widgets are announced with them


def accessible_name(widget: QWidget) -> str:
    """The name assistive technology gets (set explicitly, or derived from the text, a buddy label…)."""
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface.text(QAccessible.Text.Name).strip() if interface is not None else ""


def _inside(widget: QWidget, kinds: tuple[type, ...]) -> bool:
    ancestor = widget.parentWidget()
    while ancestor is not None:
        if isinstance(ancestor, kinds):
            return True
        ancestor = ancestor.parentWidget()
    return False


def unnamed_widgets(root: QWidget) -> list[str]:
    """Widgets under ``root`` that a user interacts with or reads, yet that have no accessible name."""
    missing = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not isinstance(widget, NAMED) or isinstance(widget, QScrollBar | QHeaderView):
            continue
        parent = widget.parentWidget()
        if widget.objectName().startswith("qt_") or _inside(widget, PARTS_OF):
            continue  # Qt's own parts (corner buttons, popups of combo boxes), announced with their owner
        if isinstance(widget, QLabel) and not widget.text() and widget.pixmap().isNull():
            continue  # an empty label shows nothing
        if not accessible_name(widget):
            missing.append(f"{type(widget).__name__} {widget.objectName()!r} in {type(parent).__name__}")
    return missing

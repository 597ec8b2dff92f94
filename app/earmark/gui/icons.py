"""Icons the widgets share, taken from the style so they match the desktop theme."""

from __future__ import annotations

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle


def warning_icon() -> QIcon:
    """The style's warning sign (a null icon without an application style)."""
    style = QApplication.style()
    return style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning) if style else QIcon()

"""Icons the widgets share, taken from the style so they match the desktop theme."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QStyle


def warning_icon() -> QIcon:
    """The style's warning sign (a null icon without an application style)."""
    style = QApplication.style()
    return style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning) if style else QIcon()


def colour_dot(colour: str, size: int = 12) -> QIcon:
    """A filled circle of ``colour`` (a tag's colour)."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(QColor(colour))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)

"""Icons drawn in the palette's text colour at each paint: the style's media icons are dark grey whatever the
theme (dark on the dark theme's buttons); these take the colour of the button's text, also after the theme
changes while the window shows."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QIcon, QIconEngine, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication


class _TintedEngine(QIconEngine):
    """Paints the style's ``pixmap`` icon as a shape filled with the palette's button text colour."""

    def __init__(self, pixmap: QtWidgets.QStyle.StandardPixmap) -> None:
        super().__init__()
        self._pixmap = pixmap

    def clone(self) -> QIconEngine:
        return _TintedEngine(self._pixmap)

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        result = QPixmap(size)
        result.fill(Qt.GlobalColor.transparent)
        painter = QPainter(result)
        self.paint(painter, QRect(0, 0, size.width(), size.height()), mode, state)
        painter.end()
        return result

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        style = QApplication.style()
        if style is None:
            return
        shape = style.standardIcon(self._pixmap).pixmap(rect.size(), mode, state)
        group = QPalette.ColorGroup.Disabled if mode == QIcon.Mode.Disabled else QPalette.ColorGroup.Normal
        tinted = QPixmap(shape.size())
        tinted.setDevicePixelRatio(shape.devicePixelRatio())
        tinted.fill(QApplication.palette().color(group, QPalette.ColorRole.ButtonText))
        mask = QPainter(tinted)
        mask.setCompositionMode(QPainter.CompositionMode.CompositionMode_DestinationIn)
        mask.drawPixmap(0, 0, shape)
        mask.end()
        painter.drawPixmap(rect, tinted)


def tinted_icon(pixmap: QtWidgets.QStyle.StandardPixmap) -> QIcon:
    """The style's standard icon ``pixmap`` in the text colour of the theme in force when it is painted."""
    return QIcon(_TintedEngine(pixmap))

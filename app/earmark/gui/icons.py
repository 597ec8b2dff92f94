"""Icons the widgets share, taken from the style so they match the desktop theme."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QApplication

from earmark.core.package_data import resource_folder


def warning_icon() -> QIcon:
    """The style's warning sign (a null icon without an application style). QStyle is named here, not imported
    with the module: its Python type, with its many enums, costs ~7 ms to make, which a first frame without a
    warning need not pay."""
    style = QApplication.style()
    return style.standardIcon(QtWidgets.QStyle.StandardPixmap.SP_MessageBoxWarning) if style else QIcon()


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


APP_ICON_NAME = "io.github.earmark.Earmark"  # the application id: desktop entry, metainfo and icon name


def app_icon() -> QIcon:
    """Earmark's icon: the PNG sizes shipped in resources/icons/hicolor, 16 to 512 pixels, each read when first
    shown. (The scalable SVG beside them is for the desktop's icon theme: read here, it loaded Qt's SVG icon
    engine and its PNGs were read at once, ~50 ms of every start before the window showed.)"""
    icon = QIcon()
    hicolor = resource_folder() / "icons" / "hicolor"
    if hicolor.is_dir():
        for folder in hicolor.iterdir():
            png = folder / "apps" / f"{APP_ICON_NAME}.png"
            width, _, height = folder.name.partition("x")
            if png.is_file() and width.isdigit() and height.isdigit():
                icon.addFile(str(png), QSize(int(width), int(height)))
    return icon

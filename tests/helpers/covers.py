"""Reading covers off the screen: the colour a widget shows in a rectangle, beside the colour a cover file (or a
placeholder) has there once scaled to the size shown."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractItemView, QWidget

from earmark.core.sample import FEED_COVER, sample_folder
from earmark.gui.covers.placeholder import placeholder

Colour = tuple[int, int, int]
SAMPLE_COVER = sample_folder() / "covers" / FEED_COVER


def average(image: QImage, rect: QRect) -> Colour:
    """The mean colour of ``rect`` in ``image``."""
    total, count = [0, 0, 0], 0
    for x in range(rect.left(), rect.right() + 1):
        for y in range(rect.top(), rect.bottom() + 1):
            colour = QColor(image.pixel(x, y))
            total = [total[0] + colour.red(), total[1] + colour.green(), total[2] + colour.blue()]
            count += 1
    return (total[0] // count, total[1] // count, total[2] // count)


def shown(widget: QWidget, rect: QRect) -> Colour:
    """The mean colour ``widget`` paints in ``rect`` (its own coordinates, in logical pixels)."""
    image = widget.grab().toImage()
    ratio = image.devicePixelRatio()
    scaled = QRect(round(rect.x() * ratio), round(rect.y() * ratio), round(rect.width() * ratio),
                   round(rect.height() * ratio))
    return average(image, scaled)


def cover_at(path: Path, size: int, inner: QRect) -> Colour:
    """The mean colour of ``inner`` in the cover at ``path`` scaled to ``size`` pixels."""
    image = QImage(str(path)).scaled(size, size, Qt.AspectRatioMode.IgnoreAspectRatio,
                                     Qt.TransformationMode.SmoothTransformation)
    return average(image, inner)


def placeholder_at(title: str, size: int, dark: bool, inner: QRect) -> Colour:
    """The mean colour of ``inner`` in the placeholder of ``title``."""
    return average(placeholder(title, size, dark).convertToFormat(QImage.Format.Format_RGB32), inner)


def near(first: Colour, second: Colour, tolerance: int = 32) -> bool:
    """Whether two colours are alike (each channel within ``tolerance``)."""
    return all(abs(a - b) <= tolerance for a, b in zip(first, second, strict=True))


def somewhere_in(widget: QWidget, box: QRect, colour: Colour, side: int = 12) -> bool:
    """Whether ``widget`` paints ``colour`` in some ``side``-pixel square inside ``box`` (a cover whose place
    the layout decides: the details' floats right of the text)."""
    image = widget.grab().toImage()
    box = box.intersected(QRect(0, 0, image.width(), image.height()))
    return any(near(average(image, QRect(x, y, side, side)), colour, 20)
               for x in range(box.left(), box.right() - side, 4) for y in range(box.top(), box.bottom() - side, 4))


def quadrant(size: int) -> QRect:
    """The cover's top-left quarter, a little inside its edge (the sample cover's plain gradient)."""
    return QRect(3, 3, size // 2 - 4, size // 2 - 4)


def painted_icon(view: QAbstractItemView, index: QModelIndex, size: int) -> Colour:
    """The colour painted in the top-left quarter of the icon of ``index`` (icons sit 4 px in, centred)."""
    rect = view.visualRect(index)
    inner = quadrant(size)
    return shown(view.viewport(), inner.translated(rect.left() + 4, rect.top() + (rect.height() - size) // 2))

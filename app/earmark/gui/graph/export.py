"""Pictures of the graph: the whole scene (not just what the view shows) as PNG or SVG."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from earmark.core.errors import UnreachableError

MARGIN = 40.0
MAX_PIXELS = 6000  # the longer side of a PNG, at most


def _bounds(scene: QGraphicsScene) -> QRectF:
    return scene.itemsBoundingRect().adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)


def save_png(scene: QGraphicsScene, path: Path, scale: float = 1.0) -> None:
    """Render the scene to a PNG file on white."""
    bounds = _bounds(scene)
    scale = min(scale, MAX_PIXELS / max(bounds.width(), bounds.height(), 1.0))
    image = QImage(QSize(max(1, int(bounds.width() * scale)), max(1, int(bounds.height() * scale))),
                   QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(painter, QRectF(image.rect()), bounds, Qt.AspectRatioMode.KeepAspectRatio)
    painter.end()
    if not image.save(str(path.with_suffix(".png")) if path.suffix.lower() != ".png" else str(path)):
        raise UnreachableError(f"Could not write {path}.")


def save_svg(scene: QGraphicsScene, path: Path) -> None:
    """Render the scene to an SVG file."""
    bounds = _bounds(scene)
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(QSize(int(bounds.width()), int(bounds.height())))
    generator.setViewBox(QRectF(0, 0, bounds.width(), bounds.height()))
    generator.setTitle("Earmark topic graph")
    painter = QPainter()
    if not painter.begin(generator):
        raise UnreachableError(f"Could not write {path}.")
    scene.render(painter, QRectF(0, 0, bounds.width(), bounds.height()), bounds)
    painter.end()
    if not path.exists():
        raise UnreachableError(f"Could not write {path}.")

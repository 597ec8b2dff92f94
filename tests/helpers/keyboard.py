"""Where the keyboard is, said as a person would: the pane the focused widget is in (the object names of the
window's panes, innermost first), and whether the window as drawn shows a focus frame round it."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QWidget

PANES = (("search", "search"), ("graphFind", "search"), ("itemList", "list"), ("filterBar", "filters"),
         ("detailPane", "details"), ("relatedPane", "related"), ("notesPane", "notes"),
         ("transcriptPane", "transcript"), ("queuePanel", "up next"), ("playerBar", "player"),
         ("sidebar", "sidebar"), ("centralViews", "view"))


def pane_of(widget: QWidget | None) -> str:
    """The pane ``widget`` is in ("" for none of them)."""
    while widget is not None:
        for name, pane in PANES:
            if widget.objectName() == name:
                return pane
        widget = widget.parentWidget()
    return ""


def focused_pane() -> str:
    """The pane the keyboard is in."""
    return pane_of(QApplication.focusWidget())


def collapse(panes: list[str]) -> list[str]:
    """Panes in the order visited, each once per visit (several Tabs inside one pane count once)."""
    return [pane for i, pane in enumerate(panes) if i == 0 or panes[i - 1] != pane]


def shows_focus_frame(widget: QWidget, colour: QColor) -> bool:
    """Whether the window, as drawn, shows a ring of ``colour`` along every edge of ``widget`` (nine in ten
    points of its outer two pixels)."""
    window = widget.window()
    image = window.grab().toImage()
    ratio = image.devicePixelRatio()
    corner = widget.mapTo(window, QPoint(0, 0))
    left, top, right, bottom = corner.x(), corner.y(), corner.x() + widget.width() - 1, corner.y() + widget.height() - 1
    points = [(x, y) for x in range(left + 4, right - 3, 3) for y in (top, top + 1, bottom, bottom - 1)]
    points += [(x, y) for y in range(top + 4, bottom - 3, 3) for x in (left, left + 1, right, right - 1)]

    def near(x: int, y: int) -> bool:
        seen = image.pixelColor(int(x * ratio), int(y * ratio))
        return abs(seen.red() - colour.red()) + abs(seen.green() - colour.green()) \
            + abs(seen.blue() - colour.blue()) < 60

    return bool(points) and sum(near(x, y) for x, y in points) >= 0.9 * len(points)

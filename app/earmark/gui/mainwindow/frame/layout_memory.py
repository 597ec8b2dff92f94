"""The window's arrangement remembered across restarts: its size and place, the pane sizes and the item list's
column widths (restored before the window first shows, so that it opens as it was left)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QHeaderView, QMainWindow, QSplitter

from earmark.core.records import record
from earmark.gui.models.items import COL_TITLE
from earmark.gui.preferences import Preferences

FIRST_SIZE = QSize(1280, 800)
# Room left on the screen around a first window for what the window manager adds (a title bar, borders): on a
# 1366 × 768 laptop a 1280 × 800 window put the player's controls and the status bar below the screen's edge.
FRAME_ROOM = QSize(24, 64)


@record(frozen=True)
class WindowLayout:
    """What of the window's arrangement is remembered: its size and place, the pane ``splitters`` (the columns,
    then the item side) and the item list's column widths (``header``)."""

    window: QMainWindow
    splitters: tuple[QSplitter, ...]
    header: QHeaderView


def size_first_window(window: QMainWindow) -> None:
    """The size of a window with nothing remembered: FIRST_SIZE, or what the screen has room for when it is
    smaller. (A remembered size too big for today's screen is made to fit by ``restoreGeometry``.)"""
    room = window.screen().availableGeometry().size() - FRAME_ROOM
    window.resize(FIRST_SIZE.boundedTo(room))


def restore_layout(layout: WindowLayout, prefs: Preferences) -> None:
    """Give the window the size, place, pane sizes and column widths it had when it closed."""
    geometry = prefs.value("window.geometry")
    if isinstance(geometry, bytes) and geometry:
        layout.window.restoreGeometry(geometry)
    splitters = prefs.value("window.splitters")
    if isinstance(splitters, list):
        for splitter, sizes in zip(layout.splitters, splitters, strict=False):
            if (isinstance(sizes, list) and len(sizes) == splitter.count()
                    and all(isinstance(s, int) and s >= 0 for s in sizes) and sum(sizes) > 0):
                splitter.setSizes(sizes)
    columns = prefs.value("window.columns")
    header = layout.header
    if isinstance(columns, list):
        for entry in columns:
            if (isinstance(entry, list) and len(entry) == 2 and all(isinstance(v, int) for v in entry)
                    and 0 <= entry[0] < header.count() and entry[0] != COL_TITLE and entry[1] > 10):
                header.resizeSection(entry[0], entry[1])


def save_layout(layout: WindowLayout, prefs: Preferences) -> None:
    """Remember the window's size and place, pane sizes and column widths."""
    prefs.set_value("window.geometry", bytes(layout.window.saveGeometry().data()))
    prefs.set_value("window.splitters", [splitter.sizes() for splitter in layout.splitters])
    header = layout.header
    widths = [[column, header.sectionSize(column)] for column in range(header.count())
              if column != COL_TITLE and not header.isSectionHidden(column) and header.sectionSize(column) > 0]
    previous = {entry[0]: entry for entry in prefs.value("window.columns") or []  # type: ignore[attr-defined]
                if isinstance(entry, list) and len(entry) == 2}
    previous.update({entry[0]: entry for entry in widths})  # a hidden column keeps its last width
    prefs.set_value("window.columns", sorted(previous.values()))

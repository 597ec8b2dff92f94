"""Where the keyboard is, said as a person would: the pane the focused widget is in (the object names of the
window's panes, innermost first)."""

from __future__ import annotations

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
